"""The desk's keyboard notation: the keys a sheet row is typed with, and what a row is.

A row typed with short keys (`E`, `G`, `2`, `d36`, `E1 N2`, `A`, `AR`…) is read into the engine's
deal fields by `scoring.core.notation.reading`, and written back with the same keys by
`scoring.core.notation.writing`, so that `parse(format(fields, seats), seats) == fields`. A row the
notation cannot read raises NotationError listing every field at fault, each with a French message
template and its params (translated by the Django layer when shown, as
scoring.core.deal.DealError). Pure: no Django.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from scoring.core.deal import POIGNEE_SIZES

CONTRACT_KEYS = {
    "P": "prise",
    "PRISE": "prise",
    "G": "garde",
    "GARDE": "garde",
    "GS": "garde_sans",
    "GARDESANS": "garde_sans",
    "GC": "garde_contre",
    "GARDECONTRE": "garde_contre",
}
CONTRACT_CODES = {"prise": "P", "garde": "G", "garde_sans": "GS", "garde_contre": "GC"}
# Seat keys by direction: the French initials, W accepted for Ouest, 5 or X for the fifth seat.
DIRECTION_KEYS = {"N": ("N",), "E": ("E",), "S": ("S",), "W": ("O", "W"), "X": ("5", "X")}
DIRECTION_CODES = {"N": "N", "E": "E", "S": "S", "W": "O", "X": "5"}
PASSED_KEY = "T"
PASSED_KEYS = (PASSED_KEY, "TP", "TOUSPASSENT")
CANCELLED_KEY = "A"
CANCELLED_KEYS = (CANCELLED_KEY, "ANNULEE")
# Alone at 5: the called king was in the chien (C), or the taker called themself (their own
# letter, or SOI). SEUL keeps "alone, reason unknown", as deals typed before it was recorded.
CHIEN_KEYS = ("C", "CHIEN", "ROIAUCHIEN")
SELF_KEYS = ("SOI", "SOIMEME")
ALONE_KEYS = ("SEUL",)
# What follows the seat in a poignée: nothing, 1 or S (simple), 2 or D (double), 3 or T.
POIGNEE_KEYS = {
    "": "simple",
    "1": "simple",
    "S": "simple",
    "2": "double",
    "D": "double",
    "3": "triple",
    "T": "triple",
}
# How a poignée is written back: the rank of its size (1 simple, 2 double, 3 triple).
POIGNEE_CODES = {size: str(rank) for rank, size in enumerate(POIGNEE_SIZES, start=1)}
SIDE_KEYS = {"A": "attack", "ATTAQUE": "attack", "D": "defense", "DEFENSE": "defense"}
SIDE_CODES = {"attack": "A", "defense": "D"}
# Chelem: made (réussi), announced and made, announced and failed, by the defence.
CHELEM_KEYS: dict[str, tuple[str | None, bool]] = {
    "R": ("attack", False),
    "AR": ("attack", True),
    "AC": (None, True),
    "D": ("defense", False),
    "AD": ("defense", True),
}


@dataclass(frozen=True)
class SeatInfo:
    """What the notation needs to know about a sheet's seats."""

    players: int
    directions: Sequence[str]  # by seat index, e.g. ("N", "E", "S", "W")
    labels: Sequence[str]  # by seat index, e.g. ("N — DURAND", ...)
    called_king: bool  # 5-player game with a called king (not a mort)
    dead_is_dealer: bool  # table of 5 with a mort: the dealer sits out
    order: Sequence[int] = ()  # seat indexes in the FFT sheet's order (N, S, E, O, 5e)

    def in_order(self) -> list[int]:
        """Seat indexes as the paper sheet lists them (index order when not given)."""
        return list(self.order) or list(range(self.players))

    def seat_for_key(self, key: str) -> int | None:
        key = key.strip().upper()
        for seat, direction in enumerate(self.directions):
            if key in DIRECTION_KEYS.get(direction, (direction,)):
                return seat
        return None

    def key_for_seat(self, seat: int | None) -> str:
        if seat is None:
            return ""
        return DIRECTION_CODES.get(self.directions[seat], str(seat))

    def keys(self) -> list[str]:
        """The seat keys in the paper sheet's order, as the messages list them."""
        return [self.key_for_seat(seat) for seat in self.in_order()]


@dataclass(frozen=True)
class Row:
    """One sheet row as typed: the text of each input (figure only when typed by figures)."""

    dealer: int | None = None
    taker: str = ""
    contract: str = ""
    partner: str = ""
    oudlers: str = ""
    points: str = ""
    side: str = "attack"  # whose points a bare number gives, when no d/a prefix says it
    poignees: str = ""
    petit_au_bout: str = ""
    chelem: str = ""
    figure: str = ""
    passed: bool = False
    arbiter_called: bool = False


@dataclass(frozen=True)
class FieldError:
    """One field the notation cannot read: a French template and its params.

    `verbatim` messages come already worded for the reader (a barred taker's reason) and are
    shown as they are.
    """

    field: str
    template: str
    params: Mapping[str, Any]
    verbatim: bool = False

    def message(self, translate: Callable[[str], str] | None = None) -> str:
        """The message, its template passed through `translate` (gettext) first when given."""
        if self.verbatim:
            return self.template
        template = translate(self.template) if translate is not None else self.template
        return template % self.params if self.params else template


class NotationError(ValueError):
    """A row the notation cannot read; `errors` names every faulty field, in typing order."""

    def __init__(self, errors: Sequence[FieldError]):
        self.errors = tuple(errors)
        super().__init__(str(self))

    def __str__(self) -> str:
        return " ".join(f"{error.field}: {error.message()}" for error in self.errors)

    def __reduce__(self) -> tuple[Any, ...]:
        # Picklable despite the custom __init__.
        return (type(self), (self.errors,))


def normalise(value: str) -> str:
    """A key as compared: upper case, without spaces, dots, dashes, underscores or É's accent."""
    return re.sub(r"[\s.\-_]", "", (value or "").upper()).replace("É", "E")
