"""Reads: who plays which position, where everyone sits, the plan so far, player search, and
the look-ups other apps' views make (a tournament's roster and positions, the object a URL
names, 404 when it is not there).

Nothing here writes; functions return plain data, model instances (some with extra
attributes) or querysets a caller may narrow further."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import date
from typing import Any

from django.db.models import Max, Q, QuerySet
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _

from ..collation import fold_words, person_key
from ..folding import Fold
from ..importing import (
    normalise,
)
from ..models import (
    Player,
    Position,
    Registration,
    Seat,
    Table,
    Tournament,
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


def registration_or_404(tournament: Tournament, pk: int) -> Registration:
    """One of the tournament's registrations, with its player, team and that tournament (no
    query for it again); 404 otherwise."""
    entry = get_object_or_404(
        Registration.objects.select_related("player", "team"), pk=pk, tournament=tournament
    )
    entry.tournament = tournament
    return entry


def table_or_404(pk: int) -> Table:
    """A table with its position and tournament; 404 when there is none."""
    return get_object_or_404(Table.objects.select_related("position__tournament"), pk=pk)


def player_or_none(pk: int) -> Player | None:
    """A roster player by id, None when there is none."""
    return Player.objects.filter(pk=pk).first()


def roster(tournament: Tournament) -> QuerySet[Registration]:
    """The tournament's registrations with their players, by number."""
    return Registration.objects.filter(tournament=tournament).select_related("player")


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


def seat_in_play(registration: Registration) -> Seat | None:
    """Where the player sits in the position in play while it is being played (published),
    with its table and position; None when that position is closed or the player not seated."""
    position = position_in_play(list(played_positions(registration.tournament)))
    if position is None or position.status != Position.Status.PUBLISHED:
        return None
    return (
        Seat.objects.filter(registration=registration, table__position=position)
        .select_related("table__position")
        .first()
    )


# --- A roster player across tournaments (the season's statistics) ------------------------------


def tournaments_of_player(player: Player, dates: tuple[date, date], *, seen: Q) -> list[Tournament]:
    """The tournaments between the two dates (included) where the roster player is registered,
    among those `seen` lets through, by date, name and id."""
    return list(
        Tournament.objects.filter(seen, date__range=dates, registrations__player=player)
        .distinct()
        .order_by("date", "name", "pk")
    )


def registrations_by_tournament(player: Player, tournaments: list[Tournament]) -> dict[int, int]:
    """Tournament id → the player's registration id, in those of `tournaments` they entered."""
    return dict(
        Registration.objects.filter(player=player, tournament__in=tournaments).values_list(
            "tournament_id", "pk"
        )
    )


def registrations_by_player(tournament: Tournament, players: Iterable[Player]) -> dict[int, int]:
    """Roster player id → their registration id in the tournament, for those who entered it."""
    return dict(
        Registration.objects.filter(tournament=tournament, player__in=list(players)).values_list(
            "player_id", "pk"
        )
    )


def players_by_pk(pks: Iterable[int]) -> dict[int, Player]:
    """Roster players by id, with their names and club only."""
    return {
        player.pk: player
        for player in Player.objects.filter(pk__in=list(pks)).only(
            "last_name", "first_name", "club"
        )
    }


def active_registrations(tournament: Tournament, position_number: int) -> list[Registration]:
    """Who plays a given position: present, arrived and not withdrawn before it."""
    return [
        r
        for r in tournament.registrations.select_related("player", "team")
        if r.plays_position(position_number)
    ]


def player_search(*, query: str, limit: int = 20) -> list[Player]:
    """Roster players whose name or club holds each of the query's words, or whose licence
    holds it; accents, case and punctuation ignored ("cote" finds CÔTÉ). One query."""
    words = fold_words(query)
    if not words or len(query.strip()) < 2:
        return []
    players = Player.objects.annotate(
        folded_last=Fold("last_name"), folded_first=Fold("first_name"), folded_club=Fold("club")
    )
    for word in words:
        players = players.filter(
            Q(folded_last__contains=word)
            | Q(folded_first__contains=word)
            | Q(licence__contains=word)  # "412345" finds 0412345
            | Q(folded_club__contains=word)
        )
    found = players.order_by("folded_last", "folded_first", "pk")[:limit]
    return sorted(found, key=lambda p: person_key(p.last_name, p.first_name))


def position_plan(position: Position) -> list[Table]:
    """The position's tables, each with `seat_list` in the score sheet's order (N, S, E, O, 5e)."""
    tables = list(position.tables.prefetch_related("seats__registration__player"))
    for table in tables:
        table.seat_list = sorted(
            table.seats.all(), key=lambda seat: sheet_order_key(seat.direction)
        )
    return tables


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


def itinerary(registration: Registration) -> list[dict[str, Any]]:
    """The player's table, seat and opponents at every position of the tournament."""
    tournament = registration.tournament
    seats = {
        seat.table.position_id: seat
        for seat in registration.seats.select_related("table__position")
    }
    # Everyone at those tables, in one query.
    at_table: dict[int, list[Seat]] = {}
    for other in (
        Seat.objects.filter(table_id__in=[seat.table_id for seat in seats.values()])
        .exclude(pk__in=[seat.pk for seat in seats.values()])
        .select_related("registration__player")
    ):
        at_table.setdefault(other.table_id, []).append(other)
    rows = []
    for position in tournament.positions.all():
        seat = seats.get(position.pk)
        if seat is None:
            rows.append(
                {
                    "position": position.number,
                    "status": position.get_status_display(),
                    "table": "—",
                    "seat": _("ne joue pas"),
                    "opponents": "",
                }
            )
            continue
        others = at_table.get(seat.table_id, [])
        rows.append(
            {
                "position": position.number,
                "status": position.get_status_display(),
                "table": seat.table.number,
                "seat": seat.get_direction_display(),
                "opponents": ", ".join(
                    o.registration.player.full_name
                    for o in sorted(others, key=lambda s: sheet_order_key(s.direction))
                ),
            }
        )
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
