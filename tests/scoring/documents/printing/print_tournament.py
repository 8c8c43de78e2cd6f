"""A small tournament for the printing tests: 17 players, two positions, scored sheets."""

from __future__ import annotations

from dataclasses import dataclass

from scoring.models import Incident, ScoreSheet
from scoring.sheets.services import deal_adjust, deal_record, sheet_for_table
from tests.examples_004 import BILANS_BY_NAME, engine_deals
from tournament.models import Player, Position, Registration, Seat, Table, Team, Tournament

# Position 1, table 1 is the FFT example sheet of 004: seats N, E, S, W are indices 0..3.
EXAMPLE_004 = engine_deals("NESW")
EXAMPLE_BILANS = BILANS_BY_NAME

NAMES = [
    # Position 1, table 1 in seat order N, E, S, W (the 004 sheet: DURAND N, DUBOIS E, ...).
    ("DURAND", "Pierre"), ("DUBOIS", "Michel"), ("DUPONT", "Jacques"), ("DESPRES", "André"),
    ("MARTIN", "Paul"), ("BERNARD", "Anne"), ("THOMAS", "Luc"), ("PETIT", "Marie"),
    ("ROBERT", "Jean"), ("RICHARD", "Claire"), ("MOREAU", "Henri"), ("SIMON", "Julie"),
    ("LAURENT", "Marc"), ("LEFEBVRE", "Sophie"), ("MICHEL", "Alain"), ("GARCIA", "Léa"),
    ("ROUX", "Émile"),
]  # fmt: skip
SEATS_4 = ("N", "E", "S", "W")
SEATS_5 = ("N", "E", "S", "W", "X")


@dataclass
class PrintTournament:
    tournament: Tournament
    registrations: list[Registration]
    positions: list[Position]
    example_sheet: ScoreSheet
    five_sheet: ScoreSheet
    second_sheet: ScoreSheet
    penalised: Registration

    def by_name(self, last_name: str) -> Registration:
        return next(r for r in self.registrations if r.player.last_name == last_name)


def seat_position(position: Position, order: list[Registration]) -> list[Table]:
    """Tables of 4, then one table of 5 (17 players), in the given order."""
    tables = []
    chunks = [order[0:4], order[4:8], order[8:12], order[12:17]]
    for number, chunk in enumerate(chunks, start=1):
        game = Table.Game.FIVE if len(chunk) == 5 else Table.Game.FOUR
        table = Table.objects.create(position=position, number=number, game=game)
        for registration, direction in zip(chunk, SEATS_5, strict=False):
            Seat.objects.create(table=table, registration=registration, direction=direction)
        tables.append(table)
    return tables


def build_print_tournament(*, deals_per_table: int = 5) -> PrintTournament:
    tournament = Tournament.objects.create(
        name="Open de Chalon",
        date="2008-08-15",
        venue="Salle des fêtes",
        format=Tournament.Format.DUO,
        positions_count=2,
        deals_per_table_4=deals_per_table,
        deals_per_table_5=deals_per_table + 1,
    )
    tournament.refresh_from_db()  # the date as a date, not the string given
    registrations = []
    teams = [Team.objects.create(tournament=tournament, name=f"Duo {n}") for n in range(1, 9)]
    for number, (last, first) in enumerate(NAMES, start=1):
        registrations.append(
            Registration.objects.create(
                tournament=tournament,
                player=Player.objects.create(last_name=last, first_name=first),
                number=number,
                # Teammates sit at different tables: player i with player i + 8 (ROUX alone).
                team=teams[(number - 1) % 8] if number <= 16 else None,
            )
        )
    first = Position.objects.create(tournament=tournament, number=1, status="published")
    second = Position.objects.create(tournament=tournament, number=2, status="draft")
    tables_1 = seat_position(first, registrations)
    # Position 2: every player moves; a simple interleave keeps the tables mixed.
    tables_2 = seat_position(second, registrations[1::2] + registrations[0::2])

    example = sheet_for_table(table=tables_1[0])
    for data in EXAMPLE_004:
        deal_record(sheet=example, data={"players": 4, **data})

    five = sheet_for_table(table=tables_1[3])
    deal_record(
        sheet=five,
        data=dict(players=5, taker=0, partner=2, contract="garde", oudlers=2, points=50),
    )
    adjusted = deal_record(
        sheet=five, data=dict(players=5, taker=1, contract="prise", oudlers=1, points=40)
    )
    deal_adjust(deal=adjusted, scores=[-20, 80, -20, -20, -20], reason="Renonce en défense")
    deal_record(sheet=five, data=dict(players=5, passed=True, dealer=2))
    penalised = five.players.get(seat=3).registration
    Incident.objects.create(
        tournament=tournament,
        sheet=five,
        registration=penalised,
        kind=Incident.Kind.LATENESS,
        decision="Retard de 10 minutes",
        penalty_points=50,
    )

    second_sheet = sheet_for_table(table=tables_2[1])
    deal_record(
        sheet=second_sheet,
        data=dict(players=4, taker=2, contract="garde_sans", oudlers=3, points=60),
    )
    return PrintTournament(
        tournament=tournament,
        registrations=registrations,
        positions=[first, second],
        example_sheet=example,
        five_sheet=five,
        second_sheet=second_sheet,
        penalised=penalised,
    )
