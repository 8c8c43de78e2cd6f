"""A position seated from the standings: by rank (table d'honneur) or in a snake.

Properties over random fields: everyone seated once at the generator's table sizes, teammates
apart, the defining shape of each method (blocks of consecutive ranks; snake sums), the tables
of 3 or 5 at the end or the start, whichever shares them more evenly.
"""

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from tournament.core.seating import (
    RANK,
    SNAKE,
    Plan,
    SeatingPlayer,
    numbered_field,
    odd_spread,
    seat_by_standings,
    table_sizes,
)
from tournament.core.seating.seeded import by_rank, snake

fields = st.integers(min_value=8, max_value=60)
policies = st.sampled_from(["five", "three"])
methods = st.sampled_from([RANK, SNAKE])


def ranks_at(position, ranking):
    rank = {p: r for r, p in enumerate(ranking, start=1)}
    return [sorted(rank[p] for p in table) for table in position]


def test_sixteen_players_in_a_snake():
    assert snake(list(range(1, 17)), [4] * 4) == [
        [1, 8, 9, 16],
        [2, 7, 10, 15],
        [3, 6, 11, 14],
        [4, 5, 12, 13],
    ]


def test_by_rank_the_leaders_sit_together_at_table_one():
    position = seat_by_standings(numbered_field(13), RANK)
    assert [sorted(t) for t in position] == [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12, 13]]


def test_a_snake_with_a_table_of_five_deals_the_fifth_seat_there_only():
    assert snake(list(range(1, 14)), [4, 4, 5]) == [
        [1, 6, 7, 12],
        [2, 5, 8, 11],
        [3, 4, 9, 10, 13],
    ]


@settings(max_examples=60, deadline=None)
@given(players=fields, policy=policies, method=methods, seed=st.integers(0, 9))
def test_everyone_is_seated_once_at_the_generator_s_table_sizes(players, policy, method, seed):
    if policy == "three" and players < 9 or players == 11 and policy == "five":
        return  # too few to seat that way (the generator refuses too)
    ranking = list(range(100, 100 + players))[::-1]
    position = seat_by_standings([SeatingPlayer(p) for p in ranking], method, policy, seed=seed)
    assert sorted(p for t in position for p in t) == sorted(ranking)
    assert sorted(len(t) for t in position) == sorted(table_sizes(players, policy))


@settings(max_examples=60, deadline=None)
@given(players=fields, policy=policies)
def test_by_rank_each_table_is_a_block_of_consecutive_ranks(players, policy):
    if policy == "three" and players < 9 or players == 11 and policy == "five":
        return
    ranking = list(range(1, players + 1))
    ranks = ranks_at(seat_by_standings(numbered_field(players), RANK, policy), ranking)
    assert [r for table in ranks for r in table] == ranking  # table 1 the best, and so on
    assert len(ranks[0]) == 4 or all(len(t) == len(ranks[0]) for t in ranks)


@settings(max_examples=60, deadline=None)
@given(tables=st.integers(min_value=2, max_value=15))
def test_a_snake_gives_every_table_of_four_the_same_sum_of_ranks(tables):
    ranks = ranks_at(seat_by_standings(numbered_field(4 * tables), SNAKE), range(1, 4 * tables + 1))
    assert len({sum(t) for t in ranks}) == 1
    assert ranks[0] == [1, 2 * tables, 2 * tables + 1, 4 * tables]


@st.composite
def teamed_fields(draw):
    """A field with teams of 2 to 4 that the table sizes can keep apart."""
    players = draw(st.integers(min_value=12, max_value=40))
    if players == 11:
        players = 12
    size = draw(st.integers(min_value=2, max_value=min(4, len(table_sizes(players)))))
    teams = draw(st.integers(min_value=0, max_value=players // size))
    field = [SeatingPlayer(i, i // size if i < teams * size else None) for i in range(players)]
    return draw(st.permutations(field))


@settings(max_examples=80, deadline=None)
@given(field=teamed_fields(), method=methods)
def test_teammates_never_sit_together(field, method):
    team = {p.id: p.team for p in field}
    for table in seat_by_standings(field, method):
        teams = [team[p] for p in table if team[p] is not None]
        assert len(teams) == len(set(teams))


@settings(max_examples=40, deadline=None)
@given(players=st.integers(min_value=13, max_value=40), method=methods)
def test_the_odd_tables_go_where_they_keep_the_share_even(players, method):
    if players % 4 == 0:
        players += 1
    field = numbered_field(players)
    sizes = table_sizes(players)
    odd = len([s for s in sizes if s != 4]) * 5
    # The last `odd` players of the ranking sat at a table of 5 in position 1.
    played = (tuple(by_rank([p.id for p in field], sizes)),)
    position = seat_by_standings(field, method, fixed=played)
    plan = Plan(played + (position,))
    assert odd_spread(plan) <= 1
    # With nothing played, the tables of 5 stay last (the bottom of the ranking).
    fresh = seat_by_standings(field, method)
    assert [len(t) for t in fresh] == sorted(sizes, key=lambda s: s != 4)
    assert odd > 0


def test_directions_are_balanced_with_the_positions_played():
    field = numbered_field(16)
    played = ((tuple(range(1, 5)), (5, 6, 7, 8), (9, 10, 11, 12), (13, 14, 15, 16)),)
    position = seat_by_standings(field, RANK, fixed=played)
    # The leaders meet again at table 1, each in a new direction.
    assert sorted(position[0]) == [1, 2, 3, 4]
    for seat, player in enumerate(position[0]):
        assert played[0][0].index(player) != seat
    assert all(a != b for a, b in itertools.pairwise(position))
