"""Reading a sheet row typed with the desk's keys into the engine's deal fields. Pure: no Django."""

from __future__ import annotations

import re
from collections.abc import Mapping
from decimal import Decimal, InvalidOperation
from typing import Any

from scoring.core.deal import TOTAL_POINTS
from scoring.core.notation.keys import (
    ALONE_KEYS,
    CANCELLED_KEYS,
    CHELEM_KEYS,
    CHIEN_KEYS,
    CONTRACT_KEYS,
    PASSED_KEYS,
    POIGNEE_KEYS,
    SELF_KEYS,
    SIDE_KEYS,
    FieldError,
    NotationError,
    Row,
    SeatInfo,
    normalise,
)
from tournament.core.i18n import gettext_noop

_POINTS = re.compile(r"(d|a|déf|def|att)?(\d+(?:\.\d+)?)")
_FIGURE = re.compile(r"[+-]?\d{1,6}")


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
