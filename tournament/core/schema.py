"""Declarative shapes of the JSON bodies the site accepts: types, ranges and list shapes.

A body's schema is a `Shape` (an `Obj` of fields, each an `Int`, `Number`, `Bool`, `Text`,
`ListOf`, `Pair` or a nested `Obj`); `Shape.check(value)` returns the value or raises
`FieldError` naming the first field at fault. The same description drives the fuzz tests,
which build bodies from it (valid ones, and ones wrong in a single field).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from typing import Any

from tournament.core.i18n import TranslatableError
from tournament.core.i18n import gettext_noop as _
from tournament.core.safe_json import TooLongInteger

# A PostgreSQL `integer` column holds no more; no id, version, number or seat of the site does.
INT32_MAX = 2**31 - 1
INT32_MIN = -(2**31)


class FieldError(TranslatableError):
    """A body's field is malformed: `field` names it (its top-level key), the message too."""

    def __init__(self, field: str, template: str, params: Mapping[str, Any] | None = None):
        self.field = field
        super().__init__(template, params)

    def _init_args(self) -> tuple[Any, ...]:
        return (self.field, self.template, self.params)


def _fail(path: str, template: str, **params: Any) -> FieldError:
    return FieldError(path.split("[", 1)[0], template, {"field": path, **params})


@dataclass(frozen=True)
class Shape:
    """One value's shape; `nullable` lets JSON null (or an absent key) through as None;
    `message` (taking %(field)s and %(value)s) replaces the generic refusal where the domain
    has a clearer word."""

    nullable: bool = field(default=False, kw_only=True)
    message: str = field(default="", kw_only=True)

    def check(self, value: Any, path: str = "body") -> Any:
        try:
            if value is None:
                if self.nullable:
                    return None
                raise _fail(path, _("%(field)s : une valeur est attendue (pas null)."))
            return self._check(value, path)
        except FieldError as err:
            if not self.message:
                raise
            params = {"field": path, "value": str(value)[:40]}
            raise FieldError(err.field, self.message, params) from None

    def _check(self, value: Any, path: str) -> Any:
        raise NotImplementedError


@dataclass(frozen=True)
class Int(Shape):
    """An integer proper (never a bool, a float or a string) within [low, high]."""

    low: int = INT32_MIN
    high: int = INT32_MAX

    def _check(self, value: Any, path: str) -> int:
        if isinstance(value, TooLongInteger):
            raise _out_of_range(path, self.low, self.high)
        if isinstance(value, bool) or not isinstance(value, int):
            raise _fail(path, _("%(field)s : un nombre entier est attendu."))
        if not self.low <= value <= self.high:
            raise _out_of_range(path, self.low, self.high)
        return value


def _out_of_range(path: str, low: int, high: int) -> FieldError:
    return _fail(
        path, _("%(field)s : un entier entre %(low)s et %(high)s est attendu."), low=low, high=high
    )


@dataclass(frozen=True)
class Number(Shape):
    """A finite number (integer or decimal, never a bool) within [low, high]."""

    low: float = -1e9
    high: float = 1e9

    def _check(self, value: Any, path: str) -> Any:
        if isinstance(value, TooLongInteger):
            value = math.inf  # refused below as out of range, naming the field
        if isinstance(value, bool) or not isinstance(value, int | float | Decimal | Fraction):
            raise _fail(path, _("%(field)s : un nombre est attendu."))
        if not math.isfinite(value) or not self.low <= value <= self.high:
            raise _fail(
                path,
                _("%(field)s : un nombre entre %(low)s et %(high)s est attendu."),
                low=self.low,
                high=self.high,
            )
        return value


@dataclass(frozen=True)
class Bool(Shape):
    def _check(self, value: Any, path: str) -> bool:
        if not isinstance(value, bool):
            raise _fail(path, _("%(field)s : vrai ou faux est attendu."))
        return value


@dataclass(frozen=True)
class Text(Shape):
    """A string of at most `max_length` characters, one of `choices` when they are given."""

    max_length: int = 200
    choices: tuple[str, ...] = ()

    def _check(self, value: Any, path: str) -> str:
        if not isinstance(value, str):
            raise _fail(path, _("%(field)s : un texte est attendu."))
        if len(value) > self.max_length:
            raise _fail(
                path,
                _("%(field)s : au plus %(max)s caractères."),
                max=self.max_length,
            )
        if self.choices and value not in self.choices:
            raise _fail(
                path,
                _("%(field)s : une valeur parmi %(choices)s est attendue."),
                choices=", ".join(self.choices),
            )
        return value


@dataclass(frozen=True)
class ListOf(Shape):
    """A JSON list of at most `max_items` values of one shape."""

    item: Shape = field(default_factory=Shape)
    max_items: int = 10

    def _check(self, value: Any, path: str) -> list[Any]:
        if not isinstance(value, list | tuple):
            raise _fail(path, _("%(field)s : une liste est attendue."))
        if len(value) > self.max_items:
            raise _fail(path, _("%(field)s : au plus %(max)s éléments."), max=self.max_items)
        return [self.item.check(item, f"{path}[{index}]") for index, item in enumerate(value)]


@dataclass(frozen=True)
class Pair(Shape):
    """A JSON list of exactly two values: `first`, then `second`."""

    first: Shape = field(default_factory=Shape)
    second: Shape = field(default_factory=Shape)

    def _check(self, value: Any, path: str) -> list[Any]:
        if not isinstance(value, list | tuple) or len(value) != 2:
            raise _fail(path, _("%(field)s : une liste de deux valeurs est attendue."))
        return [self.first.check(value[0], f"{path}[0]"), self.second.check(value[1], f"{path}[1]")]


@dataclass(frozen=True)
class Obj(Shape):
    """A JSON object: its `fields` (each optional unless in `required`), no other key.

    A field shaped `AnyObject` is only required to be an object: its own schema needs context
    (the deal's needs the sheet) and the service that has it checks it.
    """

    fields: Mapping[str, Shape] = field(default_factory=dict)
    required: frozenset[str] = frozenset()

    def _check(self, value: Any, path: str) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise _fail(path, _("%(field)s : un objet est attendu."))
        for key in value:
            if key not in self.fields:
                name = str(key)[:40]
                raise FieldError(name, _("Champ inconnu : %(name)s."), {"name": name})
        for key in self.required:
            if key not in value:
                raise FieldError(key, _("Champ manquant : %(name)s."), {"name": key})
        return {
            key: self.fields[key].check(item, key if path == "body" else f"{path}.{key}")
            for key, item in value.items()
        }


@dataclass(frozen=True)
class AnyObject(Shape):
    """A JSON object whose content the service that has its context checks later, against
    `schema` (a deal's players and seats depend on its sheet); here only its being an object."""

    schema: Shape | None = None

    def _check(self, value: Any, path: str) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise _fail(path, _("%(field)s : un objet est attendu."))
        return value
