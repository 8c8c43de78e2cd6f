"""FFT licence numbers: one format, checked and restored the same way by every entry point.

An FFT licence is a number of up to LICENCE_DIGITS digits, written with its leading zeros
("0412345"). Spreadsheets store it as a number and drop those zeros (412345), so shorter
numbers are padded back to the canonical length: the same person then has the same licence
whether the list came as CSV, as .xlsx or was typed at the desk. Spaces, dots and dashes
typed inside the number ("04 12 345") are ignored. Anything else (letters) is refused with a
message naming the field. The registration form, the import and the backup restore all call
`licence_clean`.
"""

from __future__ import annotations

import re

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

LICENCE_DIGITS = 7
_SEPARATORS = re.compile(r"[\s.\-]+")
_DIGITS = re.compile(rf"[0-9]{{1,{LICENCE_DIGITS}}}")


def licence_error(value: str) -> str:
    """The French message for a malformed licence, naming the field and the rule."""
    return _(
        "Licence FFT « %(value)s » invalide : un numéro de licence a %(digits)s chiffres "
        "au plus (les zéros en tête sont rétablis)."
    ) % {"value": value, "digits": LICENCE_DIGITS}


def licence_clean(value: str | int | None) -> str:
    """The canonical licence ("0412345"), or "" when none is given.

    Raises ValidationError (code "licence") when the value is not a licence number.
    """
    if value is None:
        return ""
    if isinstance(value, bool):
        raise ValidationError(licence_error(str(value)), code="licence")
    if isinstance(value, int):
        value = str(value)
    text = _SEPARATORS.sub("", str(value))
    if not text:
        return ""
    if not _DIGITS.fullmatch(text):
        raise ValidationError(licence_error(str(value).strip()[:40]), code="licence")
    return text.zfill(LICENCE_DIGITS)
