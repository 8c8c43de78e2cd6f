"""Pure ranking: totals, shared ranks, tie-break criteria as data, groups, normalisation."""

from fractions import Fraction

import pytest

from scoring.core import ranking
from scoring.core.ranking import PlayerRow, PositionResult


def player(name, bilans, penalty=0, charged=0, won=()):
    return PlayerRow(
        key=name,
        name=name,
        results={
            number: PositionResult(
                position=number,
                table=1,
                table_size=4,
                points=points,
                raw_points=points,
                won_table=number in won,
            )
            for number, points in enumerate(bilans, start=1)
        },
        penalty=penalty,
        penalties_charged=charged,
    )


def ranks(ranked):
    return [(r.rank, r.row.name) for r in ranked]


def test_highest_total_first_with_penalties_counted():
    rows = [player("A", [100, 20]), player("B", [50, 100], penalty=-40, charged=40)]
    assert ranks(ranking.rank(rows)) == [(1, "A"), (2, "B")]
    assert rows[1].total == 110


def test_equal_totals_share_the_rank_and_the_next_rank_skips():
    rows = [player("C", [10]), player("A", [30]), player("B", [10]), player("D", [-50])]
    ranked = ranking.rank(rows)
    assert ranks(ranked) == [(1, "A"), (2, "B"), (2, "C"), (4, "D")]
    assert [r.tied for r in ranked] == [False, True, True, False]


def test_best_position_breaks_a_tie_only_when_configured():
    rows = [player("A", [60, 40]), player("B", [90, 10])]
    assert ranks(ranking.rank(rows)) == [(1, "A"), (1, "B")]
    criteria = ranking.criteria_for(["best_position"])
    assert ranks(ranking.rank(rows, criteria)) == [(1, "B"), (2, "A")]


def test_criteria_apply_in_the_configured_order():
    # Same total; A has the best position, B fewer penalty points.
    a = player("A", [200, -80], penalty=-20, charged=20)
    b = player("B", [110, -10])
    first_best = ranking.criteria_for(["best_position", "fewest_penalties"])
    first_fewest = ranking.criteria_for(["fewest_penalties", "best_position"])
    assert ranks(ranking.rank([a, b], first_best)) == [(1, "A"), (2, "B")]
    assert ranks(ranking.rank([a, b], first_fewest)) == [(1, "B"), (2, "A")]


def test_ties_remain_when_every_criterion_is_equal():
    rows = [player("A", [10, 20], won=(2,)), player("B", [20, 10], won=(1,))]
    criteria = ranking.criteria_for(["tables_won", "positive_positions"])
    assert ranks(ranking.rank(rows, criteria)) == [(1, "A"), (1, "B")]


def test_tables_won_and_positive_positions():
    a = player("A", [10, 10, -20], won=(1, 2))
    b = player("B", [0, 0, 0], won=(3,))
    assert ranks(ranking.rank([a, b], ranking.criteria_for(["tables_won"]))) == [
        (1, "A"),
        (2, "B"),
    ]
    assert ranking.POSITIVE_POSITIONS.value(a) == 2


def test_unknown_criterion_is_refused():
    with pytest.raises(ValueError):
        ranking.criteria_for(["coin_toss"])


def test_every_offered_tie_break_has_a_label():
    keys = [key for key, _label in ranking.TIE_BREAK_CHOICES]
    assert keys == ["best_position", "fewest_penalties", "tables_won", "positive_positions"]


def test_groups_sum_their_members_and_skip_players_without_a_group():
    rows = [player("A", [10]), player("B", [25]), player("C", [100]), player("D", [5])]
    teams = {"A": "T1", "B": "T1", "C": "T2", "D": None}
    groups = ranking.group(rows, key=lambda r: teams[r.name], label=lambda r: teams[r.name])
    ranked = ranking.rank(groups)
    assert [(r.rank, r.row.name, r.row.total) for r in ranked] == [(1, "T2", 100), (2, "T1", 35)]
    assert ranked[1].row.position_points == {1: 35}


def test_position_rows_rank_a_single_position():
    rows = [player("A", [10, 50]), player("B", [40, -100])]
    restricted = ranking.position_rows(rows, 2)
    assert ranks(ranking.rank(restricted)) == [(1, "A"), (2, "B")]
    assert [r.total for r in restricted] == [50, -100]


def test_table_winners_include_ties():
    winners = ranking.mark_table_winners({1: {"A": 30, "B": 30, "C": -60}, 2: {}})
    assert winners == {(1, "A"), (1, "B")}


def test_normalisation_factors_follow_the_documented_scheme():
    deals = {3: 6, 4: 5, 5: 5}
    assert ranking.normalisation_factor(4, deals) == 1
    assert ranking.normalisation_factor(3, deals) == Fraction(15, 16)
    assert ranking.normalisation_factor(5, deals) == Fraction(5, 4)
    # Same deal counts: only the stake per seat differs.
    same = {3: 5, 4: 5, 5: 5}
    assert ranking.normalisation_factor(3, same) == Fraction(9, 8)


def test_scaling_rounds_halves_away_from_zero():
    assert ranking.scale(10, Fraction(5, 4)) == 13  # 12.5
    assert ranking.scale(-10, Fraction(5, 4)) == -13
    assert ranking.scale(-9, Fraction(5, 4)) == -11  # -11.25
    assert ranking.scale(0, Fraction(5, 4)) == 0
