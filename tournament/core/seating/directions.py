"""Directions at each table: every player's N, E, S, W counts as even as possible.

Pure Python, used by `tournament.core.seating.generator`. Players are indices into `ids`; a table's
order is its seat order N, E, S, W[, X]. North deals first, so even directions also rotate first
dealers.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence

_PERMUTATIONS = {k: list(itertools.permutations(range(k))) for k in (3, 4, 5)}


def assign_directions(
    ids: list[int],
    fixed: Sequence[Sequence[Sequence[int]]],
    grouping: list[list[list[int]]],
    rng: random.Random,
) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """Order each table so that every player's count of each direction is as even as possible.

    `fixed` are the positions played (player ids, counted but not changed), `grouping` the new
    positions (tables of player indices into `ids`); returns the new positions with ids in
    seat order.

    Greedy position by position (so the tournament is also balanced part-way, which keeps
    re-plans easy), then passes that re-seat one table at a time while it helps.
    """
    index = {pid: i for i, pid in enumerate(ids)}
    counts = [[0] * 5 for _ in ids]
    for position in fixed:
        for table in position:
            for seat, p in enumerate(table):
                counts[index[p]][seat] += 1
    seated: list[list[list[int]]] = []
    for tables in grouping:
        rng.shuffle(tables)
        tables.sort(key=len)  # tables of 3 or 5 get the last numbers
        order = [_best_order(table, counts, rng) for table in tables]
        for table in order:
            for seat, p in enumerate(table):
                counts[p][seat] += 1
        seated.append(order)
        # Balance every prefix too: a player who withdraws later keeps fair counts.
        _even_out(counts, seated)
    for _ in range(2):
        changed = False
        for order in seated:
            for k, table in enumerate(order):
                for seat, p in enumerate(table):
                    counts[p][seat] -= 1
                better = _best_order(table, counts, rng)
                changed |= better != table
                order[k] = better
                for seat, p in enumerate(better):
                    counts[p][seat] += 1
        if not changed:
            break
    _even_out(counts, seated)
    _shake_directions(counts, seated, rng)
    return tuple(tuple(tuple(ids[p] for p in table) for table in order) for order in seated)


def _best_order(table: list[int], counts: list[list[int]], rng: random.Random) -> list[int]:
    """The seating of these players that gives each the directions they had least."""
    weights = [counts[p] for p in table]
    keyed = [
        (sum(weights[i][seat] for seat, i in enumerate(perm)), rng.random(), perm)
        for perm in _PERMUTATIONS[len(table)]
    ]
    return [table[i] for i in min(keyed)[2]]


def _direction_score(counts: list[list[int]]) -> tuple[int, int, int]:
    """(widest N/E/S/W spread, players 2 or more apart, sum of squared counts): lower is fairer.

    The widest spread comes first: where tables of 3 leave too few West seats for everybody,
    some players must be 2 apart, and nobody should be 3 apart for it.
    """
    spreads = [max(per[:4]) - min(per[:4]) for per in counts]
    uneven = sum(1 for s in spreads if s > 1)
    return max(spreads, default=0), uneven, sum(c * c for per in counts for c in per)


def _shake_directions(
    counts: list[list[int]], seated: list[list[list[int]]], rng: random.Random, tries: int = 150
) -> None:
    """Leave a local optimum: reseat one table of an unbalanced player at random, even out again,
    keep the result when it is fairer. Needed mostly after re-plans, whose fixed positions may
    leave a player's counts lopsided."""
    best = _direction_score(counts)
    places = [(r, k) for r, order in enumerate(seated) for k in range(len(order))]
    movable = {p for order in seated for table in order for p in table}
    for _ in range(tries):
        unfair = [p for p in movable if max(counts[p][:4]) - min(counts[p][:4]) > 1]
        if not unfair or not places:
            return
        saved = ([[list(t) for t in order] for order in seated], [list(c) for c in counts])
        target = rng.choice(unfair)
        spots = [(r, k) for r, k in places if target in seated[r][k]]
        for r, k in rng.sample(spots, min(2, len(spots))):
            table = seated[r][k]
            for seat, p in enumerate(table):
                counts[p][seat] -= 1
            rng.shuffle(table)
            for seat, p in enumerate(table):
                counts[p][seat] += 1
        _even_out(counts, seated)
        score = _direction_score(counts)
        if score[:2] <= best[:2]:  # sideways moves too: plateaus are wide
            best = score
        else:
            seated[:] = saved[0]
            counts[:] = saved[1]


def _even_out(counts: list[list[int]], seated: list[list[list[int]]]) -> None:
    """Swap two directions along alternating chains until no player is 2 apart in any pair.

    Seen as an edge colouring of the bipartite graph players / tables, a balanced colouring
    always exists (de Werra). For a player with direction a at least 2 more often than b, follow
    tables where the current player sits at a to the player sitting at b, until one who has b
    more than a: swapping a and b at each table on the way moves one a from the first player to
    the last, and every table keeps one seat of each.
    """
    tables = [table for order in seated for table in order]
    widest = max((len(t) for t in tables), default=4)
    # X (the fifth seat) is only handed away: most players never sit at a table of 5.
    pairs = [(a, b) for a, b in itertools.permutations(range(widest), 2) if b != 4]
    improved = True
    while improved:
        improved = False
        for p, per in enumerate(counts):
            for a, b in pairs:
                if per[a] - per[b] >= 2 and _flip_chain(p, a, b, counts, tables):
                    improved = True


def _flip_chain(
    start: int, a: int, b: int, counts: list[list[int]], tables: list[list[int]]
) -> bool:
    """Move one a from `start` to b along a chain ending at a player it costs less.

    The chain may end at a player whose a and b are equal when `start` is 3 or more apart:
    where West seats are scarce (tables of 3), that spreads the shortage instead of leaving it
    on one player. Every flip lowers the sum of squared counts, so the passes end.
    """
    ends_at = counts[start][a] - counts[start][b] - 3
    came_from: dict[int, tuple[int, int] | None] = {start: None}
    frontier = {start}
    while frontier:
        # One sweep over the tables per step of the chain: chains are short.
        found = None
        nxt = set()
        for k, table in enumerate(tables):
            if len(table) > b and len(table) > a and table[a] in frontier:
                other = table[b]
                if other in came_from:
                    continue
                came_from[other] = (table[a], k)
                if counts[other][a] - counts[other][b] <= ends_at:
                    found = other
                    break
                nxt.add(other)
        if found is not None:
            _apply_chain(found, a, b, came_from, counts, tables)
            return True
        frontier = nxt
    return False


def _apply_chain(
    end: int,
    a: int,
    b: int,
    came_from: dict[int, tuple[int, int] | None],
    counts: list[list[int]],
    tables: list[list[int]],
) -> None:
    step = came_from[end]
    while step is not None:
        player, k = step
        table = tables[k]
        table[a], table[b] = table[b], table[a]
        counts[player][a] -= 1
        counts[player][b] += 1
        counts[table[a]][a] += 1
        counts[table[a]][b] -= 1
        step = came_from[player]
