"""Typing a file's values field by field, and how a refusal names the row and the field."""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from django.core.exceptions import FieldDoesNotExist, ValidationError
from django.db import models
from django.db.backends.base.operations import BaseDatabaseOperations
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from scoring.core.deal import is_int
from scoring.documents.backup.document import MAX_SCALAR_TEXT, shown

if TYPE_CHECKING:
    ModelField = models.Field[Any, Any]


class RowError(Exception):
    """A problem with one field or row; the checker adds where it is."""

    def __init__(self, problem: str):
        super().__init__(problem)
        self.problem = problem


# How a message names a row: by its key in the file (translated when the message is built).
_ROW_NAMES = {
    "tournament.player": gettext_noop("joueur %(pk)s"),
    "tournament.tournament": gettext_noop("tournoi %(pk)s"),
    "tournament.team": gettext_noop("équipe %(pk)s"),
    "tournament.registration": gettext_noop("inscription %(pk)s"),
    "tournament.position": gettext_noop("position %(pk)s"),
    "tournament.table": gettext_noop("table %(pk)s"),
    "tournament.seat": gettext_noop("place %(pk)s"),
    "scoring.scoresheet": gettext_noop("feuille %(pk)s"),
    "scoring.sheetplayer": gettext_noop("joueur de feuille %(pk)s"),
    "scoring.deal": gettext_noop("donne %(pk)s"),
    "scoring.dealscore": gettext_noop("score %(pk)s"),
    "scoring.incident": gettext_noop("incident %(pk)s"),
    "tournament.changelog": gettext_noop("historique %(pk)s"),
}


def row_name(label: str, pk: Any) -> str:
    """A row as a message names it: "donne 12"."""
    return _(_ROW_NAMES[label]) % {"pk": shown(pk)}


def field_name(model_field: ModelField) -> str:
    return f"« {model_field.verbose_name} » ({model_field.name})"


def field_error(model_field: ModelField, template: str, **params: Any) -> RowError:
    """A problem with a field; `template` is a French source string taking %(field)s."""
    return RowError(_(template) % {"field": field_name(model_field), **params})


def model_field_error(obj: models.Model, name: str, template: str, **params: Any) -> RowError:
    """A problem with the field `name` of a row (see field_error)."""
    model_field = obj._meta.get_field(name)
    assert isinstance(model_field, models.Field)  # a concrete field, named by the checker
    return field_error(model_field, template, **params)


def _integer_range(model_field: ModelField) -> tuple[int, int]:
    # The portable ranges (PostgreSQL's); SQLite would accept any 64-bit value.
    low, high = BaseDatabaseOperations.integer_field_ranges[model_field.get_internal_type()]
    return low, high


def _check_json(value: Any) -> bool:
    """Text without NUL (PostgreSQL refuses it), numbers in range; nesting is already bounded."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if "\x00" in item:
                return False
        elif isinstance(item, dict):
            for key, child in item.items():
                if "\x00" in key:
                    return False
                stack.append(child)
        elif isinstance(item, list):
            stack.extend(item)
    return True


_DECIMAL_TEXT = re.compile(r"-?\d{1,20}(\.\d{1,20})?")


def typed_value(model_field: ModelField, value: Any) -> Any:
    """The row's value for a concrete, non-relation field, of exactly the right type."""
    if value is None:
        if model_field.null:
            return None
        raise field_error(model_field, gettext_noop("%(field)s : une valeur est attendue."))
    for field_type, typed in _TYPED:
        if isinstance(model_field, field_type):
            return typed(model_field, value)
    # A field type this checker does not know: refuse rather than trust it.
    raise field_error(model_field, gettext_noop("%(field)s : type de champ non pris en charge."))


def _typed_bool(model_field: ModelField, value: Any) -> bool:
    if type(value) is not bool:
        raise field_error(
            model_field,
            gettext_noop("%(field)s : oui ou non (true/false) est attendu, pas %(value)s."),
            value=shown(value),
        )
    return value


def _typed_int(model_field: ModelField, value: Any) -> int:
    if not is_int(value):
        raise field_error(
            model_field,
            gettext_noop("%(field)s : un nombre entier est attendu, pas %(value)s."),
            value=shown(value),
        )
    low, high = _integer_range(model_field)
    if not low <= value <= high:
        raise field_error(
            model_field,
            gettext_noop("%(field)s : %(value)s est hors limites (%(low)s à %(high)s)."),
            value=value,
            low=low,
            high=high,
        )
    return value


def _typed_text(model_field: ModelField, value: Any) -> str:
    if not isinstance(value, str):
        raise field_error(
            model_field,
            gettext_noop("%(field)s : un texte est attendu, pas %(value)s."),
            value=shown(value),
        )
    if "\x00" in value:
        raise field_error(model_field, gettext_noop("%(field)s : caractère nul interdit."))
    return value


def _typed_decimal(model_field: ModelField, value: Any) -> Decimal:
    text = value if isinstance(value, str) else None
    if is_int(value) or (isinstance(value, float) and math.isfinite(value)):
        text = str(value)
    if text is None or not _DECIMAL_TEXT.fullmatch(text):
        raise field_error(
            model_field,
            gettext_noop("%(field)s : un nombre est attendu, pas %(value)s."),
            value=shown(value),
        )
    return Decimal(text)  # the pattern leaves nothing Decimal could refuse


def _typed_date(model_field: ModelField, value: Any) -> Any:
    try:
        if not isinstance(value, str) or not value or len(value) > MAX_SCALAR_TEXT:
            raise ValidationError("not a date")
        return model_field.to_python(value)
    except ValidationError as exc:
        raise field_error(
            model_field,
            gettext_noop("%(field)s : une date est attendue, pas %(value)s."),
            value=shown(value),
        ) from exc


def _typed_json(model_field: ModelField, value: Any) -> Any:
    if not _check_json(value):
        raise field_error(model_field, gettext_noop("%(field)s : caractère nul interdit."))
    return value


# Each field type and how its values are typed, tried in order: the first that matches decides
# (a DateTimeField is a DateField, whose to_python reads the time too).
_TYPED: tuple[tuple[type | tuple[type, ...], Callable[[ModelField, Any], Any]], ...] = (
    (models.BooleanField, _typed_bool),
    (models.IntegerField, _typed_int),
    ((models.CharField, models.TextField), _typed_text),
    (models.DecimalField, _typed_decimal),
    (models.DateField, _typed_date),
    (models.JSONField, _typed_json),
)


def validation_message(exc: ValidationError, model: type[models.Model]) -> str:
    if not hasattr(exc, "error_dict"):
        return " ".join(exc.messages)
    parts = []
    for name, errors in exc.message_dict.items():
        try:
            model_field = model._meta.get_field(name)
            shown_name = field_name(model_field) if isinstance(model_field, models.Field) else name
        except FieldDoesNotExist:  # NON_FIELD_ERRORS
            shown_name = name
        parts.append(f"{shown_name} : {' '.join(errors)}")
    return " ; ".join(parts)
