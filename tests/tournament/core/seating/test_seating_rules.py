"""Seating hard rules: one seat each, teammates apart, table sizes; refusals; determinism."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tournament.core.seating import (
    Plan,
    SeatingError,
    SeatingPlayer,
    generate,
    numbered_field,
    plan_problems,
    starting_positions,
    table_sizes,
)


@pytest.mark.parametrize(
    ("players", "policy", "sizes"),
    [
        (32, "five", [4] * 8),
        (34, "five", [4] * 6 + [5] * 2),
        (34, "three", [4] * 7 + [3] * 2),
        (101, "five", [4] * 24 + [5]),
        (101, "three", [4] * 23 + [3] * 3),
        (5, "five", [5]),
        (3, "three", [3]),
        (35, "five_dead", [4] * 5 + [5] * 3),
    ],
)
def test_table_sizes_put_the_remainder_at_tables_of_five_or_three(players, policy, sizes):
    assert table_sizes(players, policy) == sizes


@pytest.mark.parametrize(
    ("players", "positions", "policy", "fixed", "words"),
    [
        (numbered_field(2), 3, "five", (), "au moins 3 joueurs"),
        (numbered_field(6), 3, "five", (), "tables de 3"),
        (numbered_field(5), 3, "three", (), "tables de 5"),
        (numbered_field(8, team_size=4), 3, "five", (), "équipe de 4"),
        (numbered_field(16), 3, "six", (), "inconnue"),
        (numbered_field(16), 0, "five", (), "positions"),
        (numbered_field(16), 1, "five", [[[1, 2, 3, 4]], [[1, 2, 3, 4]]], "Plus de positions"),
        (numbered_field(16), 3, "five", [[[1, 2, 3, 3]]], "deux fois"),
    ],
)
def test_impossible_requests_are_refused_in_french(players, positions, policy, fixed, words):
    with pytest.raises(SeatingError, match=words):
        generate(players, positions, policy, fixed=fixed)


def test_duplicate_player_ids_are_refused():
    with pytest.raises(SeatingError, match="double"):
        generate([SeatingPlayer(1), SeatingPlayer(2), SeatingPlayer(2), SeatingPlayer(3)], 2)


def test_seating_error_is_a_plain_value_error():
    assert issubclass(SeatingError, ValueError)


def test_same_seed_gives_the_same_plan_and_another_seed_another():
    players = numbered_field(34)
    assert generate(players, 6, seed=7) == generate(players, 6, seed=7)
    assert generate(players, 6, seed=7) != generate(players, 6, seed=8)


def test_every_player_has_a_distinct_starting_position():
    plan = generate(numbered_field(34), 4, "five", seed=3)
    start = starting_positions(plan)
    assert sorted(start) == list(range(1, 35))
    assert len(set(start.values())) == 34
    table, direction = start[plan.positions[0][0][0]]
    assert (table, direction) == (1, "N")


def test_tables_list_seats_in_order_north_east_south_west_fifth():
    plan = generate(numbered_field(9), 2, "five", seed=1)
    assert isinstance(plan, Plan)
    assert sorted(len(t) for t in plan.positions[0]) == [4, 5]
    assert plan.to_lists()[0] == [list(t) for t in plan.positions[0]]


@st.composite
def fields(draw):
    n = draw(st.integers(min_value=8, max_value=120))
    policy = draw(st.sampled_from(["five", "three"]))
    team_size = draw(st.sampled_from([None, 2, 4]))
    try:
        tables = len(table_sizes(n, policy))
    except SeatingError:
        policy = "three"
        tables = len(table_sizes(n, policy))
    if team_size and team_size > tables:
        team_size = None
    positions = draw(st.integers(min_value=1, max_value=6))
    seed = draw(st.integers(min_value=0, max_value=10_000))
    return numbered_field(n, team_size), policy, positions, seed


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(fields())
def test_hard_rules_hold_on_random_fields(case):
    players, policy, positions, seed = case
    plan = generate(players, positions, policy, seed=seed)
    assert len(plan.positions) == positions
    assert plan_problems(plan, players, policy) == []


def test_a_single_table_is_seated_every_position_even_in_a_replan():
    players = numbered_field(5)
    plan = generate(players, 3, "five", seed=1)
    assert plan_problems(plan, players) == []
    replan = generate(numbered_field(4), 3, "five", fixed=plan.positions[:1], seed=1, previous=plan)
    assert replan.positions[0] == plan.positions[0]
    assert plan_problems(replan, numbered_field(4), first=1) == []


def test_teammates_who_would_meet_at_a_single_table_are_told_so_in_good_french():
    # A duo event's bracket of two teams (a cut by team): "1 tables" read badly.
    with pytest.raises(SeatingError) as refused:
        generate(numbered_field(4, team_size=2), 1, "five")
    assert str(refused.value) == (
        "Une équipe de 2 joueurs ne peut pas jouer à une seule table sans que deux "
        "coéquipiers se rencontrent."
    )
