"""A small event built through the services: players registered in session 1's main bracket,
positions seated, deals typed at the desk's service, sessions finished."""

from __future__ import annotations

import datetime

from scoring.events.brackets import event_create
from scoring.sheets.services.deals import deal_record
from scoring.sheets.services.sheets import sheet_for_table
from tournament.access.lifecycle import tournament_finish
from tournament.evening.positions import position_publish, position_tables_store
from tournament.evening.selectors import tables_of
from tournament.models import Player, Position, Team, Tournament


def new_event(players: int = 16, *, owner=None, team_size: int | None = None, **settings):
    """An event whose session 1 main bracket holds `players` players (P1, P2...), one position
    of three deals a table by default; teams T1, T2... of `team_size` consecutive players."""
    fmt = {2: "duo", 4: "team4"}.get(team_size or 0, "individual")
    data = {
        "name": "Championnat",
        "date": datetime.date(2026, 5, 9),
        "venue": "Salle des fêtes",
        "format": fmt,
        "positions_count": 1,
        "deals_per_table_4": 3,
        **settings,
    }
    event = event_create(data=data, owner=owner)
    bracket = event.brackets.get()
    for number in range(1, players + 1):
        team = None
        if team_size:
            team, _new = Team.objects.get_or_create(
                tournament=bracket, name=f"T{(number - 1) // team_size + 1}"
            )
        player = Player.objects.create(last_name=f"P{number}", first_name="Jo")
        bracket.registrations.create(player=player, number=number, team=team)
    return event, bracket


def seat(bracket: Tournament, tables: list[list[int]]) -> None:
    """Position 1 seated by hand: registration numbers per table, seat by seat."""
    by_number = {r.number: r.pk for r in bracket.registrations.all()}
    position, _new = Position.objects.get_or_create(tournament=bracket, number=1)
    position_tables_store(
        position=position, tables=[[by_number[n] for n in table] for table in tables]
    )


def play(bracket: Tournament, values: list[list[int]]) -> dict[str, int]:
    """Publish position 1, and at its k-th table (by number) the seats 0, 1 and 2 each take
    a prise with 2 oudlers and 41 + a points (a from values[k]): V = 25 + a, won. Then finish
    the bracket. Returns each player's score (by name) by hand: a taker 3V, a defender −V."""
    position = bracket.positions.get(number=1)
    position_publish(position=position, unfinished_confirmed=True)
    names = {r.pk: r.player.last_name for r in bracket.registrations.select_related("player")}
    scores: dict[str, int] = {}
    for table, extras in zip(
        sorted(position.tables.all(), key=lambda t: t.number), values, strict=True
    ):
        sheet = sheet_for_table(table=table)
        seated = tables_of(position)[
            sorted(t.number for t in position.tables.all()).index(table.number)
        ]
        stakes = [25 + a for a in extras]
        for taker, a in enumerate(extras):
            deal_record(
                sheet=sheet,
                data={
                    "players": 4,
                    "taker": taker,
                    "contract": "prise",
                    "oudlers": 2,
                    "points": 41 + a,
                },
            )
        for seat_index, registration_id in enumerate(seated):
            scores[names[registration_id]] = sum(
                3 * v if seat_index == taker else -v for taker, v in enumerate(stakes)
            )
    tournament_finish(tournament=bracket)
    return scores


def numbers_by_table(bracket: Tournament) -> list[list[str]]:
    """Position 1's tables as names, each table's names sorted, tables by number."""
    position = bracket.positions.get(number=1)
    names = {r.pk: r.player.last_name for r in bracket.registrations.select_related("player")}
    return [sorted(names[pk] for pk in table) for table in tables_of(position)]
