"""The seat vocabulary: seat letters in table order and in the score sheet's order, and a
starting position as sheets print it and store it. Plain Python apart from the translated
labels; the models (Seat, Direction) build on it."""

from __future__ import annotations

from collections.abc import Iterable

from django.utils.translation import gettext_lazy as _

# Seat letters in table order, as the seating rules number seats (one tuple: see there).
from tournament.core.seating.plan import DIRECTIONS as DIRECTIONS

# The order in which every screen, form and printed document lists the seats: the FFT score
# sheet's Nord, Sud, Est, Ouest, then the fifth seat. Storage keeps DIRECTIONS' indexes.
SHEET_ORDER = ("N", "S", "E", "W", "X")


# Seat letters as French sheets print them (West is "Ouest").
SHORT_DIRECTIONS = {"N": _("N"), "E": _("E"), "S": _("S"), "W": _("O"), "X": _("5e")}


def sheet_order_key(direction: str) -> int:
    """Sort key putting seats in the FFT sheet's order (unknown letters last)."""
    return SHEET_ORDER.index(direction) if direction in SHEET_ORDER else len(SHEET_ORDER)


def seat_label(table_number: int, direction: str) -> str:
    """A starting position as sheets print it: table and seat, "3 N", "3 O".

    The fifth seat reads "5 — 5e": "5 5e" looked like one number.
    """
    short = SHORT_DIRECTIONS.get(direction, direction)
    if direction == "X":
        return f"{table_number} — {short}"
    return f"{table_number} {short}"


def seat_code(table_number: int, direction: str) -> str:
    """A starting position as stored on sheets, in no language: "3 W", "5 X".

    Sheets keep this and print `start_display` of it, so every reader sees their own words
    (a label stored translated kept the language of whoever opened the sheet first).
    """
    return f"{table_number} {direction}"


# Seat words sheets stored before labels were kept in no language, in French or English.
_STORED_SEATS = {"N": "N", "E": "E", "S": "S", "W": "W", "O": "W", "X": "X", "5e": "X"}
_STORED_SEATS["5th"] = "X"


def start_codes(seats_in_position_order: Iterable[tuple[int, int, str]]) -> dict[int, str]:
    """Each player's starting position, the one rule every sheet, page and print uses: the table
    and seat of the first position they played, as a `seat_code` ("3 N").

    `seats_in_position_order`: (player key, table number, direction) rows, earlier positions
    first; a player's first row wins.
    """
    codes: dict[int, str] = {}
    for player, table_number, direction in seats_in_position_order:
        codes.setdefault(player, seat_code(table_number, direction))
    return codes


def start_display(stored: str) -> str:
    """A stored starting position in the reader's language: "3 W" → "3 O" in French."""
    number, _space, seat = (stored or "").partition(" ")
    seat = seat.removeprefix("— ").strip()
    if not number.isdecimal() or seat not in _STORED_SEATS:
        return stored or ""
    return seat_label(int(number), _STORED_SEATS[seat])
