"""Small fields' second pass: annealed on repeats alone, then the exact model (`exact`).

The search (`search`) prices meetings convexly and stops at its floor; a small field can do
better, and its fewest repeats can be proven. A first plan is annealed on E itself
(`refine_on_repeats`), then handed to the CP-SAT model (`refine_exactly`), which also takes a
re-plan (positions already played kept, their meetings counted) and whose proven lower bound
raises the plan's floor. A re-plan that keeps close to the plan it replaces (`strict`) changes
only for fewer repeats.
"""

from __future__ import annotations

import itertools
import random
from typing import TYPE_CHECKING

from tournament.core.seating.local_search import anneal
from tournament.core.seating.metrics import plan_figures
from tournament.core.seating.plan import Plan, Position, SeatingPlayer
from tournament.core.seating.search import (
    MAX_ANNEAL_STEPS,
    RUNS,
    Outcome,
    anneal_steps,
    even_prefixes,
    fair_odd_counts,
    share_odd_seats,
)
from tournament.core.seating.starts import build_grouping
from tournament.core.seating.state import INC, LINEAR_INC, MATE, REPEAT, Grouping, State

if TYPE_CHECKING:
    from tournament.core.seating.exact import Earlier

# Small fields: annealed on E itself up to SMALL_MAX_PLAYERS (`refine_on_repeats`), then handed
# to the exact solver (`refine_exactly`) up to EXACT_MAX_PLAYERS, for EXACT_BUDGET deterministic
# seconds (OR-Tools' unit, close to a CPU second) by default.
SMALL_MAX_PLAYERS = 20
EXACT_MAX_PLAYERS = 16
EXACT_BUDGET = 2.0
_SMALL_RUNS = 4  # annealing runs on repeats alone (`refine_on_repeats`)


ANNEAL_SECONDS = 10  # the annealing runs' full budget on a loaded 2-core machine


def expected_seconds(players: int, new_positions: int, exact_budget: float = EXACT_BUDGET) -> int:
    """The most a generation of `new_positions` for `players` should take, in whole seconds on
    a loaded 2-core machine (what the arbiter is told to wait): the exact solver's budget and
    its set-up for small fields, the annealing runs on repeats for those up to 20 players, the
    full annealing budget for larger fields beyond the repeat-free limit, and a search in
    proportion to the seats planned otherwise (1,000 x 10: under 2 s)."""
    if new_positions < 1:
        return 0
    if players <= EXACT_MAX_PLAYERS:
        return 3 + round(3 * exact_budget)
    if players <= SMALL_MAX_PLAYERS:
        return 5
    if 3 * new_positions > players - 1:
        # Beyond what repeat-free positions allow (3 new opponents a position): the annealing
        # runs to their full budget unless they reach the bound (40 x 14: about 5 s of CPU).
        return ANNEAL_SECONDS
    return 1 + players * new_positions // 10_000


def refine_on_repeats(
    state: State,
    roster: list[SeatingPlayer],
    sizes: list[int],
    outcome: Outcome,
    rng: random.Random,
    strict: bool = False,
    max_steps: int = MAX_ANNEAL_STEPS,
) -> Outcome:
    """A small field's first plan with more repeats than the floor: anneal on E itself.

    The search prices meetings convexly (a third meeting costs far more than two second ones),
    which misses the fewest repeats where they need a pair to meet a third time (8 players x 3
    positions: 8 repeats so, 12 without). Annealed again from the plan found and from fresh
    starts with E as the price (`LINEAR_INC`), the plan changes only for fewer repeats, or as
    many and less piled on the same pairs (`strict`: only for fewer).
    """
    n, floor, best = state.present, outcome.repeats_floor, outcome.grouping
    if state.repeats() <= floor or n > SMALL_MAX_PLAYERS or len(state.ids) != n or len(sizes) < 2:
        return outcome
    rounds = len(best)
    steps = anneal_steps(n, rounds, max_steps) // RUNS  # each run as long as one of the search's
    # Where the exact solver follows, one run from the plan found: the solver does the rest.
    runs = 1 if n <= EXACT_MAX_PLAYERS else _SMALL_RUNS
    for run in range(runs):
        # Fresh starts alternate between the two prices: where the fewest repeats keep every
        # pair to two meetings (20 players x 7 positions), the convex price finds them sooner.
        priced = State.build(roster, (), LINEAR_INC if run % 2 == 0 else INC)
        if run == 0:
            candidate = [[list(t) for t in pos] for pos in best]
            for pos in candidate:
                priced.add_position(pos, 1)
        else:
            candidate = build_grouping(priced, sizes, rounds, None, rng)
            share_odd_seats(priced, candidate, rng)
        anneal(priced, candidate, rng, priced.cost(), REPEAT * floor, steps)
        if _better(_repeats_key(candidate), _repeats_key(best), strict):
            best = candidate
        if _repeats_key(best)[0] <= floor:
            break
    return _replaced(state, outcome, best, floor)


def refine_exactly(
    state: State,
    roster: list[SeatingPlayer],
    sizes: list[int],
    outcome: Outcome,
    budget: float,
    seed: int,
    fixed: tuple[Position, ...] = (),
    strict: bool = False,
) -> Outcome:
    """A small field's plan with more repeats than the floor: the exact solver's turn.

    The solver (`exact`) starts from the plan found and may improve it; its proven lower bound
    raises the floor. Its plan replaces the search's only with fewer repeats, or as many and
    less piled on the same pairs (`strict`: only with fewer). In a re-plan the positions
    already played are kept: the solver counts their meetings and odd seats (`exact.Earlier`);
    pairs with a player no longer present keep their repeats, which no new position changes.
    """
    n, grouping = state.present, outcome.grouping
    floor = max(outcome.repeats_floor, _whole_plan_floor(state, roster, fixed, grouping))
    if (
        budget <= 0
        or state.repeats() <= floor
        or n > EXACT_MAX_PLAYERS
        or len(sizes) < 2
        or outcome.fair_spread > 1
    ):
        return outcome
    from tournament.core.seating.exact import exact_plan  # OR-Tools loads for small fields only

    earlier = _earlier(state, sizes, grouping) if fixed else None
    gone = _absent_repeats(state)
    teams = [p.team for p in roster]
    found = exact_plan(
        teams, sizes, len(grouping), grouping, budget, seed, lower=floor - gone, earlier=earlier
    )
    if found is None:
        return outcome
    best = grouping
    if _better((found.repeats + gone, found.piling), _present_key(state), strict):
        best = found.grouping
    return _replaced(state, outcome, best, max(floor, found.repeats_bound + gone))


def _whole_plan_floor(
    state: State, roster: list[SeatingPlayer], fixed: tuple[Position, ...], grouping: Grouping
) -> int:
    """In a re-plan, the bound of `plan_figures` over the whole tournament: it knows what few
    tables force between any two positions, played ones included (the search's floor counts
    the new positions' meetings only)."""
    if not fixed:
        return 0
    ids = state.ids
    new = tuple(tuple(tuple(ids[p] for p in table) for table in tables) for tables in grouping)
    return plan_figures(Plan(fixed + new), roster).repeats_floor


def _earlier(state: State, sizes: list[int], grouping: Grouping) -> Earlier:
    """The present players' meetings and odd seats before the new positions, and their fair
    range of odd seats over the whole tournament (as the search shares them)."""
    from tournament.core.seating.exact import Earlier  # noqa: F811 (OR-Tools loads on demand)

    n = state.present
    for pos in grouping:
        state.add_position(pos, -1)
    meetings = [[c if c < MATE else 0 for c in row[:n]] for row in state.meets[:n]]
    odd = state.odd[:n]
    fair = fair_odd_counts(state, sizes, len(grouping))
    for pos in grouping:
        state.add_position(pos, 1)
    return Earlier(meetings, odd, (min(fair), max(fair)))


def _absent_repeats(state: State) -> int:
    """Repeats of pairs with a player no longer present: played, they stay as they are."""
    n, meets = state.present, state.meets
    return sum(max(0, meets[a][b] - 1) for b in range(n, len(state.ids)) for a in range(b))


def _present_key(state: State) -> tuple[int, int]:
    """(E, piling) over the pairs of present players, earlier positions included."""
    n, meets = state.present, state.meets
    counts = [meets[a][b] for a, b in itertools.combinations(range(n), 2) if meets[a][b] < MATE]
    return (
        sum(max(0, c - 1) for c in counts),
        sum((c - 1) * (c - 2) // 2 for c in counts if c > 2),
    )


def _better(found: tuple[int, int], current: tuple[int, int], strict: bool) -> bool:
    return found[0] < current[0] if strict else found < current


def _replaced(state: State, outcome: Outcome, best: Grouping, floor: int) -> Outcome:
    """The outcome with `best` in place of its grouping (in `state` too) and `floor`."""
    if best is not outcome.grouping:
        for pos in outcome.grouping:
            state.add_position(pos, -1)
        for pos in best:
            state.add_position(pos, 1)
        _even_prefixes_keeping_repeats(state, best)
    uneven = outcome.uneven
    if uneven is not None and uneven[0] >= state.repeats():
        uneven = None
    return Outcome(best, outcome.fair_spread, floor, uneven)


def _repeats_key(grouping: Grouping) -> tuple[int, int]:
    """(E, piling) of a first plan's grouping: repeats, then C(m - 1, 2) over pairs met m times."""
    counts: dict[tuple[int, int], int] = {}
    for tables in grouping:
        for table in tables:
            for pair in itertools.combinations(sorted(table), 2):
                counts[pair] = counts.get(pair, 0) + 1
    return (
        sum(c - 1 for c in counts.values()),
        sum((c - 1) * (c - 2) // 2 for c in counts.values()),
    )


def _even_prefixes_keeping_repeats(state: State, grouping: Grouping) -> None:
    """`even_prefixes`, undone if it cost a repeat (its exchanges keep the convex cost, which
    may trade a third meeting for two second ones)."""
    before = [[list(t) for t in pos] for pos in grouping]
    repeats = state.repeats()
    even_prefixes(state, grouping)
    if state.repeats() > repeats:
        for pos in grouping:
            state.add_position(pos, -1)
        grouping[:] = before
        for pos in grouping:
            state.add_position(pos, 1)
