"""E = 0 (no pair meets twice) wherever zero repeats are known to be possible."""

import pytest

from tournament.core.seating import generate, numbered_field, plan_problems, repeated_meetings

field = numbered_field


@pytest.mark.parametrize(
    ("players", "positions"),
    [
        (16, 5),
        (20, 5),
        (24, 7),
        (28, 9),
        (32, 8),
        (32, 10),
        (36, 10),
        (36, 11),
    ],
)
def test_small_fields_reach_the_known_maximum_without_repeats(players, positions):
    plan = generate(field(players), positions, seed=11)
    assert plan_problems(plan, field(players)) == []
    assert repeated_meetings(plan) == 0


@pytest.mark.parametrize("start", [40, 80, 120, 160])
def test_every_multiple_of_four_up_to_200_plays_10_positions_without_repeats(start):
    # 32 and 36 are above; four slices of 40 to 200 so that pytest -n 2 spreads them.
    for players in range(start, start + 40 + (start == 160), 4):
        plan = generate(field(players), 10, seed=players)
        assert repeated_meetings(plan) == 0, players


@pytest.mark.parametrize(("players", "team_size", "positions"), [(64, 4, 10), (32, 4, 6)])
def test_teams_of_four_stay_apart_without_repeats(players, team_size, positions):
    plan = generate(field(players, team_size), positions, seed=5)
    assert plan_problems(plan, field(players, team_size)) == []
    assert repeated_meetings(plan) == 0


@pytest.mark.parametrize("policy", ["five", "three"])
@pytest.mark.parametrize(("players", "positions"), [(34, 6), (50, 8), (101, 10)])
def test_tables_of_five_or_three_avoid_repeats_when_density_allows(players, positions, policy):
    assert 3 * positions <= 0.7 * (players - 1)  # the threshold for these cases
    plan = generate(field(players), positions, policy, seed=2)
    assert plan_problems(plan, field(players), policy) == []
    assert repeated_meetings(plan) == 0
