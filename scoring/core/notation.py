"""The desk's keyboard notation: a sheet row typed with short keys, read into deal fields.

`parse(row, seats)` reads what the arbiter typed (`E`, `G`, `2`, `d36`, `E1 N2`, `A`, `AR`…) into
the engine's deal fields, or raises NotationError listing every field it cannot read, each
with a French message template and its params (translated by the Django layer when shown, as
scoring.core.engine.DealError). `format(fields, seats)` writes deal fields back with the same keys,
so that `parse(format(fields, seats), seats) == fields`. Pure: no Django.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from decimal import Decimal, InvalidOperation
from typing import Any

from scoring.core.engine import POIGNEE_SIZES, TOTAL_POINTS
from tournament.core.i18n import gettext_noop

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
_POINTS = re.compile(r"(d|a|déf|def|att)?(\d+(?:\.\d+)?)")
_FIGURE = re.compile(r"[+-]?\d{1,6}")


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


class _Reader:
    """Reads one row's fields, collecting every error instead of stopping at the first."""

    def __init__(self, seats: SeatInfo):
        self.seats = seats
        self.errors: list[FieldError] = []

    def error(self, field: str, template: str, **params: Any) -> None:
        self.errors.append(FieldError(field, template, params))

    def seat(self, field: str, value: str) -> int | None:
        seat = self.seats.seat_for_key(value)
        if seat is None:
            self.error(
                field,
                gettext_noop("%(value)s n'est pas une place de la table (%(keys)s)."),
                value=value,
                keys=", ".join(self.seats.keys()),
            )
        return seat

    def contract(self, value: str) -> str | None:
        key = normalise(value)
        if not key:
            self.error("contract", gettext_noop("Indiquez le contrat : P, G, GS ou GC."))
            return None
        if key not in CONTRACT_KEYS:
            self.error(
                "contract",
                gettext_noop("%(value)s n'est pas un contrat (P, G, GS ou GC)."),
                value=value,
            )
            return None
        return CONTRACT_KEYS[key]

    def partner(self, value: str, taker: int | None) -> tuple[int | None, str]:
        """(partner seat, why alone): a place, C for the king in the chien ("dog"), or the
        taker's own letter when they called themself ("self")."""
        if not self.seats.called_king:
            return None, ""
        key = normalise(value)
        if not key:
            self.error(
                "partner",
                gettext_noop(
                    "Indiquez qui avait le roi appelé : une place, C s'il était au chien, "
                    "ou la lettre du preneur s'il s'est appelé (seul)."
                ),
            )
            return None, ""
        if key in CHIEN_KEYS:
            return None, "dog"
        if key in SELF_KEYS:
            return None, "self"
        if key in ALONE_KEYS:
            return None, ""
        seat = self.seat("partner", key)
        if seat is not None and seat == taker:
            return None, "self"
        return seat, ""

    def oudlers(self, value: str) -> int | None:
        value = value.strip()
        if not value:
            self.error("oudlers", gettext_noop("Indiquez le nombre de bouts (0 à 3)."))
            return None
        # At most 4 digits, as the desk's input: int() refuses longer numbers anyway.
        if not (value.isascii() and value.isdigit() and len(value) <= 4):
            self.error(
                "oudlers", gettext_noop("%(value)s n'est pas un nombre de bouts."), value=value
            )
            return None
        return int(value)

    def points(self, value: str, side: str) -> int | float | None:
        text = value.strip().lower().replace(",", ".").replace(" ", "")
        if not text:
            self.error("points", gettext_noop("Indiquez les points (d40 pour « défense 40 »)."))
            return None
        match = _POINTS.fullmatch(text)
        if not match:
            self.error(
                "points", gettext_noop("%(value)s n'est pas un nombre de points."), value=value
            )
            return None
        try:
            points = Decimal(match.group(2))
        except InvalidOperation:  # pragma: no cover - the regex only lets digits through
            self.error("points", gettext_noop("%(value)s n'est pas un nombre."), value=value)
            return None
        prefix = match.group(1) or ""
        defence = prefix.startswith("d") or (not prefix and side == "defense")
        if points > TOTAL_POINTS:
            self.error("points", gettext_noop("%(value)s n'est pas entre 0 et 91."), value=value)
            return None
        if defence:
            points = TOTAL_POINTS - points
        return int(points) if points == int(points) else float(points)

    def poignees(self, value: str) -> list[list[Any]]:
        poignees: list[list[Any]] = []
        for token in re.split(r"[\s,;+]+", value.strip().upper()):
            if not token:
                continue
            seat = self.seats.seat_for_key(token[0])
            size = POIGNEE_KEYS.get(token[1:])
            if seat is None or size is None:
                self.error(
                    "poignees",
                    gettext_noop("%(value)s : une place suivie de 1, 2 ou 3 (E1 = Est simple)."),
                    value=token,
                )
                continue
            poignees.append([seat, size])
        return poignees

    def side(self, field: str, value: str) -> str | None:
        key = normalise(value)
        if not key:
            return None
        if key not in SIDE_KEYS:
            self.error(field, gettext_noop("%(value)s : A (attaque) ou D (défense)."), value=value)
            return None
        return SIDE_KEYS[key]

    def chelem(self, value: str) -> tuple[str | None, bool]:
        key = normalise(value)
        if not key:
            return None, False
        if key not in CHELEM_KEYS:
            self.error("chelem", gettext_noop("%(value)s : R, AR, AC, D ou AD."), value=value)
            return None, False
        return CHELEM_KEYS[key]

    def figure(self, value: str) -> int | None:
        text = re.sub(r"\s", "", value).replace("\N{MINUS SIGN}", "-")
        if not text:
            self.error(
                "figure",
                gettext_noop(
                    "Indiquez le chiffre du preneur, tel qu'écrit sur la feuille (318, -126)."
                ),
            )
            return None
        if not _FIGURE.fullmatch(text):
            self.error(
                "figure",
                gettext_noop("Chiffre du preneur : %(value)s n'est pas un nombre entier."),
                value=value,
            )
            return None
        return int(text)

    def check(self) -> None:
        if self.errors:
            raise NotationError(self.errors)


def parse(
    row: Row,
    seats: SeatInfo,
    *,
    figures: bool = False,
    barred: Mapping[int, str] | None = None,
) -> dict[str, Any]:
    """The deal fields a typed row gives, or NotationError naming every field it cannot read.

    With `figures` the row comes from the official FFT sheet: the taker's figure stands for the
    card fields. `barred` maps the seats that may not bid on this deal to the reason shown (in
    the reader's language already).
    """
    reader = _Reader(seats)
    taker_key = normalise(row.taker)
    passed = row.passed or taker_key in PASSED_KEYS
    cancelled = taker_key in CANCELLED_KEYS
    deal: dict[str, Any] = {
        "players": seats.players,
        "dealer": row.dealer,
        "arbiter_called": row.arbiter_called,
        "passed": passed,
        "cancelled": cancelled and not passed,
        "dead": row.dealer if seats.dead_is_dealer else None,
    }
    if passed or cancelled:
        return deal
    if not taker_key:
        reader.error(
            "taker",
            gettext_noop("Indiquez le preneur (%(keys)s), ou T si tous passent."),
            keys=", ".join(seats.keys()),
        )
        # By figures, something typed that is no key (".") still has its figure read.
        if figures and row.taker.strip():
            reader.figure(row.figure)
        reader.check()
    taker = reader.seat("taker", taker_key)
    if taker is not None and barred and taker in barred:
        reader.errors.append(FieldError("taker", barred[taker], {}, verbatim=True))
    deal["taker"] = taker
    deal["contract"] = reader.contract(row.contract)
    deal["partner"], deal["alone"] = reader.partner(row.partner, taker)
    if figures:
        deal["figure"] = reader.figure(row.figure)
    else:
        deal["oudlers"] = reader.oudlers(row.oudlers)
        deal["points"] = reader.points(row.points, row.side or "attack")
        deal["poignees"] = reader.poignees(row.poignees)
        deal["petit_au_bout"] = reader.side("petit_au_bout", row.petit_au_bout)
        deal["chelem"], deal["chelem_announced"] = reader.chelem(row.chelem)
    reader.check()
    return deal


def parse_figure(text: str) -> int:
    """The taker's figure as written on the FFT sheet (318, -126, −126), or NotationError."""
    reader = _Reader(SeatInfo(0, (), (), False, False))
    figure = reader.figure(text)
    reader.check()
    assert figure is not None  # no error: a figure was read
    return figure


def format(fields: Mapping[str, Any], seats: SeatInfo) -> Row:
    """A deal's fields written with the desk's keys (a `figure` key: typed by figures)."""
    dealer = fields.get("dealer") or 0
    arbiter_called = bool(fields.get("arbiter_called"))
    if fields.get("passed") or fields.get("cancelled"):
        taker = PASSED_KEY if fields.get("passed") else CANCELLED_KEY
        return Row(dealer=dealer, taker=taker, arbiter_called=arbiter_called)
    partner = fields.get("partner")
    alone = fields.get("alone") or ""
    # Alone: C when the king was in the chien, the taker's letter when they called themself,
    # SEUL when the reason was not recorded (read again, it stays unknown).
    if not seats.called_king:
        partner_text = ""
    elif partner is None and alone == "dog":
        partner_text = CHIEN_KEYS[0]
    elif partner is None and not alone:
        partner_text = ALONE_KEYS[0]
    else:
        partner_text = seats.key_for_seat(partner if partner is not None else fields["taker"])
    head = Row(
        dealer=dealer,
        taker=seats.key_for_seat(fields["taker"]),
        contract=CONTRACT_CODES.get(fields.get("contract") or "", ""),
        partner=partner_text,
        arbiter_called=arbiter_called,
    )
    if "figure" in fields:
        return replace(head, figure=str(fields["figure"]))
    points = fields["points"]
    points_text = str(int(points)) if points == int(points) else str(points).replace(".", ",")
    announced = bool(fields.get("chelem_announced"))
    chelem = next(
        (k for k, v in CHELEM_KEYS.items() if v == (fields.get("chelem") or None, announced)), ""
    )
    return replace(
        head,
        oudlers=str(fields["oudlers"]),
        points=points_text,
        poignees=" ".join(
            f"{seats.key_for_seat(seat)}{POIGNEE_CODES[size]}"
            for seat, size in fields.get("poignees") or ()
        ),
        petit_au_bout=SIDE_CODES.get(fields.get("petit_au_bout") or "", ""),
        chelem=chelem,
    )
