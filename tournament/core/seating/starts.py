"""Starting groupings: the previous plan, a zero-repeat design relabelled, or greedy seats."""

from __future__ import annotations

import random

from tournament.core.seating.designs import (
    affine_plane_16,
    catalogue_design,
    difference_design,
    max_difference_rounds,
)
from tournament.core.seating.plan import Plan, SeatingPlayer
from tournament.core.seating.state import Grouping, State


def hint_from_previous(
    state: State, previous: Plan, done: int, new_count: int
) -> list[list[list[int]]]:
    index = {pid: i for i, pid in enumerate(state.ids[: state.present])}
    hint = []
    for position in previous.positions[done : done + new_count]:
        hint.append([[index[p] for p in table if p in index] for table in position])
    return hint


def design_hint(
    state: State, roster: list[SeatingPlayer], new_count: int, rng: random.Random
) -> list[list[list[int]]] | None:
    """Rounds of a zero-repeat design on the largest multiple of 4 players, relabelled."""
    n = state.present
    v = 4 * (n // 4)
    if v < 16:
        return None
    teams = any(p.team is not None for p in roster)
    catalogue = None if teams else (affine_plane_16() if v == 16 else catalogue_design(v))
    if catalogue is not None and len(catalogue) >= new_count:
        design, grouped = catalogue, False
    else:
        m = v // 4
        rounds = max_difference_rounds(m, min(new_count, m))
        if catalogue is not None and len(catalogue) >= rounds:
            design, grouped = catalogue, False
        elif rounds >= 2 and (difference := difference_design(m, rounds)) is not None:
            design, grouped = difference, True
        else:
            return None  # no design for this many rounds: the search starts from scratch
    hint: list[list[list[int]]] = []
    while len(hint) < new_count:
        # Each block of rounds gets fresh labels: pairs then meet at most once per block.
        labels = _labels(roster, v, grouped, rng)
        if labels is None:
            return None
        for rnd in design[: new_count - len(hint)]:
            hint.append([[labels[p] for p in t if labels[p] >= 0] for t in rnd])
    return hint


def _labels(
    roster: list[SeatingPlayer], v: int, grouped: bool, rng: random.Random
) -> list[int] | None:
    """Map design points to player indices (-1: unused point).

    In transversal designs the 4 groups of v/4 points never meet, so each team goes whole into
    one group; players left over (beyond v, or teams that do not fit) join later, greedily.
    """
    m = v // 4
    labels = [-1] * v
    if not grouped:
        chosen = rng.sample(range(len(roster)), v)
        for point, player in enumerate(chosen):
            labels[point] = player
        return labels
    units: dict[object, list[int]] = {}
    for i, p in enumerate(roster):
        units.setdefault(("t", p.team) if p.team is not None else ("p", i), []).append(i)
    items = list(units.values())
    rng.shuffle(items)
    items.sort(key=len, reverse=True)
    bins: list[list[int]] = [[] for _ in range(4)]
    for item in items:
        room = [g for g in range(4) if len(bins[g]) + len(item) <= m]
        if room:
            g = max(room, key=lambda g: (m - len(bins[g]), -g))
            bins[g].extend(item)
    for g, members in enumerate(bins):
        rng.shuffle(members)
        for x, player in enumerate(members):
            labels[g * m + x] = player
    return labels


def build_grouping(
    state: State,
    sizes: list[int],
    new_count: int,
    hint: list[list[list[int]]] | None,
    rng: random.Random,
) -> Grouping:
    """Shape each new position to the table sizes, from the hint where there is one."""
    grouping: Grouping = []
    for r in range(new_count):
        groups = hint[r] if hint is not None and r < len(hint) else []
        tables = _shape_position(state, sizes, groups, rng)
        state.add_position(tables, 1)
        grouping.append(tables)
    return grouping


def _shape_position(
    state: State, sizes: list[int], groups: list[list[int]], rng: random.Random
) -> list[list[int]]:
    """Fit hint groups to the table sizes; players without a place are added greedily."""
    present = state.present
    groups = [[p for p in g if p < present] for g in groups]
    groups = sorted((g for g in groups if g), key=len, reverse=True)
    targets = sorted(sizes, reverse=True)
    tables: list[list[int]] = []
    seated: set[int] = set()
    for k, size in enumerate(targets):
        group = groups[k] if k < len(groups) else []
        table = [p for p in group if p not in seated][:size]
        seated.update(table)
        tables.append(table)
    pool = [p for p in range(present) if p not in seated]
    rng.shuffle(pool)
    for x in pool:
        open_tables = [t for t, size in zip(tables, targets, strict=True) if len(t) < size]
        costs = [(state.join_cost(x, t), rng.random(), i) for i, t in enumerate(open_tables)]
        open_tables[min(costs)[2]].append(x)
    return tables
