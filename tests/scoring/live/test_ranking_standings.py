"""Standings from the database: hand-computed totals, penalties, positions, teams, clubs."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from scoring.live.standings import standings_for
from scoring.models import ScoreSheet
from tests.report_builders import BY_POSITION, TOTALS, add_penalty, build_tournament
from tournament.models import Position

pytestmark = pytest.mark.django_db


def letter(row):
    return row.name.split()[-1]


def totals(standings):
    return {letter(r.row): r.row.total for r in standings.players}


def test_totals_match_the_hand_computed_sheet_results():
    built = build_tournament()
    standings = standings_for(built["tournament"])
    assert totals(standings) == TOTALS
    assert standings.positions == [1, 2]
    assert [letter(r.row) for r in standings.players[:3]] == ["A", "E", "H"]
    assert [r.rank for r in standings.players] == [1, 2, 3, 4, 5, 6, 7, 7, 9]


def test_penalties_are_charged_to_the_culprit_only():
    built = build_tournament()
    add_penalty(built, "C", 20)
    standings = standings_for(built["tournament"])
    rows = {letter(r.row): r.row for r in standings.players}
    assert rows["C"].penalty == -20
    assert rows["C"].penalties_charged == 20
    assert rows["C"].total == TOTALS["C"] - 20
    assert rows["C"].deal_points == TOTALS["C"]
    assert rows["D"].total == TOTALS["D"]
    assert standings.players[-1].row is rows["C"]


def test_a_shared_penalty_goes_to_the_others_of_the_table():
    built = build_tournament()
    add_penalty(built, "I", 30, shared=True)  # table B C D H I: 30 over 4 = 8, 8, 7, 7
    standings = standings_for(built["tournament"])
    got = {letter(r.row): r.row.penalty for r in standings.players}
    assert got == {"A": 0, "B": 8, "C": 8, "D": 7, "E": 0, "F": 0, "G": 0, "H": 7, "I": -30}
    assert sum(r.row.total for r in standings.players) == 0


def test_ranking_per_position():
    built = build_tournament()
    add_penalty(built, "H", 10, at=(2, 2))
    standings = standings_for(built["tournament"])
    for number, expected in BY_POSITION.items():
        ranked = standings.by_position(number)
        got = {letter(r.row): r.row.deal_points for r in ranked}
        assert got == expected
    second = {letter(r.row): r.row.total for r in standings.by_position(2)}
    assert second["H"] == 90
    first = {letter(r.row): r.row.total for r in standings.by_position(1)}
    assert first["H"] == -25


def test_team_and_club_rankings_sum_their_members():
    built = build_tournament()
    standings = standings_for(built["tournament"])
    teams = {r.row.name: r.row.total for r in standings.teams}
    assert teams == {"Duo AB": 221 - 20, "Duo CE": -120 + 86}
    assert [r.row.name for r in standings.teams] == ["Duo AB", "Duo CE"]
    clubs = {r.row.name: r.row.total for r in standings.clubs}
    assert clubs == {"Paris": 221 - 120 + 86, "Lyon": -20 - 120}


def test_tie_breaks_come_from_the_tournament_and_full_ties_still_share():
    # C and D have the same bilans at every position: no criterion can split them.
    built = build_tournament(tie_breaks=["best_position", "tables_won"])
    standings = standings_for(built["tournament"])
    assert [c.key for c in standings.criteria] == ["total", "best_position", "tables_won"]
    ranks = {letter(r.row): r.rank for r in standings.players}
    assert ranks["C"] == ranks["D"] == 7
    assert ranks["G"] == 9


def test_tables_won():
    built = build_tournament()
    standings = standings_for(built["tournament"])
    won = {letter(r.row): r.row.tables_won for r in standings.players}
    # Position 1: A at table 1, E at table 2. Position 2: A, E, F tie at table 1; H at table 2.
    assert won == {"A": 2, "B": 0, "C": 0, "D": 0, "E": 2, "F": 1, "G": 0, "H": 1, "I": 0}


def test_normalisation_scales_tables_of_five_only_when_chosen():
    built = build_tournament(normalise_tables=True)
    standings = standings_for(built["tournament"])
    assert standings.normalised
    got = totals(standings)
    # Tables of 5 x 5/4 (defaults: 5 deals at 4 and at 5), rounded half away from zero.
    assert got["A"] == 221  # two tables of 4
    assert got["E"] == 63 + 36  # 50 x 5/4 = 62.5 → 63
    assert got["H"] == -31 + 125  # -31.25 → -31
    assert got["F"] == 31 + 36
    row_e = standings.rows_by_key[built["registrations"]["E"].pk]
    assert row_e.results[1].raw_points == 50
    assert not standings_for(build_tournament()["tournament"]).normalised


def test_public_standings_leave_out_draft_positions():
    built = build_tournament()
    Position.objects.filter(pk=built["positions"][2].pk).update(status=Position.Status.DRAFT)
    public = standings_for(built["tournament"], public=True)
    assert public.positions == [1]
    assert totals(public) == BY_POSITION[1]
    assert totals(standings_for(built["tournament"])) == TOTALS


def test_public_standings_count_only_validated_sheets_when_so_chosen():
    built = build_tournament(public_requires_validation=True)
    assert all(r.row.total == 0 for r in standings_for(built["tournament"], public=True).players)
    ScoreSheet.objects.filter(pk=built["sheets"][(1, 1)].pk).update(
        status=ScoreSheet.Status.VALIDATED
    )
    got = totals(standings_for(built["tournament"], public=True))
    assert got["A"] == 185 and got["E"] == 0


def test_penalties_of_hidden_sheets_stay_hidden():
    built = build_tournament()
    add_penalty(built, "C", 20, at=(2, 2))
    Position.objects.filter(pk=built["positions"][2].pk).update(status=Position.Status.DRAFT)
    public = standings_for(built["tournament"], public=True)
    row = next(r.row for r in public.players if letter(r.row) == "C")
    assert row.penalty == 0


def test_the_number_of_queries_does_not_grow_with_the_field():
    built = build_tournament()
    with CaptureQueriesContext(connection) as queries:
        standings_for(built["tournament"])
    assert len(queries) == 5
