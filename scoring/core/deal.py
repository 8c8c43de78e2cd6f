"""A French Tarot deal as the arbiter records it: the game's constants, the deal and its errors."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import MISSING, dataclass, fields
from typing import Any, TypeGuard

from tournament.core.i18n import TranslatableError
from tournament.core.i18n import gettext_noop as _

CONTRACTS = ("prise", "garde", "garde_sans", "garde_contre")
CONTRACT_LABELS: Mapping[str, str] = {
    "prise": _("Prise"),
    "garde": _("Garde"),
    "garde_sans": _("G. Sans"),
    "garde_contre": _("G. Contre"),
}
# Their full names, where the score sheet's abbreviations above do not fit (the deal's choices).
CONTRACT_NAMES: Mapping[str, str] = {
    "prise": _("Prise"),
    "garde": _("Garde"),
    "garde_sans": _("Garde sans"),
    "garde_contre": _("Garde contre"),
}
POIGNEE_SIZES = ("simple", "double", "triple")
ATTACK = "attack"
DEFENSE = "defense"
SIDES = (ATTACK, DEFENSE)

TOTAL_POINTS = 91
# The 21 trumps and the Excuse, which may stand in for a trump in a poignée.
TRUMPS_IN_GAME = 22
# An oudler is worth 4.5 but is counted with a low card: holding one guarantees at least 4.
POINTS_PER_OUDLER = 4
# The Excuse held by the defence against an attack chelem stays with it and counts 4 points.
CHELEM_POINTS = ((91, 3), (87, 2))


class DealError(TranslatableError):
    """A deal a user can correct: names the field and carries a translatable message."""

    def __init__(self, field: str, template: str, params: Mapping[str, Any] | None = None):
        self.field = field
        super().__init__(template, params)

    def _init_args(self) -> tuple[Any, ...]:
        return (self.field, self.template, self.params)


@dataclass(frozen=True)
class Deal:
    """One played deal as the arbiter records it; seats are 0..players-1."""

    players: int
    taker: int
    contract: str
    oudlers: int
    points: int | float
    partner: int | None = None
    dead: int | None = None
    poignees: Sequence[Sequence[Any]] = ()
    petit_au_bout: str | None = None
    chelem_announced: bool = False
    chelem: str | None = None

    @classmethod
    def from_dict(cls, obj: Mapping[str, Any]) -> Deal:
        """Build a deal from a JSON object, turning missing or unknown keys into DealError."""
        if not isinstance(obj, Mapping):
            raise DealError("deal", _("Donne : un objet est attendu."))
        known = {f.name for f in fields(cls)}
        for key in obj:
            if key not in known:
                raise DealError(str(key), _("Champ inconnu : %(name)s."), {"name": key})
        for f in fields(cls):
            required = f.default is MISSING and f.default_factory is MISSING
            if required and f.name not in obj:
                raise DealError(f.name, _("Champ manquant : %(name)s."), {"name": f.name})
        return cls(**obj)

    def to_dict(self) -> dict[str, Any]:
        """The JSON-ready form, the inverse of from_dict."""
        data = {f.name: getattr(self, f.name) for f in fields(self)}
        data["poignees"] = [list(p) for p in self.poignees]
        return data


def is_int(value: object) -> TypeGuard[int]:
    """An integer proper: bool is an int subclass, but True as a seat or a count is a mistake."""
    return isinstance(value, int) and not isinstance(value, bool)
