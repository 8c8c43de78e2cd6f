"""A small hand-made tournament whose totals are computed by hand in the ranking tests.

Nine players, two positions; each position has a table of 4 and a table of 5 (king called).

Position 1, table 1 (A B C D): A garde 2 bouts 51 → A +210, B C D −70;
                                B prise 1 bout 51 → B +75, A C D −25.
Position 1, table 2 (E F G H I): E prise 0 bout 56 calling F → E +50, F +25, G H I −25.
Position 2, table 1 (A E F G): G prise 1 bout 40, down by 11 → G −108, A E F +36.
Position 2, table 2 (B C D H I): H prise 0 bout 56 alone → H +100, B C D I −25.
"""

from __future__ import annotations

import datetime

from scoring.models import Deal, Incident, ScoreSheet
from scoring.sheets.services import deal_adjust, deal_record, incident_record, sheet_for_table
from tournament.models import DIRECTIONS, Player, Position, Registration, Seat, Table, Tournament

NAMES = "ABCDEFGHI"
CLUBS = {"A": "Paris", "C": "Paris", "E": "Paris", "B": "Lyon", "D": "Lyon"}
TEAMS = {"A": "Duo AB", "B": "Duo AB", "C": "Duo CE", "E": "Duo CE"}
PLAN = [
    [("ABCD", "four"), ("EFGHI", "five")],
    [("AEFG", "four"), ("BCDHI", "five")],
]
DEALS = {
    (1, 1): [
        dict(taker=0, contract="garde", oudlers=2, points=51),
        dict(taker=1, contract="prise", oudlers=1, points=51),
    ],
    (1, 2): [dict(taker=0, partner=1, contract="prise", oudlers=0, points=56)],
    (2, 1): [dict(taker=3, contract="prise", oudlers=1, points=40)],
    (2, 2): [dict(taker=3, partner=3, contract="prise", oudlers=0, points=56)],
}
TOTALS = {"A": 221, "B": -20, "C": -120, "D": -120, "E": 86, "F": 61, "G": -133, "H": 75, "I": -50}
BY_POSITION = {
    1: {"A": 185, "B": 5, "C": -95, "D": -95, "E": 50, "F": 25, "G": -25, "H": -25, "I": -25},
    2: {"A": 36, "B": -25, "C": -25, "D": -25, "E": 36, "F": 36, "G": -108, "H": 100, "I": -25},
}


def build_tournament(**options) -> dict:
    """Create the tournament, seat everybody, record every deal; returns handy objects."""
    from tournament.models import Team

    # The status comes last: a finished tournament refuses the deals recorded below.
    status = options.pop("status", None)
    tournament = Tournament.objects.create(
        name="Tournoi test", date=datetime.date(2025, 3, 1), positions_count=2, **options
    )
    teams = {
        name: Team.objects.get_or_create(tournament=tournament, name=name)[0]
        for name in set(TEAMS.values())
    }
    registrations = {}
    for number, name in enumerate(NAMES, start=1):
        player = Player.objects.create(last_name=f"Joueur{name}", first_name=name,
                                       club=CLUBS.get(name, ""))  # fmt: skip
        registrations[name] = Registration.objects.create(
            tournament=tournament,
            player=player,
            number=number,
            team=teams[TEAMS[name]] if name in TEAMS else None,
        )
    sheets = {}
    for position_number, tables in enumerate(PLAN, start=1):
        position = Position.objects.create(
            tournament=tournament, number=position_number, status=Position.Status.PUBLISHED
        )
        for table_number, (letters, game) in enumerate(tables, start=1):
            table = Table.objects.create(position=position, number=table_number, game=game)
            for index, letter in enumerate(letters):
                Seat.objects.create(
                    table=table, registration=registrations[letter], direction=DIRECTIONS[index]
                )
            sheet = sheet_for_table(table=table)
            for data in DEALS[(position_number, table_number)]:
                data = dict(data, players=len(letters))
                if data.get("partner") == data["taker"]:
                    data["partner"] = None  # the taker called himself: alone against four
                deal_record(sheet=sheet, data=data)
            sheets[(position_number, table_number)] = sheet
    if status is not None:
        Tournament.objects.filter(pk=tournament.pk).update(status=status)
        tournament.status = status
    return {
        "tournament": tournament,
        "registrations": registrations,
        "sheets": sheets,
        "positions": {p.number: p for p in tournament.positions.all()},
    }


def add_penalty(built: dict, letter: str, points: int, *, at=(2, 2), shared=False) -> Incident:
    sheet: ScoreSheet = built["sheets"][at]
    return Incident.objects.create(
        tournament=built["tournament"],
        sheet=sheet,
        registration=built["registrations"][letter],
        kind=Incident.Kind.CARTE_EXPOSEE,
        penalty_points=points,
        shared=shared,
    )


def adjust_and_report(
    built: dict,
    user,
    *,
    deal: int,
    scores: list[int],
    reason: str,
    kind: str,
    letter: str,
    points: int,
) -> None:
    """On the sheet of position 1, table 1, through the services (so the change log has them):
    the arbiter's score for deal number `deal`, and an incident of player `letter`."""
    sheet: ScoreSheet = built["sheets"][(1, 1)]
    adjusted = Deal.objects.get(sheet=sheet, number=deal)
    deal_adjust(deal=adjusted, scores=scores, reason=reason, user=user)
    incident_record(
        tournament=built["tournament"],
        kind=kind,
        registration=built["registrations"][letter],
        sheet=sheet,
        penalty_points=points,
        user=user,
    )
