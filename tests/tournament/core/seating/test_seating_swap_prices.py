"""The annealing's fair pair of swaps is priced without making the first swap: the price must be
exactly what making it, then pricing the second on the counts it leaves, gives; and `move`
must leave the counts a fresh count of the grouping gives."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from tournament.core.seating import SeatingPlayer, table_sizes
from tournament.core.seating.starts import build_grouping
from tournament.core.seating.state import (
    INC,
    LINEAR_INC,
    State,
    exchange_delta,
    move,
    swap_delta,
    table_index,
)


def seated(players: int, policy: str, rounds: int, seed: int, inc: tuple[int, ...]):
    """A state with `rounds` greedy positions of `players` (some teammates), and its grouping."""
    roster = [SeatingPlayer(i, i // 2 if i < 6 else None) for i in range(players)]
    state = State.build(roster, (), inc)
    grouping = build_grouping(
        state, table_sizes(players, policy), rounds, None, random.Random(seed)
    )
    return state, grouping


def recounted(grouping, state: State) -> tuple[list[list[int]], list[int]]:
    fresh = State.build(
        [SeatingPlayer(i, i // 2 if i < 6 else None) for i in range(state.present)], ()
    )
    for tables in grouping:
        fresh.add_position(tables, 1)
    return fresh.meets, fresh.odd


@settings(max_examples=60, deadline=None)
@given(
    players=st.integers(min_value=12, max_value=23),
    policy=st.sampled_from(["five", "three"]),
    rounds=st.integers(min_value=2, max_value=5),
    seed=st.integers(min_value=0, max_value=10**6),
    linear=st.booleans(),
)
def test_a_pair_of_swaps_is_priced_as_making_the_first_then_pricing_the_second(
    players, policy, rounds, seed, linear
):
    state, grouping = seated(players, policy, rounds, seed, LINEAR_INC if linear else INC)
    rng = random.Random(seed)
    where = [table_index(tables, state.present) for tables in grouping]
    r, s = rng.sample(range(rounds), 2)
    x, y = rng.sample(range(state.present), 2)
    a, b, c, d = where[r][x], where[r][y], where[s][x], where[s][y]
    if a == b or c == d:
        return  # x and y share a table: no swap between them there
    first, second = (grouping[r][a], grouping[r][b]), (grouping[s][c], grouping[s][d])
    priced = exchange_delta(state.meets, first, second, x, y, state.inc)
    before = state.cost()
    made = swap_delta(state.meets, *first, x, y, state.inc)
    move(state, grouping[r], where[r], x, a, y, b)
    made += swap_delta(state.meets, *second, x, y, state.inc)
    move(state, grouping[s], where[s], x, c, y, d)
    assert priced == made == state.cost() - before
    assert (state.meets, state.odd) == recounted(grouping, state)
