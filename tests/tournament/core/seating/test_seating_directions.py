"""Directions: each player's N, E, S, W counts differ by at most 1; North (first dealer) rotates."""

import pytest

from tournament.core.seating import direction_counts, direction_spread, generate, numbered_field


@pytest.mark.parametrize(
    ("players", "positions", "team_size"),
    [(16, 5, None), (16, 8, None), (28, 9, None), (32, 8, None), (64, 10, 4), (200, 10, None)],
)
def test_each_player_sits_in_every_direction_evenly(players, positions, team_size):
    plan = generate(numbered_field(players, team_size), positions, seed=9)
    assert direction_spread(plan) <= 1


def test_first_dealers_rotate_fairly():
    plan = generate(numbered_field(32), 8, seed=1)
    norths = [per["N"] for per in direction_counts(plan).values()]
    assert set(norths) == {2}  # 8 positions, 4 directions: everyone deals first twice


def test_fifth_seat_only_at_tables_of_five():
    plan = generate(numbered_field(34), 6, "five", seed=1)
    for position in plan.positions:
        assert [len(t) for t in position].count(5) == 2
    fifth = sum(per["X"] for per in direction_counts(plan).values())
    assert fifth == 2 * 6
