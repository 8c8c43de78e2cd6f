"""The optimisation: who sits with whom in the new positions, fair first, then few repeats.

Each start (previous plan, design, greedy; `starts`) is made fair (odd-table seats handed from
players with more to players with fewer), then improved by the tabu search and, when repeats
remain, annealed (`local_search`). `Outcome` also says what could not be reached (for `notes`).
Small fields go on in `small`.
"""

from __future__ import annotations

import itertools
import random
from dataclasses import dataclass

from tournament.core.seating.bounds import co_meeting_bound
from tournament.core.seating.local_search import anneal, tabu_search
from tournament.core.seating.metrics import water_fill
from tournament.core.seating.plan import Plan, SeatingPlayer
from tournament.core.seating.starts import build_grouping, design_hint, hint_from_previous
from tournament.core.seating.state import (
    CUM,
    REPEAT,
    Grouping,
    State,
    conflicts_of,
    exchange_delta,
    move,
    swap_delta,
    table_index,
)

# Annealing steps, all runs together, at most (about 2 s of CPU): `generate`'s default budget.
MAX_ANNEAL_STEPS = 600_000
RUNS = 3  # independent annealing runs


def fair_odd_counts(state: State, sizes: list[int], new_count: int) -> list[int]:
    """The fairest final counts of odd-table seats of the present players, by water-filling.

    Each new position hands its seats at tables of 3 or 5 to distinct players; giving each seat
    to a player with the fewest so far (among those not yet served in every new position)
    minimises both the spread and the sum of squares of the counts.
    """
    seats = new_count * sum(s for s in sizes if s != 4)
    return water_fill(state.odd[: state.present], [new_count] * state.present, seats)


def _fairness_gap(state: State, fair: list[int]) -> int:
    """How far the current odd counts are from the fairest (0 when as even as can be)."""
    return sum(k * k for k in state.odd[: state.present]) - sum(k * k for k in fair)


def share_odd_seats(state: State, grouping: Grouping, rng: random.Random) -> None:
    """Hand seats at tables of 3 or 5 from players who have 2 more than others to them.

    Each hand-over is a swap within one new position, the one that adds the least meeting
    cost; it lowers the sum of squared counts, so the loop ends, at the water-filling optimum
    unless played positions pin a player (then no position lets them hand a seat over).
    """
    if all(len(t) == 4 for pos in grouping for t in pos):
        return
    n, odd, meets = state.present, state.odd, state.meets
    where = [table_index(pos, n) for pos in grouping]
    while True:
        levels = sorted({odd[p] for p in range(n)}, reverse=True)
        best = None
        for level in levels:
            takers = [p for p in range(n) if odd[p] <= level - 2]
            if not takers:
                break
            if len(takers) > 48:
                takers = rng.sample(takers, 48)
            for x in (p for p in range(n) if odd[p] == level):
                for r, tables in enumerate(grouping):
                    a = where[r][x]
                    ta = tables[a]
                    if len(ta) == 4:
                        continue
                    for y in takers:
                        b = where[r][y]
                        if len(tables[b]) != 4:
                            continue
                        key = (
                            swap_delta(meets, ta, tables[b], x, y, state.inc),
                            odd[y],
                            rng.random(),
                        )
                        if best is None or key < best[0]:
                            best = (key, r, x, a, y, b)
            if best is not None:
                break
        if best is None:
            return
        _, r, x, a, y, b = best
        move(state, grouping[r], where[r], x, a, y, b)


@dataclass
class Outcome:
    """What the search found, and what it knows about what it could not reach."""

    grouping: Grouping
    fair_spread: int  # the best odd-table spread the arithmetic allows
    repeats_floor: int  # no plan with that spread has fewer repeated meetings
    uneven: tuple[int, int] | None  # (repeats, odd spread) of a cheaper start that was unfair


def best_groupings(
    state: State,
    roster: list[SeatingPlayer],
    sizes: list[int],
    done: int,
    new_count: int,
    previous: Plan | None,
    rng: random.Random,
    max_steps: int = MAX_ANNEAL_STEPS,
) -> Outcome:
    """Try each starting point (previous plan, design, greedy), improve it, keep the cheapest.

    Every start is first made fair (odd-table seats shared as evenly as the arithmetic allows);
    the searches then only make moves that keep it so, and lower the meeting cost. The
    annealing runs take at most `max_steps` steps together.
    """
    fair = fair_odd_counts(state, sizes, new_count)
    repeats_floor = _repeats_floor(state, sizes, new_count, fair, done)
    floor = max(_cost_floor(state, sizes, new_count), REPEAT * repeats_floor)
    if done:
        floor = 0  # played positions carry costs the floor does not know
    hints: list[list[list[list[int]]] | None] = []
    if previous is not None:
        hints.append(hint_from_previous(state, previous, done, new_count))
    design = design_hint(state, roster, new_count, rng)
    if design is not None:
        hints.append(design)
    hints.append(None)  # plain greedy
    start = _best_start(state, sizes, new_count, hints, fair, floor, rng)
    grouping = start.grouping
    if not start.clean and len(sizes) > 1:
        # The best start still has repeats: anneal it, the tabu search alone stalls on plateaus.
        # A design relabelled is the better start of the other runs at tables of 4 only: with
        # tables of 3 or 5, sharing them fairly breaks it up anyway.
        redesign = design is not None and all(s == 4 for s in sizes)
        steps = anneal_steps(state.present, new_count, max_steps) // RUNS
        grouping = _anneal_runs(state, roster, sizes, new_count, start, floor, redesign, rng, steps)
    even_prefixes(state, grouping)
    spread = max(fair) - min(fair)
    uneven = start.uneven
    if uneven is not None and (uneven[0] >= state.repeats() or uneven[1] <= spread):
        uneven = None  # fairness cost nothing
    return Outcome(grouping, spread, repeats_floor, uneven)


@dataclass
class _Start:
    """The cheapest start after the tabu search, seated in `state`."""

    cost: int
    grouping: Grouping
    clean: bool  # at the floor, or no pair meets too often: nothing left to anneal
    uneven: tuple[int, int] | None  # (repeats, odd spread) of the cheapest start before sharing


def _best_start(
    state: State,
    sizes: list[int],
    new_count: int,
    hints: list[list[list[list[int]]] | None],
    fair: list[int],
    floor: int,
    rng: random.Random,
) -> _Start:
    """Build a grouping from each hint in turn, make it fair, improve it by the tabu search;
    stop at the first clean one. The cheapest is left seated in `state`."""
    best: tuple[int, Grouping] | None = None
    uneven: tuple[int, int] | None = None
    clean = False
    for hint in hints:
        grouping = build_grouping(state, sizes, new_count, hint, rng)
        if _fairness_gap(state, fair) > 0:
            before = (state.repeats(), state.odd_spread())
            if uneven is None or before < uneven:
                uneven = before
            share_odd_seats(state, grouping, rng)
        cost = tabu_search(state, grouping, rng, floor)
        if best is None or cost < best[0]:
            best = (cost, [[list(t) for t in pos] for pos in grouping])
        clean = cost <= floor or not conflicts_of(state, grouping)
        for pos in grouping:
            state.add_position(pos, -1)
        if clean:
            break
    assert best is not None
    cost, grouping = best
    for pos in grouping:
        state.add_position(pos, 1)
    return _Start(cost, grouping, clean, uneven)


def _anneal_runs(
    state: State,
    roster: list[SeatingPlayer],
    sizes: list[int],
    new_count: int,
    start: _Start,
    floor: int,
    redesign: bool,
    rng: random.Random,
    steps: int,
) -> Grouping:
    """Anneal the start, then fresh starts (a design relabelled when `redesign`, else greedy)
    while the floor is not reached, RUNS in all of `steps` steps each; the cheapest grouping
    stays seated in `state`. Independent runs make the result depend far less on the seed than
    one long run."""
    grouping = start.grouping
    cost = anneal(state, grouping, rng, start.cost, floor, steps)
    for _ in range(RUNS - 1):
        if cost <= floor:
            break
        for pos in grouping:
            state.add_position(pos, -1)
        fresh = design_hint(state, roster, new_count, rng) if redesign else None
        other = build_grouping(state, sizes, new_count, fresh, rng)
        share_odd_seats(state, other, rng)
        other_cost = anneal(state, other, rng, state.cost(), floor, steps)
        if other_cost < cost:
            cost, grouping = other_cost, other
        else:
            for pos in other:
                state.add_position(pos, -1)
            for pos in grouping:
                state.add_position(pos, 1)
    return grouping


def even_prefixes(state: State, grouping: Grouping) -> None:
    """Space each player's odd-table seats over time, by exchanges that add no meeting cost.

    The whole plan is already fair; this makes every prefix as fair as it can be for free (the
    sum over prefixes of squared counts goes down), so that a withdrawal or a late arrival
    half-way leaves counts a re-plan can still even out. An exchange moves x's odd seat from
    position r to a later position s and y's the other way.
    """
    if all(len(t) == 4 for pos in grouping for t in pos):
        return
    n, meets = state.present, state.meets
    where = [table_index(pos, n) for pos in grouping]
    rounds = len(grouping)
    base = [
        state.odd[p] - sum(len(pos[where[r][p]]) != 4 for r, pos in enumerate(grouping))
        for p in range(n)
    ]
    improved = True
    while improved:
        improved = False
        odd_at = [[len(pos[where[r][p]]) != 4 for r, pos in enumerate(grouping)] for p in range(n)]
        prefix = [
            list(itertools.accumulate(row, initial=b))[1:]
            for row, b in zip(odd_at, base, strict=True)
        ]
        seated = [[p for t in pos if len(t) != 4 for p in t] for pos in grouping]
        for r, s in itertools.combinations(range(rounds), 2):
            for x in seated[r]:
                if odd_at[x][s]:
                    continue
                for y in seated[s]:
                    if odd_at[y][r]:
                        continue
                    gain = sum(prefix[x][t] - prefix[y][t] - 1 for t in range(r, s))
                    if gain <= 0:
                        continue
                    tables_r, tables_s = grouping[r], grouping[s]
                    a, b = where[r][x], where[r][y]
                    c, d = where[s][x], where[s][y]
                    first, second = (tables_r[a], tables_r[b]), (tables_s[c], tables_s[d])
                    if exchange_delta(meets, first, second, x, y, state.inc) > 0:
                        continue
                    move(state, tables_r, where[r], x, a, y, b)
                    move(state, tables_s, where[s], x, c, y, d)
                    improved = True
                    break
                if improved:
                    break
            if improved:
                break


def anneal_steps(players: int, new_count: int, max_steps: int = MAX_ANNEAL_STEPS) -> int:
    """The annealing budget, in proportion to the seats to plan, at most `max_steps`."""
    return min(max_steps, 3_000 * players * new_count)


def _cost_floor(state: State, sizes: list[int], new_count: int) -> int:
    """Least possible cost: the pair meetings spread as evenly as allowed over the pairs."""
    n = state.present
    slots = new_count * sum(s * (s - 1) // 2 for s in sizes)
    allowed = n * (n - 1) // 2 - sum(state.mates[:n]) // 2
    if slots <= allowed or allowed <= 0:
        return 0
    times, extra = divmod(slots, allowed)
    return (allowed - extra) * CUM[times] + extra * CUM[times + 1]


def _repeats_floor(
    state: State, sizes: list[int], new_count: int, fair: list[int], done: int
) -> int:
    """A lower bound on E for plans that share the odd tables as fairly as `fair`.

    Two counts, the larger wins: pair meetings beyond the pairs not yet met, and, player by
    player, meetings beyond the opponents they have not met yet (each repeat counted by both
    players). In a first plan a table of 5 adds a meeting to whoever sits there and a table of 3
    takes one away; the bound gives those seats to the players whom it hurts least.
    """
    n, meets = state.present, state.meets
    fixed = state.repeats() if done else 0
    unmet = [meets[i][:n].count(0) - 1 for i in range(n)]
    slots = new_count * sum(s * (s - 1) // 2 for s in sizes)
    overall = slots - sum(unmet) // 2
    odd_size = next((s for s in sizes if s != 4), 4)
    meetings = [3 * new_count] * n
    if odd_size == 3:
        # At most one seat at a table of 3 per position; in a first plan, the fair counts
        # exactly, the most of them going to the players with the fewest opponents left.
        counts = [new_count] * n if done else sorted(fair, reverse=True)
        order = sorted(range(n), key=lambda i: unmet[i])
        for i, k in zip(order, counts, strict=True):
            meetings[i] -= k
    elif odd_size == 5 and not done:
        # Each seat at a table of 5 is one more meeting: the most go to the freest players.
        order = sorted(range(n), key=lambda i: unmet[i], reverse=True)
        for i, k in zip(order, sorted(fair, reverse=True), strict=True):
            meetings[i] += k
    each = sum(max(0, meetings[i] - unmet[i]) for i in range(n))
    # Few tables: every two positions repeat pairs, whatever the plan (`bounds`).
    co_meetings = 0 if done else co_meeting_bound([sizes] * new_count, sum(unmet) // 2)
    return fixed + max(0, overall, -(-each // 2), co_meetings)
