"""Reads of the evening: who plays which position, where everyone sits, the plan so far,
and the look-ups other apps' views make (a tournament's positions and tables, the object a URL
names, 404 when it is not there; the roster and registrations are in players.selectors).

Nothing here writes; functions return plain data, model instances (some with extra
attributes) or querysets a caller may narrow further."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db import connection
from django.db.models import Max, QuerySet
from django.shortcuts import get_object_or_404
from django.utils.functional import Promise

from tournament.core.collation import fold as normalise
from tournament.models import (
    DIRECTION_LABELS,
    Position,
    Registration,
    Seat,
    Table,
    Tournament,
    player_name,
    sheet_order_key,
    start_codes_of,
    start_display,
)


def last_played_position(tournament: Tournament) -> int:
    """The number of the last published or closed position, 0 before the first one."""
    return played_positions(tournament).aggregate(n=Max("number"))["n"] or 0


# --- Look-ups by URL and a tournament's lists (for the views of both apps) -----------------


def position_or_404(tournament_id: int, number: int, *, published: bool = False) -> Position:
    """Position `number` of the tournament (with it), 404 when there is none (or, asked for a
    `published` one, when it is a draft or closed). A flag rather than a status, so that other
    apps' views need not import the model for its choices."""
    found = Position.objects.select_related("tournament").filter(
        tournament_id=tournament_id, number=number
    )
    return get_object_or_404(found.filter(status=Position.Status.PUBLISHED) if published else found)


def table_or_404(pk: int) -> Table:
    """A table with its position and tournament; 404 when there is none."""
    return get_object_or_404(Table.objects.select_related("position__tournament"), pk=pk)


def positions_in_order(tournament: Tournament) -> QuerySet[Position]:
    """The tournament's positions by number, drafts included."""
    return Position.objects.filter(tournament=tournament).order_by("number")


def played_positions(tournament: Tournament) -> QuerySet[Position]:
    """The positions published or closed, by number: those the players see."""
    return positions_in_order(tournament).exclude(status=Position.Status.DRAFT)


def played_tables(tournament: Tournament) -> QuerySet[Table]:
    """The tables of the published and closed positions, with their position and seats."""
    return (
        Table.objects.filter(position__tournament=tournament)
        .exclude(position__status=Position.Status.DRAFT)
        .select_related("position")
        .prefetch_related("seats")
        .order_by("position__number", "number")
    )


def position_in_play(positions: Sequence[Position]) -> Position | None:
    """The one answer to "which position is in play", for the cockpit, the player's card, the
    hall screen and the desk: the latest published position, else the latest closed one (the
    last played), None before the first publication. `positions` are in number order."""
    played = [p for p in positions if p.status != Position.Status.DRAFT]
    published = [p for p in played if p.status == Position.Status.PUBLISHED]
    latest = published or played
    return latest[-1] if latest else None


@dataclass(frozen=True)
class PlayerSeating:
    """The positions the players see (published or closed, by number) and one player's seats in
    them (with table and position): what the player's card shows of the seating."""

    positions: list[Position]
    seats: list[Seat]

    @property
    def in_play(self) -> Seat | None:
        """Where the player sits in the position in play while it is being played (published);
        None when that position is closed or the player not seated."""
        position = position_in_play(self.positions)
        if position is None or position.status != Position.Status.PUBLISHED:
            return None
        return next((s for s in self.seats if s.table.position_id == position.pk), None)


def player_seating(tournament: Tournament, registration_id: int) -> PlayerSeating:
    """The played positions and the player's seats in them (with table and position), in one
    plain SQL statement that reads only this player's seats, not the field's: the player's card
    asks it at every change of the standings, where building it through the ORM cost more
    than running it. The instances hold only what the card and its ETag read."""
    q = connection.ops.quote_name
    sql = (
        f"SELECT p.{q('id')}, p.{q('number')}, p.{q('status')}, tb.{q('id')}, tb.{q('number')}, "
        f"st.{q('id')}, st.{q('direction')} FROM {q(Position._meta.db_table)} p "
        f"LEFT JOIN ({q(Seat._meta.db_table)} st JOIN {q(Table._meta.db_table)} tb "
        f"ON tb.{q('id')} = st.{q('table_id')}) "
        f"ON tb.{q('position_id')} = p.{q('id')} AND st.{q('registration_id')} = %s "
        f"WHERE p.{q('tournament_id')} = %s AND p.{q('status')} <> %s "
        # Seat's ordering within the positions' (the first, as `.first()` gave).
        f"ORDER BY p.{q('number')}, tb.{q('id')}, st.{q('direction')}"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [registration_id, tournament.pk, Position.Status.DRAFT.value])
        rows = cursor.fetchall()
    positions: dict[int, Position] = {}
    seats = []
    for position_id, number, status, table_id, table_number, seat_id, direction in rows:
        position = positions.get(position_id)
        if position is None:
            position = positions[position_id] = Position(
                pk=position_id, tournament=tournament, number=number, status=status
            )
        if seat_id is not None:
            table = Table(pk=table_id, position=position, number=table_number)
            seats.append(Seat(pk=seat_id, table=table, direction=direction))
    return PlayerSeating(list(positions.values()), sorted(seats, key=_seat_order))


def _seat_order(seat: Seat) -> tuple[int, str]:
    return seat.table_id, seat.direction


def active_registrations(tournament: Tournament, position_number: int) -> list[Registration]:
    """Who plays a given position: present, arrived and not withdrawn before it."""
    return [
        r
        for r in tournament.registrations.select_related("player", "team")
        if r.plays_position(position_number)
    ]


def position_plan(position: Position) -> list[Table]:
    """The position's tables, each with `seat_list` in the score sheet's order (N, S, E, O, 5e)."""
    tables = list(position.tables.prefetch_related("seats__registration__player"))
    for table in tables:
        table.seat_list = sorted(
            table.seats.all(), key=lambda seat: sheet_order_key(seat.direction)
        )
    return tables


StrOrPromise = str | Promise


@dataclass(frozen=True)
class PlannedSeat:
    label: StrOrPromise  # "Nord", translated when shown
    name: str


@dataclass(frozen=True)
class PlannedTable:
    number: int
    seats: list[PlannedSeat]  # in the score sheet's order (N, S, E, O, 5e)


@dataclass(frozen=True)
class RoomPlan:
    """Where everyone sits at a position, as the hall screen shows it: `who` as
    who_sits_where's rows, `tables` as position_plan's, and `version`, a digest of the
    position's status and every seat's table, direction, player number and name, which moves
    with any of them."""

    who: list[dict[str, Any]]
    tables: list[PlannedTable]
    version: str


def room_plan(position: Position) -> RoomPlan:
    """The position's room plan from one query of plain values (who_sits_where and
    position_plan build a model a seat, a table and a player: at 200 players, 3 ms instead of
    25, and half the hall's render)."""
    rows = list(
        Seat.objects.filter(table__position=position)
        .order_by("table__number", "direction")
        .values_list(
            "table__number",
            "direction",
            "registration__number",
            "registration__player__last_name",
            "registration__player__first_name",
        )
    )
    who: list[dict[str, Any]] = []
    tables: dict[int, list[tuple[str, str]]] = {}
    for table, direction, number, last_name, first_name in rows:
        name = player_name(last_name, first_name)
        label = DIRECTION_LABELS.get(direction, direction)
        who.append({"name": name, "number": number, "table": table, "seat": label})
        tables.setdefault(table, []).append((direction, name))
    who.sort(key=lambda row: (normalise(row["name"]), row["number"]))
    planned = [
        PlannedTable(
            number,
            [
                PlannedSeat(DIRECTION_LABELS.get(d, d), name)
                for d, name in sorted(seats, key=lambda seat: sheet_order_key(seat[0]))
            ],
        )
        for number, seats in tables.items()
    ]
    key = repr((position.pk, position.number, position.status, rows))
    return RoomPlan(who, planned, hashlib.sha256(key.encode()).hexdigest()[:24])


def seated_registrations(position: Position) -> QuerySet[Registration]:
    """The position's seated registrations with player and team, by name (the swap's choices)."""
    return (
        Registration.objects.filter(seats__table__position=position)
        .select_related("player", "team")
        .order_by("player__last_name", "player__first_name")
    )


def who_sits_where(position: Position) -> list[dict[str, Any]]:
    """Every seated player of a position, alphabetically, with table and seat."""
    seats = Seat.objects.filter(table__position=position).select_related(
        "table", "registration__player"
    )
    rows: list[dict[str, Any]] = [
        {
            "name": seat.registration.player.full_name,
            "number": seat.registration.number,
            "table": seat.table.number,
            "seat": seat.get_direction_display(),
            "registration": seat.registration,
        }
        for seat in seats
    ]
    rows.sort(key=lambda row: (normalise(row["name"]), row["number"]))
    return rows


def start_labels(tournament: Tournament) -> dict[int, str]:
    """Registration pk → start label as the reader reads it ("3 O") for the whole tournament,
    in one query."""
    seats = Seat.objects.filter(table__position__tournament=tournament)
    return {pk: start_display(code) for pk, code in start_codes_of(seats).items()}


def positions_overview(tournament: Tournament) -> list[dict[str, Any]]:
    """One line per planned position number: the Position (or None), its tables, staleness.

    A draft is stale when the players it seats are not those who will play it (a withdrawal
    or a late arrival since it was generated): it must be re-planned before publishing.
    """
    existing = {p.number: p for p in tournament.positions.prefetch_related("tables__seats")}
    registrations = list(tournament.registrations.all())
    lines = []
    for number in range(1, max([tournament.positions_count, *existing]) + 1):
        position = existing.get(number)
        line: dict[str, Any] = {"number": number, "position": position, "stale": False}
        if position is not None:
            seated = {s.registration_id for t in position.tables.all() for s in t.seats.all()}
            line["tables"] = len(position.tables.all())
            line["players"] = len(seated)
            if position.status == Position.Status.DRAFT:
                expected = {r.pk for r in registrations if r.plays_position(number)}
                line["stale"] = seated != expected
        lines.append(line)
    return lines


def next_seating(overview: list[dict[str, Any]], played: int) -> str:
    """How the position after the `played` ones is seated, from positions_overview's lines: its
    own choice, or the generator when it is not planned yet or none is left."""
    following = overview[played]["position"] if played < len(overview) else None
    return following.seating if following else Position.Seating.GENERATOR


def tables_of(position: Position) -> list[list[int]]:
    """Registration ids per table, tables by number, seats in table order."""
    tables = sorted(position.tables.all(), key=lambda table: table.number)
    return [
        [seat.registration_id for seat in sorted(table.seats.all(), key=lambda s: s.index)]
        for table in tables
    ]


def tournament_plan(tournament: Tournament) -> list[list[list[int]]]:
    """Every generated position's tables, in position order: what the meeting counts cover."""
    return [tables_of(p) for p in tournament.positions.prefetch_related("tables__seats")]


def position_is_stale(position: Position) -> bool:
    """A draft seating other players than those who will play it."""
    seated = set(
        Seat.objects.filter(table__position=position).values_list("registration_id", flat=True)
    )
    expected = {r.pk for r in active_registrations(position.tournament, position.number)}
    return seated != expected
