"""Lower bounds on repeats: the counting bound, the co-meeting bound, and that both hold."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.tournament.core.seating.seating_helpers import random_draw
from tournament.core.seating import Plan, plan_figures, repeated_meetings, table_sizes
from tournament.core.seating.bounds import (
    balanced_split_pairs,
    co_meeting_bound,
    position_overlap,
    repeats_bound,
)


@pytest.mark.parametrize("players", [8, 12, 16, 20, 24, 40])
@pytest.mark.parametrize("positions", range(1, 15))
def test_at_tables_of_four_the_counting_bound_is_the_issue_s_formula(players, positions):
    formula = -(-players * max(0, 3 * positions - players + 1) // 2)
    # The co-meeting bound may add to it (few tables), never take away.
    assert repeats_bound(players, positions, [4] * (players // 4)) >= formula
    if players >= 20:
        assert repeats_bound(players, positions, [4] * (players // 4)) == formula


def test_tables_of_five_add_a_meeting_to_whoever_sits_there():
    # 9 players (4 + 5), 3 positions: 15 seats at the table of 5, each player 1 or 2 of them;
    # 9 + 6 players meet 10 and 11 times among 8 others.
    assert repeats_bound(9, 3, table_sizes(9)) == 12


def test_tables_of_three_take_a_meeting_away():
    # 11 players (4 + 4 + 3), 4 positions: 12 seats at tables of 3, one each (and one twice).
    assert repeats_bound(11, 4, table_sizes(11, "three")) == 6


def test_a_split_puts_the_fewest_pairs_together_when_balanced():
    assert balanced_split_pairs(4, 2) == 2  # 2 + 2
    assert balanced_split_pairs(4, 3) == 1  # 2 + 1 + 1
    assert balanced_split_pairs(5, 3) == 2  # 2 + 2 + 1
    assert balanced_split_pairs(4, 4) == 0
    assert position_overlap([4, 4, 5], [4, 4, 5]) == 4


@pytest.mark.parametrize(
    ("players", "positions", "bound"),
    [(8, 3, 8), (12, 4, 9), (13, 3, 8), (13, 4, 12), (16, 5, 0)],
)
def test_few_tables_force_repeats_the_counting_bound_misses(players, positions, bound):
    sizes = table_sizes(players)
    pairs = players * (players - 1) // 2
    assert co_meeting_bound([sizes] * positions, pairs) == bound


def test_the_positions_page_floor_counts_co_meetings():
    # 13 players, 3 positions: "au mieux 0" before.
    rng = random.Random(0)
    draw = random_draw(13, 3, table_sizes(13), rng)
    plan = Plan(tuple(tuple(tuple(t) for t in pos) for pos in draw))
    assert plan_figures(plan).repeats_floor == 8


@settings(max_examples=60, deadline=None)
@given(
    players=st.integers(min_value=5, max_value=40),
    positions=st.integers(min_value=1, max_value=10),
    policy=st.sampled_from(["five", "three"]),
    seed=st.integers(min_value=0, max_value=10**6),
)
def test_no_plan_beats_the_bound(players, positions, policy, seed):
    try:
        sizes = table_sizes(players, policy)
    except Exception:
        return  # too few players for this policy
    draw = random_draw(players, positions, sizes, random.Random(seed))
    plan = Plan(tuple(tuple(tuple(t) for t in pos) for pos in draw))
    assert plan_figures(plan).repeats_floor <= repeated_meetings(plan)
