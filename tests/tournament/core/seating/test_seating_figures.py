"""plan_figures: repeats, odd-table spread and direction spread of a plan, with their bounds."""

from tournament.core.seating import (
    Plan,
    SeatingPlayer,
    direction_spread_floor,
    generate,
    numbered_field,
    odd_table_counts,
    plan_figures,
)


def plan_of(*positions) -> Plan:
    return Plan(tuple(tuple(tuple(t) for t in pos) for pos in positions))


# 9 players, a table of 4 and one of 5, twice; players 1..4 meet again at position 2.
NINE = plan_of(
    [[1, 2, 3, 4], [5, 6, 7, 8, 9]],
    [[5, 6, 7, 8], [1, 2, 3, 4, 9]],
)


def test_odd_table_counts_count_positions_at_tables_of_three_or_five():
    assert odd_table_counts(NINE) == {1: 1, 2: 1, 3: 1, 4: 1, 5: 1, 6: 1, 7: 1, 8: 1, 9: 2}


def test_figures_of_a_small_plan():
    figures = plan_figures(NINE)
    assert figures.repeats == 6 + 6  # 1..4 met twice, and so did 5..8
    # 32 meetings for 36 pairs, but two tables cannot keep anyone apart: the second
    # position's table of 4 takes 2 + 2 players from the first's tables, its table of 5 takes
    # 2 + 3, so 1 + 1 + 1 + 3 pairs meet again in any plan (issue 25: a true "au mieux").
    assert figures.repeats_floor == 6
    assert figures.odd_spread == 1  # player 9 sat at the table of 5 both times
    assert figures.odd_spread_floor == 1  # 10 seats for 9 players
    assert figures.direction_spread == 2  # player 1 sat North both times
    assert figures.direction_spread_floor == 1  # 2 seats among 4 directions: 1 apart at best


# Five players at one table, twice: 20 meetings for 10 pairs.
TWICE = plan_of([[1, 2, 3, 4, 5]], [[2, 3, 4, 5, 1]])


def test_the_repeat_floor_counts_meetings_beyond_the_pairs():
    figures = plan_figures(TWICE)
    assert figures.repeats == figures.repeats_floor == 10


def test_teammates_leave_fewer_pairs_so_the_floor_rises():
    players = [SeatingPlayer(i, team=1 if i in (1, 2) else None) for i in range(1, 6)]
    assert plan_figures(TWICE, players).repeats_floor == 11  # 9 pairs may meet


def test_withdrawn_players_are_left_out_of_the_spreads():
    plan = plan_of([[1, 2, 3], [4, 5, 6, 7]], [[1, 4, 5, 6]])  # 2 and 3 and 7 left
    figures = plan_figures(plan)  # those of the last position
    assert figures.odd_spread == 1  # player 1 sat at the table of 3, 4..6 never did


def test_direction_floor_widens_when_tables_of_three_leave_too_few_west_seats():
    # Each position: one table of 4, one of 3. Over 4 positions 7 players need a West seat
    # each to sit 1-1-1-1, and only 4 exist: at least 3 players miss it.
    position = [[1, 2, 3, 4], [5, 6, 7]]
    plan = plan_of(*[position] * 4)
    assert direction_spread_floor(plan) == 2
    assert direction_spread_floor(plan_of([[1, 2, 3, 4]] * 4)) == 0


def test_generated_plans_reach_their_floors_in_the_issue_cases():
    for players, positions, policy in [(45, 6, "five"), (30, 5, "three"), (50, 8, "three")]:
        field = numbered_field(players)
        figures = plan_figures(generate(field, positions, policy, seed=3), field)
        assert figures.odd_spread == figures.odd_spread_floor
        assert figures.direction_spread == figures.direction_spread_floor
        assert figures.repeats == figures.repeats_floor == 0
