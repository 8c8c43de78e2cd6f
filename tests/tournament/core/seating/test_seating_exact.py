"""Small fields: the fewest repeats, proven where the solver can, and every plan valid.

The issue's instances (players x positions, tables of 4): 8 x 3 reaches 8 (proven optimal),
12 x 5 reaches 24 (its counting bound), 12 x 4 and 20 x 7 stay at or below what a solver found
in 60 s (13 and 20). The exact solver runs single-threaded on a deterministic time limit, so
these figures do not depend on the machine's load.
"""

import itertools

import pytest
from ortools.sat.python import cp_model

from tournament.core.seating import (
    SeatingPlayer,
    generate,
    meeting_counts,
    numbered_field,
    plan_figures,
    plan_problems,
    repeated_meetings,
    table_sizes,
)
from tournament.core.seating.exact import _Model, exact_plan


def test_eight_players_three_positions_reach_eight_proven_optimal():
    plan = generate(numbered_field(8), 3, seed=1)
    figures = plan_figures(plan)
    assert figures.repeats == 8  # 12 without a third meeting: four pairs meet three times
    assert figures.repeats_floor == 8 and figures.repeats_optimal


def test_the_solver_alone_proves_eight_at_eight_players():
    found = exact_plan([None] * 8, [4, 4], 3, budget=2.0)
    assert found is not None
    assert found.repeats == found.repeats_bound == 8 and found.optimal


def test_twelve_players_five_positions_reach_their_counting_bound():
    plan = generate(numbered_field(12), 5, seed=1)
    assert repeated_meetings(plan) == 24 == plan.repeats_floor
    assert max(meeting_counts(plan).values()) <= 3  # repeats spread, not piled on one pair


def test_twelve_players_four_positions_at_most_what_a_long_solve_found():
    plan = generate(numbered_field(12), 4, seed=1, exact_budget=1.0)
    assert repeated_meetings(plan) <= 13  # 18 before; bound 9 (two positions of 3 tables)
    assert plan_figures(plan).repeats_floor == 9


def test_twenty_players_seven_positions_reach_their_counting_bound():
    plan = generate(numbered_field(20), 7, seed=1)
    assert repeated_meetings(plan) == 20 == plan_figures(plan).repeats_floor


def test_thirteen_players_three_positions_are_proven_to_need_sixteen():
    # "au mieux 0" before: three tables cannot keep 13 players apart for two positions.
    plan = generate(numbered_field(13), 3, seed=1, exact_budget=1.0)
    assert repeated_meetings(plan) == 16
    assert plan.repeats_floor == 16 and plan_figures(plan).repeats_optimal


def test_the_same_request_gives_the_same_plan_with_the_solver():
    first = generate(numbered_field(13), 3, seed=2, exact_budget=0.5)
    assert generate(numbered_field(13), 3, seed=2, exact_budget=0.5) == first


def test_a_solver_that_finds_nothing_in_its_budget_leaves_the_searchs_plan():
    # A budget too small for any plan: the solver answers nothing, the search's plan stands.
    assert exact_plan([None] * 12, [4, 4, 4], 4, budget=1e-9) is None
    searched = generate(numbered_field(12), 4, seed=1, exact_budget=0)
    assert generate(numbered_field(12), 4, seed=1, exact_budget=1e-9) == searched


def test_sharing_the_odd_seats_never_costs_a_repeat_the_solver_saved():
    """9 players, 5 positions (a table of 5 and one of 4): the solver proves 44 repeats; sharing
    out the seats at the table of 5 afterwards would trade them for 46 (its exchanges keep the
    convex price, not the count), so that sharing is undone and the odd seats stay fair."""
    plan = generate(numbered_field(9), 5, "five", seed=0, exact_budget=0.3, search_steps=30_000)
    figures = plan_figures(plan)
    assert figures.repeats == 44 == figures.repeats_floor
    assert figures.odd_spread <= 1
    assert plan_problems(plan, numbered_field(9)) == []


# --- Every plan the solver gives is valid ----------------------------------------------------

# (players, positions, team size, policy): tables of 4, 5 and 3, teams of 2 and 3.
INSTANCES = [
    (8, 4, None, "five"),
    (9, 3, None, "five"),
    (10, 3, 2, "five"),
    (11, 4, None, "three"),
    (12, 3, 3, "five"),
    (14, 3, None, "five"),
    (15, 3, 3, "three"),
]


def check_plan(grouping, teams, sizes, positions):
    """Each player once per position, the table sizes, teammates apart, odd tables fair."""
    n = len(teams)
    assert len(grouping) == positions
    odd = [0] * n
    for tables in grouping:
        assert sorted(p for t in tables for p in t) == list(range(n))
        assert sorted(len(t) for t in tables) == sorted(sizes)
        for table in tables:
            mates = [teams[p] for p in table if teams[p] is not None]
            assert len(mates) == len(set(mates))
            if len(table) != 4:
                for p in table:
                    odd[p] += 1
    assert max(odd) - min(odd) <= 1


@pytest.mark.parametrize(("players", "positions", "team_size", "policy"), INSTANCES)
def test_every_plan_of_the_solver_keeps_the_hard_rules(players, positions, team_size, policy):
    teams = [p // team_size if team_size else None for p in range(players)]
    sizes = table_sizes(players, policy)
    found = exact_plan(teams, sizes, positions, budget=0.5)
    assert found is not None
    check_plan(found.grouping, teams, sizes, positions)
    assert found.repeats == repeated_meetings(found.grouping)
    assert found.repeats_bound <= found.repeats


@pytest.mark.parametrize(("players", "positions", "team_size", "policy"), INSTANCES)
def test_every_generated_small_plan_keeps_the_hard_rules(players, positions, team_size, policy):
    field = numbered_field(players, team_size)
    plan = generate(field, positions, policy, seed=3, exact_budget=0.5)
    assert plan_problems(plan, field, policy) == []
    assert plan_figures(plan, field).odd_spread <= 1
    assert plan.repeats_floor is not None
    assert plan.repeats_floor <= repeated_meetings(plan)
    # The symmetry breaking cuts no plan off: this one, in any order, solves the model.
    index = {p.id: i for i, p in enumerate(field)}
    grouping = [[[index[p] for p in t] for t in reversed(pos)] for pos in reversed(plan.positions)]
    model = _Model([p.team for p in field], table_sizes(players, policy), positions)
    model.hint(grouping)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.fix_variables_to_their_hinted_value = True
    solver.parameters.max_deterministic_time = 2.0
    assert solver.solve(model.model) in (cp_model.OPTIMAL, cp_model.FEASIBLE)
    assert repeated_meetings(model.grouping(solver)) == repeated_meetings(plan)


def test_teammates_are_kept_apart_by_the_solver():
    players = [SeatingPlayer(i, team=(i + 1) // 2) for i in range(1, 9)]  # 4 pairs of mates
    plan = generate(players, 3, seed=1)
    for position in plan.positions:
        for table in position:
            for a, b in itertools.combinations(table, 2):
                assert (a + 1) // 2 != (b + 1) // 2


def test_the_announced_wait_covers_the_search_each_field_gets():
    """The positions page's progress bar announces what the generator may spend: the exact
    solver for small fields, the full annealing budget beyond the repeat-free limit (24 x 8,
    40 x 14: repeats are forced, the runs go to their end), little where designs answer."""
    from tournament.core.seating.small import ANNEAL_SECONDS, expected_seconds

    assert expected_seconds(12, 4) > 2  # the exact solver
    assert expected_seconds(18, 4) == 5  # 17 to 20 players: the annealing on repeats alone
    assert expected_seconds(24, 8) == expected_seconds(40, 14) == ANNEAL_SECONDS > 2
    assert expected_seconds(28, 9) <= 2  # 27 new opponents among 27: a design, no annealing
    assert expected_seconds(1000, 10) <= 2
    assert expected_seconds(40, 0) == 0
