"""The entry point: `generate` checks the request, runs the search and assembles the plan."""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

from tournament.core.seating.directions import assign_directions
from tournament.core.seating.notes import plan_notes
from tournament.core.seating.plan import (
    Plan,
    PlayerLike,
    check_fixed,
    check_players,
    check_policy,
    check_teams_fit,
    table_sizes,
)
from tournament.core.seating.search import MAX_ANNEAL_STEPS, best_groupings
from tournament.core.seating.small import EXACT_BUDGET, refine_exactly, refine_on_repeats
from tournament.core.seating.state import State


def generate(
    players: Iterable[PlayerLike],
    positions: int,
    policy: str = "five",
    fixed: Sequence[Sequence[Sequence[int]]] = (),
    seed: int = 0,
    previous: Plan | None = None,
    exact_budget: float = EXACT_BUDGET,
    search_steps: int = MAX_ANNEAL_STEPS,
) -> Plan:
    """Seat `players` for positions len(fixed)+1 .. `positions` (the total count).

    `players` are the players present for the positions to generate (objects with `id` and
    `team`); withdrawn players are simply left out, late ones added. `fixed` are the positions
    already played, kept exactly. `previous`, when given, is the plan being replaced: its
    unplayed positions are the starting point, so that one withdrawal moves few players. The
    same arguments always give the same plan.

    A small field's plan is then annealed on repeats alone (a first plan) and goes to the
    exact solver (`exact`, played positions kept) for at most `exact_budget` deterministic
    seconds (about as many CPU seconds; 0: no solver). A re-plan close to `previous` changes
    there only for fewer repeats.

    The annealing takes at most `search_steps` steps in all (a deterministic budget: the same
    plan on any machine); the search's own, fewer for small plans, by default.
    """
    roster = check_players(players)
    policy = check_policy(policy)
    fixed_positions = check_fixed(fixed, positions)
    sizes = table_sizes(len(roster), policy)
    check_teams_fit(roster, sizes)
    new_count = positions - len(fixed_positions)
    if new_count == 0:
        return Plan(fixed_positions)

    state = State.build(roster, fixed_positions)
    rng = random.Random(seed)
    done = len(fixed_positions)
    outcome = best_groupings(state, roster, sizes, done, new_count, previous, rng, search_steps)
    strict = previous is not None  # keep close to the plan replaced unless repeats drop
    if not done:
        outcome = refine_on_repeats(state, roster, sizes, outcome, rng, strict, search_steps)
    outcome = refine_exactly(
        state, roster, sizes, outcome, exact_budget, seed, fixed_positions, strict
    )
    seated = assign_directions(state.ids, fixed_positions, outcome.grouping, rng)
    notes = plan_notes(state, outcome, sizes)
    return Plan(fixed_positions + seated, notes, repeats_floor=outcome.repeats_floor)
