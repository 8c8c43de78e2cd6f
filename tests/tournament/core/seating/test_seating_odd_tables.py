"""Seats at tables of 3 or 5 go round: nobody plays at them every position."""

from collections import Counter

import pytest

from tournament.core.seating import generate, numbered_field, repeated_meetings


@pytest.mark.parametrize("policy", ["five", "three"])
def test_odd_tables_are_shared_when_the_field_is_sparse(policy):
    plan = generate(numbered_field(101), 10, policy, seed=1)
    odd = Counter(p for pos in plan.positions for t in pos if len(t) != 4 for p in t)
    assert max(odd.values()) == 1  # 10 or 30 such seats for 101 players
    assert repeated_meetings(plan) == 0


def test_odd_tables_never_stick_to_the_players_beyond_a_multiple_of_four():
    plan = generate(numbered_field(50), 8, "three", seed=1)
    odd = Counter(p for pos in plan.positions for t in pos if len(t) != 4 for p in t)
    assert max(odd.values()) <= 2
