"""A re-plan of a small field goes through the exact model too: the positions played are kept,
their meetings and odd seats counted, and the plan found comes with the solver's proof.

The model with earlier positions is checked against a brute force on a field small enough to
try every plan, teams and a table of 3 included, so that its symmetry breaking (twins: players
with the same team and the same past) is known to cut no better plan off.
"""

import itertools

import pytest
from ortools.sat.python import cp_model

from tournament.core.seating import (
    SeatingPlayer,
    generate,
    numbered_field,
    plan_figures,
    plan_problems,
    repeated_meetings,
)
from tournament.core.seating.exact import Earlier, _Model, exact_plan


def test_a_replan_after_a_withdrawal_finds_fewer_repeats_with_the_solver():
    first = generate(numbered_field(13), 4, seed=1)
    field = numbered_field(13)[1:]  # player 1 withdraws after position 1
    fixed = first.positions[:1]
    searched = generate(field, 4, fixed=fixed, seed=3, exact_budget=0)
    solved = generate(field, 4, fixed=fixed, seed=3)
    assert solved.positions[:1] == fixed  # the played position is kept as it was
    assert plan_problems(solved, field, first=1) == []
    assert plan_figures(solved, field).odd_spread <= 1
    assert repeated_meetings(solved) < repeated_meetings(searched)  # 14 against 18


def test_a_replan_keeps_the_solver_s_proof():
    # Three tables cannot keep 13 players apart: 16 repeats, proven with position 1 played.
    first = generate(numbered_field(13), 3, seed=1)
    plan = generate(numbered_field(13), 3, fixed=first.positions[:1], seed=2)
    assert repeated_meetings(plan) == 16
    assert plan.repeats_floor == 16 and plan_figures(plan).repeats_optimal


def test_a_replan_close_to_the_plan_it_replaces_changes_only_for_fewer_repeats():
    first = generate(numbered_field(12), 4, seed=1, exact_budget=0)
    searched = generate(numbered_field(12), 4, seed=5, previous=first, exact_budget=0)
    solved = generate(numbered_field(12), 4, seed=5, previous=first)
    # The solver's plan moves players: it is taken only for fewer repeats, never for as many.
    assert solved == searched or repeated_meetings(solved) < repeated_meetings(searched)
    assert repeated_meetings(solved) <= 13


# --- The model with earlier positions against every plan ------------------------------------

SIZES = [4, 3]  # 7 players, policy "three"
PARTITIONS = [
    [list(three), [p for p in range(7) if p not in three]]
    for three in itertools.combinations(range(7), 3)
]


def brute_force(teams, earlier: Earlier, positions: int) -> int:
    """The fewest repeats over every plan of the new positions that keeps the rules."""
    best = None
    for plan in itertools.product(PARTITIONS, repeat=positions):
        odd = list(earlier.odd)
        counts = [row[:] for row in earlier.meetings]
        valid = True
        for tables in plan:
            for table in tables:
                mates = [teams[p] for p in table if teams[p] is not None]
                valid &= len(mates) == len(set(mates))
                for a, b in itertools.combinations(table, 2):
                    counts[a][b] += 1
                if len(table) == 3:
                    for p in table:
                        odd[p] += 1
        low, high = earlier.odd_range
        if not valid or not all(low <= k <= high for k in odd):
            continue
        repeats = sum(max(0, counts[a][b] - 1) for a, b in itertools.combinations(range(7), 2))
        best = repeats if best is None else min(best, repeats)
    assert best is not None
    return best


def earlier_of(position: list[list[int]], odd_range: tuple[int, int]) -> Earlier:
    meetings = [[0] * 7 for _ in range(7)]
    odd = [0] * 7
    for table in position:
        for a, b in itertools.combinations(table, 2):
            meetings[a][b] = meetings[b][a] = 1
        if len(table) == 3:
            for p in table:
                odd[p] += 1
    return Earlier(meetings, odd, odd_range)


@pytest.mark.parametrize(
    ("teams", "played"),
    [
        ([None] * 7, [[0, 1, 2, 3], [4, 5, 6]]),
        ([1, 1, None, None, 2, 2, None], [[0, 2, 4, 6], [1, 3, 5]]),
        ([1, 1, 2, 2, None, None, None], [[0, 2, 4, 5], [1, 3, 6]]),
    ],
)
def test_the_model_with_earlier_positions_finds_the_true_fewest_repeats(teams, played):
    # Three positions of 7 players: 9 seats at the table of 3, within 1 of each other: 1 or 2.
    earlier = earlier_of(played, (1, 2))
    found = exact_plan(teams, SIZES, 2, budget=20.0, earlier=earlier)
    assert found is not None and found.optimal
    assert found.repeats == brute_force(teams, earlier, 2)


def test_a_twin_hint_solves_the_model_as_given():
    # The hint is relabelled among twins so that it meets the symmetry breaking.
    teams = [None] * 7
    earlier = earlier_of([[0, 1, 2, 3], [4, 5, 6]], (1, 2))
    model = _Model(teams, SIZES, 2, earlier)
    assert sorted(map(sorted, model.twins())) == [[0, 1, 2, 3], [4, 5, 6]]
    model.hint([[[6, 5, 3, 2], [4, 1, 0]], [[3, 5, 2], [6, 4, 1, 0]]])
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.fix_variables_to_their_hinted_value = True
    assert solver.solve(model.model) in (cp_model.OPTIMAL, cp_model.FEASIBLE)


def test_players_with_a_team_are_never_seated_with_a_teammate_in_a_replan():
    field = [SeatingPlayer(i, (i + 1) // 2 if i <= 8 else None) for i in range(1, 14)]
    # A rule every plan keeps, whatever the solver's time: a short budget (the solver still runs
    # and proves 8 at 0.3 s as at 2 s, with the same 16 repeats).
    first = generate(field, 3, seed=1, exact_budget=0.3)
    plan = generate(field, 3, fixed=first.positions[:1], seed=4, exact_budget=0.3)
    assert plan.repeats_floor == 8  # the solver's proof: the re-plan went through the model
    assert plan_problems(plan, field, first=1) == []
