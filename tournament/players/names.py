"""The one rule for a person's name or club as typed, wherever it is typed (the sign-up page,
the door, the desk's player form, an imported file): invisible and control characters refused
with a message naming the field, then NFKC normalisation and single spaces.

Refused: control characters (Cc, but a typed tab or line break is just a space), format
characters (Cf: the bidi embeddings, overrides and isolates U+202A–U+202E and U+2066–U+2069,
the direction marks U+200E/U+200F, zero-width spaces and joiners, the soft hyphen…),
surrogates, private-use and unassigned code points, line and paragraph separators. They make a
name read differently from what it holds ("‮nirtseP" shows as "Pertsin…") or hide a
difference two names would otherwise show. NFKC then turns compatibility forms into plain
ones: full-width "ＤＵＰＲＥ" is "DUPRE", the ligature "ﬁ" is "fi".
Lookalike letters of other scripts (Cyrillic "Р" for Latin "P") are allowed (real names use
those scripts) and folded for the duplicate checks by tournament.core.collation.fold.
"""

from __future__ import annotations

import unicodedata

from django import forms
from django.core.exceptions import ValidationError
from django.utils.text import capfirst
from django.utils.translation import gettext as _

REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
TYPED_SPACES = frozenset("\t\n\r")  # pasted from a spreadsheet: folded into one space


def refused_characters(text: str) -> list[str]:
    """The characters of `text` a name may not hold, each once, in order."""
    found: list[str] = []
    for char in text or "":
        if char in TYPED_SPACES or char in found:
            continue
        if unicodedata.category(char) in REFUSED_CATEGORIES:
            found.append(char)
    return found


def name_normalise(text: str) -> str:
    """NFKC, then single spaces: how the roster keeps a name once it passed name_check."""
    return " ".join(unicodedata.normalize("NFKC", text or "").split())


def name_refusal(text: str, label: str) -> str | None:
    """The French sentence refusing `text` for the field `label`, or None when it is fine."""
    refused = refused_characters(text)
    if not refused:
        return None
    return _(
        "%(field)s : caractère invisible ou de contrôle refusé (%(characters)s) ; "
        "retapez-le sans copier-coller."
    ) % {
        "field": capfirst(label),
        "characters": ", ".join(f"U+{ord(char):04X}" for char in refused),
    }


def person_labels() -> dict[str, str]:
    """The fields of a person typed in, with their French labels (for the messages)."""
    return {"last_name": _("Nom"), "first_name": _("Prénom"), "club": _("Club")}


def person_clean(values: dict[str, str]) -> dict[str, str]:
    """The name fields of `values` checked and normalised (the others left as they are); every
    field refused at once, each under its own key."""
    cleaned, errors = dict(values), {}
    for field, label in person_labels().items():
        if field in values:
            message = name_refusal(values[field], label)
            if message is None:
                cleaned[field] = name_normalise(values[field])
            else:
                errors[field] = message
    if errors:
        raise ValidationError(errors, code="characters")
    return cleaned


def name_clean(text: str, *, label: str, field: str | None = None) -> str:
    """`text` checked and normalised; refused with a message naming the field (under the
    form field `field` when given, for the service's callers to show it in place)."""
    message = name_refusal(text, label)
    if message is not None:
        raise ValidationError({field: message} if field else message, code="characters")
    return name_normalise(text)


class NameField(forms.CharField):
    """A form's text field for a name or a club: the rule above, then NFKC (the length is
    checked on the normalised text, the one stored)."""

    def to_python(self, value) -> str:
        text = super().to_python(value) or ""
        message = name_refusal(text, str(self.label))
        if message is not None:
            raise ValidationError(message, code="characters")
        return name_normalise(text)
