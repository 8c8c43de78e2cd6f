"""Beyond zero repeats: E stays at its lower bound and third meetings wait until forced."""

import random

import pytest

from tests.tournament.core.seating.seating_helpers import numbered_plan, random_draw
from tournament.core.seating import meeting_counts, repeated_meetings


@pytest.mark.parametrize("positions", [6, 7, 8, 9, 10])
def test_sixteen_players_repeat_only_24_meetings_per_extra_position(positions):
    plan = numbered_plan(16, positions, seed=positions)
    assert repeated_meetings(plan) == 24 * (positions - 5)
    assert max(meeting_counts(plan).values()) == 2  # nobody meets anyone a third time


@pytest.mark.parametrize("policy", ["five", "three"])
def test_dense_tables_of_five_or_three_stay_far_below_a_random_draw(policy):
    players, positions = 34, 10  # 3 x 10 > 0.7 x 33: some repeats are forced
    plan = numbered_plan(players, positions, policy, seed=4)
    sizes = [len(t) for t in plan.positions[0]]
    rng = random.Random(0)
    draws = [repeated_meetings(random_draw(players, positions, sizes, rng)) for _ in range(20)]
    assert repeated_meetings(plan) < 0.5 * sum(draws) / len(draws)
    assert max(meeting_counts(plan).values()) == 2


# Issue 11: before, seed 3 gave 13 repeats at 20 x 6 and 27 at 24 x 8; a long local search finds
# 6 and 26. The other three were already at their counting bound (28 x 10, 32 x 11) or near it.
BEYOND = [(20, 6, 6), (24, 8, 26), (28, 10, 42), (32, 11, 32), (36, 12, 28)]


@pytest.mark.parametrize(("players", "positions", "repeats"), BEYOND)
def test_beyond_the_social_golfer_limit_repeats_stay_at_a_long_search_s_level(
    players, positions, repeats
):
    plan = numbered_plan(players, positions, seed=3)
    assert repeated_meetings(plan) <= repeats
    assert max(meeting_counts(plan).values()) == 2


@pytest.mark.slow
@pytest.mark.parametrize("seed", [1, 2, 4, 5])
@pytest.mark.parametrize(("players", "positions", "repeats"), BEYOND[:2] + BEYOND[-1:])
def test_beyond_the_limit_whatever_the_seed(players, positions, repeats, seed):
    assert repeated_meetings(numbered_plan(players, positions, seed=seed)) <= repeats
