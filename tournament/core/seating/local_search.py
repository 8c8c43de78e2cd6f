"""Improving a grouping by swaps: the tabu search and the simulated annealing.

Both lower the meeting cost by swapping players between tables of one position, priced by
`state.swap_delta`, and never widen the odd-table spread.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

import numpy as np

from tournament.core.seating.state import (
    Grouping,
    State,
    conflicts_of,
    exchange_delta,
    in_conflict,
    keeps_fair,
    move,
    restore,
    swap_delta,
    table_index,
)

# Annealing temperatures, in the units of the prices (a second meeting costs 16), and cycles.
_HOT, _COLD = 8.0, 2.0
_CYCLE = 50_000  # steps from _HOT to _COLD; a run stops after _PATIENCE cycles without progress
_PATIENCE = 2
_REDEAL = 0.2  # share of annealing steps that redeal two tables instead of swapping two players


def tabu_search(state: State, grouping: Grouping, rng: random.Random, floor: int = 0) -> int:
    """Swap players between tables of one position until no pair meets too often.

    Classic tabu search for the social golfer problem: pick a player in conflict, make the best
    swap that is not tabu, forbid moving those two back for a few iterations. Deltas are
    computed from the meeting counts, so one step costs O(players). Stops at `floor`, a lower
    bound of the cost, when it is reached. Swaps that would widen the odd-table spread are
    left out.
    """
    cost = state.cost()
    if cost <= floor or len(grouping[0]) < 2:  # a single table: nothing to swap
        return cost
    best_cost = cost
    best = [[list(t) for t in pos] for pos in grouping]
    n = state.present
    tabu = [[0] * n for _ in grouping]
    where = [table_index(pos, n) for pos in grouping]
    max_iters = 400 + 30 * n
    stale = kicks = 0
    conflicts = conflicts_of(state, grouping)
    for it in range(1, max_iters + 1):
        if it % 16 == 0:
            conflicts = conflicts_of(state, grouping)
        if not conflicts:
            break
        movers = _movers(state, grouping, where, conflicts, rng)
        if not movers:
            conflicts = conflicts_of(state, grouping)  # stale entries: refresh the list
            continue
        choice = _best_swap(state, grouping, where, movers, tabu, it, cost - best_cost, rng)
        if choice is None:
            continue
        (best_delta, _draw), (r, x, a, y, b) = choice
        move(state, grouping[r], where[r], x, a, y, b)
        cost += best_delta
        tabu[r][x] = it + rng.randint(4, 12)
        tabu[r][y] = it + rng.randint(4, 12)
        if cost < best_cost:
            best_cost, stale, kicks = cost, 0, 0
            best = [[list(t) for t in pos] for pos in grouping]
            if cost <= floor:
                break
        else:
            stale += 1
            if stale > 60 + n:
                kicks += 1
                if kicks > 3:  # forced repeats: the annealing does better from here
                    break
                _perturb(state, grouping, where, conflicts, rng)
                cost, stale = state.cost(), 0
                conflicts = conflicts_of(state, grouping)
    restore(state, grouping, best)
    return best_cost


def _movers(
    state: State,
    grouping: Grouping,
    where: list[list[int]],
    conflicts: list[tuple[int, int]],
    rng: random.Random,
) -> list[tuple[int, int]]:
    """A few players still in conflict (possibly in different positions), drawn from the list
    of conflicts (which may be stale): those who compete for the tabu search's next swap."""
    movers = []
    for r, x in rng.sample(conflicts, min(3, len(conflicts))):
        if in_conflict(state, grouping[r][where[r][x]], x):
            movers.append((r, x))
    return movers


def _best_swap(
    state: State,
    grouping: Grouping,
    where: list[list[int]],
    movers: list[tuple[int, int]],
    tabu: list[list[int]],
    it: int,
    behind: int,
    rng: random.Random,
) -> tuple[tuple[int, float], tuple[int, int, int, int, int]] | None:
    """The tabu search's best swap of a mover with a player of another table of its position:
    ((delta, tie-breaking draw), (r, x, a, y, b)), None when every swap is tabu or unfair.

    A tabu swap is allowed when it beats the best cost so far (`behind`: the current cost
    minus that best). Swaps that would widen the odd-table spread are left out."""
    meets, odd = state.meets, state.odd
    choice: tuple[tuple[int, float], tuple[int, int, int, int, int]] | None = None
    for r, x in movers:
        tables, tab_of = grouping[r], where[r]
        a = tab_of[x]
        ta = tables[a]
        x_tabu = tabu[r][x] > it
        for b, tb in enumerate(tables):
            if b == a:
                continue
            same_kind = (len(ta) == 4) == (len(tb) == 4)
            for y in tb:
                if not same_kind and not keeps_fair(odd, ta, tb, x, y):
                    continue
                delta = swap_delta(meets, ta, tb, x, y, state.inc)
                if (x_tabu or tabu[r][y] > it) and behind + delta >= 0:
                    continue
                key = (delta, rng.random())
                if choice is None or key < choice[0]:
                    choice = key, (r, x, a, y, b)
    return choice


def anneal(
    state: State, grouping: Grouping, rng: random.Random, cost: int, floor: int, steps: int
) -> int:
    """Simulated annealing on swaps of a player in conflict with anyone of another table.

    Cheaper per step than the tabu search (one delta, not a whole neighbourhood), so it can take
    the many sideways steps that dense fields need to lose their last repeated meetings. Some
    steps redeal the conflicted player's table and another of the same kind instead. A swap
    that would hand an odd-table seat to a player who has as many as the one leaving it is made
    fair by the reverse hand-over in another position (both swaps are judged together), so the
    odd-table counts never move away from the fairest.
    """
    n = state.present
    rounds = len(grouping)
    where = [table_index(pos, n) for pos in grouping]
    fours = [[len(t) == 4 for t in pos] for pos in grouping]  # sizes never change
    best_cost = cost
    best = [[list(t) for t in pos] for pos in grouping]
    # Recounting conflicts costs a pass over every seat: at most a few operations per step.
    refresh = max(128 + n * rounds // 16, n * rounds // 4)
    # Cycles of cooling from _HOT to _COLD, each from the best grouping so far; the search stops
    # when a whole cycle found nothing better.
    cycle = max(1, min(steps, _CYCLE))  # no step at all: the start is returned
    cooling = (_COLD / _HOT) ** (1 / cycle)
    temperature = _HOT
    improved_at = 0
    conflicts: list[tuple[int, int]] = []
    rand = rng.random
    for step in range(steps):
        if step % cycle == 0 and step:
            if step - improved_at >= cycle * _PATIENCE:
                break
            temperature = _HOT
            restore(state, grouping, [[list(t) for t in pos] for pos in best])
            where = [table_index(pos, n) for pos in grouping]
            cost = best_cost
            conflicts = conflicts_of(state, grouping)
        if step % refresh == 0:
            conflicts = conflicts_of(state, grouping)
            if not conflicts:
                break
        temperature *= cooling
        delta = _anneal_step(state, grouping, where, fours, conflicts, temperature, rand)
        if delta is None:
            continue
        cost += delta
        if cost < best_cost:
            best_cost, improved_at = cost, step
            best = [[list(t) for t in pos] for pos in grouping]
            if cost <= floor:
                break
    restore(state, grouping, best)
    return best_cost


def _anneal_step(
    state: State,
    grouping: Grouping,
    where: list[list[int]],
    fours: list[list[bool]],
    conflicts: list[tuple[int, int]],
    temperature: float,
    rand: Callable[[], float],
) -> int | None:
    """One step of the annealing from a player in conflict and another table of its position:
    a redeal of both tables, a fair pair of swaps (`_exchange`), or one swap, each on the
    annealing's terms. Returns the cost change, or None when nothing changed."""
    r, x = conflicts[int(rand() * len(conflicts))]
    tables, tab_of, four = grouping[r], where[r], fours[r]
    a = tab_of[x]
    b = int(rand() * (len(tables) - 1))
    b += b >= a
    if four[a] == four[b] and rand() < _REDEAL:
        return _repartition(state, tables, tab_of, a, b, temperature, rand)
    tb = tables[b]
    y = tb[int(rand() * len(tb))]
    odd = state.odd
    if four[a] != four[b] and (odd[y] >= odd[x] if four[b] else odd[x] >= odd[y]):
        return _exchange(state, grouping, where, fours, r, x, y, temperature, rand)
    delta = swap_delta(state.meets, tables[a], tb, x, y, state.inc)
    if delta > 0 and rand() >= math.exp(-delta / temperature):
        return None
    move(state, tables, tab_of, x, a, y, b)
    return delta


@dataclass(frozen=True)
class _Splits:
    """Every way to deal size_a + size_b players (0..m-1) into two tables, priced at once.

    `pairs` lists the pairs (i, j), i < j, with whether they share a table now; row s of
    `inside` has a 1 for each pair that split s seats at one table, so that `inside @ prices`
    gives every split's price in one product. The split that keeps both tables as they are
    comes first; equal sizes count each split once (player 0 stays at the first table).
    """

    pairs: tuple[tuple[int, int, int], ...]  # (i, j, 1 if i and j share a table now else 0)
    chosen: tuple[tuple[int, ...], ...]  # the players of the first table, split by split
    inside: np.ndarray


@cache
def _splits(size_a: int, size_b: int) -> _Splits:
    m = size_a + size_b
    pairs = tuple(
        (i, j, int((i < size_a) == (j < size_a))) for i, j in itertools.combinations(range(m), 2)
    )
    chosen, rows = [], []
    for part in itertools.combinations(range(m), size_a):
        if size_a == size_b and 0 not in part:
            continue
        chosen.append(part)
        rows.append([(i in part) == (j in part) for i, j, _ in pairs])
    return _Splits(pairs, tuple(chosen), np.array(rows, dtype=np.int64))


def _repartition(
    state: State,
    tables: list[list[int]],
    tab_of: list[int],
    a: int,
    b: int,
    temperature: float,
    rand: Callable[[], float],
) -> int | None:
    """Deal the players of two tables of one kind between them again, any split.

    Reaches in one step the double swaps a single swap would only reach through a worse plan.
    A split that costs no more is taken at random among those; otherwise a random split, on the
    annealing's terms. Returns the cost change, or None when nothing changed.
    """
    ta, tb = tables[a], tables[b]
    people = ta + tb
    k, m = len(ta), len(people)
    meets, inc = state.meets, state.inc
    splits = _splits(k, m - k)
    rows = [meets[p] for p in people]
    # What each pair would cost at one table if this position did not seat them yet.
    prices = np.array([inc[rows[i][people[j]] - now] for i, j, now in splits.pairs], np.int64)
    totals = splits.inside @ prices
    deltas = totals[1:] - totals[0]
    good = np.flatnonzero(deltas <= 0)
    if len(good):
        pick = int(good[int(rand() * len(good))])
        delta = int(deltas[pick])
    else:
        pick = int(rand() * len(deltas))
        delta = int(deltas[pick])
        if rand() >= math.exp(-delta / temperature):
            return None
    chosen = splits.chosen[1 + pick]
    state.add_position([ta, tb], -1)
    ta[:] = [people[i] for i in chosen]
    tb[:] = [people[i] for i in range(m) if i not in chosen]
    for p in ta:
        tab_of[p] = a
    for p in tb:
        tab_of[p] = b
    state.add_position([ta, tb], 1)
    return delta


def _exchange(
    state: State,
    grouping: Grouping,
    where: list[list[int]],
    fours: list[list[bool]],
    r: int,
    x: int,
    y: int,
    temperature: float,
    rand: Callable[[], float],
) -> int | None:
    """Swap x and y in position r and back in another position where their tables' kinds are
    the other way round, so that both keep their odd-table counts. Made when the annealing
    accepts the pair of swaps; returns its cost change, or None when nothing was done."""
    a, b = where[r][x], where[r][y]
    leaving, joining = (y, x) if fours[r][a] else (x, y)
    others = [
        s
        for s, (tab_of, four) in enumerate(zip(where, fours, strict=True))
        if s != r and not four[tab_of[joining]] and four[tab_of[leaving]]
    ]
    if not others:
        return None
    s = others[int(rand() * len(others))]
    tables_r, tables_s = grouping[r], grouping[s]
    c, d = where[s][x], where[s][y]
    first, second = (tables_r[a], tables_r[b]), (tables_s[c], tables_s[d])
    delta = exchange_delta(state.meets, first, second, x, y, state.inc)
    if delta > 0 and rand() >= math.exp(-delta / temperature):
        return None
    move(state, tables_r, where[r], x, a, y, b)
    move(state, tables_s, where[s], x, c, y, d)
    return delta


def _perturb(
    state: State,
    grouping: Grouping,
    where: list[list[int]],
    conflicts: list[tuple[int, int]],
    rng: random.Random,
) -> None:
    """A few random swaps of players in conflict, to leave a plateau the tabu list keeps."""
    for _ in range(rng.randint(2, 5)):
        r, x = rng.choice(conflicts) if conflicts else (rng.randrange(len(grouping)), None)
        tables, tab_of = grouping[r], where[r]
        if len(tables) < 2:
            return
        if x is None:
            x = rng.choice(rng.choice(tables))
        a = tab_of[x]
        b = rng.choice([t for t in range(len(tables)) if t != a])
        y = rng.choice(tables[b])
        if keeps_fair(state.odd, tables[a], tables[b], x, y):
            move(state, tables, tab_of, x, a, y, b)
