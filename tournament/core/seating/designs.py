"""Combinatorial designs that seat 4m players at tables of 4 with no repeated meeting."""

from __future__ import annotations

import json
import random
from functools import cache
from pathlib import Path

# A design: a list of rounds, each round a list of tables, each table a list of point numbers
# 0..v-1. Callers relabel the points with players; the design only fixes who meets whom.
Design = list[list[list[int]]]

# The stored designs below are data, kept in designs.json next to this module and read once here:
# "rotational" maps v to {"shifts": k, "levels", "fixed", "base": tables of [x, level] points},
# "doubled_affine_32" holds the rounds of the 32-player design.
_STORED = json.loads(Path(__file__).with_name("designs.json").read_text(encoding="utf-8"))

# 1-rotational resolvable packings, found offline by simulated annealing over the base round
# (points Z_k x levels plus fixed "infinite" points; the rounds are the k shifts of the base
# round). Each entry: v -> (k, levels, fixed points, base round), a point being (x, level) with
# level < 0 for the fixed points. They reach the known maxima of the social golfer problem at
# tables of 4, where plain local search stalls: 20 players x 5, 24 x 7, 28 x 9 (a resolvable
# (28,4,1)-BIBD), 36 x 11, plus 40 x 10 (cheaper than searching at run time). 32 x 10 is below.
RotationalBase = tuple[int, int, int, list[list[tuple[int, int]]]]

ROTATIONAL_BASES: dict[int, RotationalBase] = {
    int(v): (
        entry["shifts"],
        entry["levels"],
        entry["fixed"],
        [[(x, level) for x, level in table] for table in entry["base"]],
    )
    for v, entry in _STORED["rotational"].items()
}


def rotational_design(v: int) -> Design | None:
    """The catalogue design on v points, all its rounds, or None."""
    entry = ROTATIONAL_BASES.get(v)
    if entry is None:
        return None
    k, levels, _fixed, base = entry

    def point(x: int, level: int, shift: int) -> int:
        if level < 0:
            return levels * k + (-1 - level)
        return level * k + (x + shift) % k

    return [[[point(x, lv, t) for x, lv in table] for table in base] for t in range(k)]


# 32 players over 10 positions (the classic "8-4-10" social golfer instance). Built offline by
# doubling: two resolutions of AG(2,4), the second relabelled by
# [10, 4, 12, 5, 3, 13, 14, 6, 0, 15, 11, 8, 9, 1, 7, 2] so that no three points are collinear in
# both; each point x becomes 2x and 2x+1, and each line splits into two halves {2x + f(x)} and
# {2x + 1 - f(x)} with parities f solving a GF(2) linear system that makes every pair of doubled
# points meet exactly once. 2x and 2x+1 never meet.
DOUBLED_AFFINE_32: Design = _STORED["doubled_affine_32"]


def catalogue_design(v: int) -> Design | None:
    """The best known stored design on v points (all its rounds), or None."""
    if v == 32:
        return [[list(table) for table in rnd] for rnd in DOUBLED_AFFINE_32]
    return rotational_design(v)


def affine_plane_16() -> Design:
    """AG(2,4): the 5 parallel classes of lines of GF(4)^2, 16 players over 5 positions."""
    # GF(4) = {0, 1, a, a+1} coded 0..3; addition is XOR, multiplication by the table below.
    mul = [[0, 0, 0, 0], [0, 1, 2, 3], [0, 2, 3, 1], [0, 3, 1, 2]]
    rounds: Design = []
    for slope in range(4):  # lines y = slope * x + c
        rounds.append([[4 * x + (mul[slope][x] ^ c) for x in range(4)] for c in range(4)])
    rounds.append([[4 * c + y for y in range(4)] for c in range(4)])  # vertical lines x = c
    return rounds


def _group_tables(order: int) -> tuple[list[list[int]], list[list[int]]]:
    """Addition and subtraction tables of an abelian group of the given order.

    Elementary abelian groups (2^k, 3^2, 5^2, ...) admit complete difference matrices, where the
    cyclic group of even order admits none; other orders use Z_m.
    """
    radices = _elementary_radices(order)
    digits = [_to_digits(a, radices) for a in range(order)]

    def combine(a: int, b: int, sign: int) -> int:
        out = 0
        for r, x, y in zip(
            reversed(radices), reversed(digits[a]), reversed(digits[b]), strict=True
        ):
            out = out * r + (x + sign * y) % r
        return out

    add = [[combine(a, b, 1) for b in range(order)] for a in range(order)]
    sub = [[combine(a, b, -1) for b in range(order)] for a in range(order)]
    return add, sub


def _elementary_radices(order: int) -> list[int]:
    for p in (2, 3, 5, 7):
        n, k = order, 0
        while n % p == 0:
            n //= p
            k += 1
        if n == 1 and k > 1:
            return [p] * k
    return [order]


def _to_digits(a: int, radices: list[int]) -> list[int]:
    out = []
    for r in radices:
        out.append(a % r)
        a //= r
    return out


@cache
def difference_rows(order: int, rows: int, budget: int = 4000) -> tuple[tuple[int, ...], ...]:
    """Up to `rows` rows (0, s1, s2, s3) over a group of `order` with distinct differences.

    For every pair of columns g < h, the values s_h - s_g are all distinct across rows: a
    partial difference matrix. Found by a randomised depth-first search with a node budget; a
    fixed internal seed keeps it reproducible and cacheable (callers shuffle labels anyway).
    """
    if _is_prime(order) and order >= 5:
        # Over a prime field the rows r * (0, 1, 2, 3) already work: no search needed.
        return tuple((0, r, 2 * r % order, 3 * r % order) for r in range(min(rows, order)))
    _add, sub = _group_tables(order)
    rng = random.Random(order * 1000 + rows)
    best: list[tuple[int, ...]] = []
    for _attempt in range(4):
        found = _dfs_rows(order, rows, sub, rng, budget)
        if len(found) > len(best):
            best = found
        if len(best) == rows:
            break
    return tuple(best)


def _is_prime(n: int) -> bool:
    return n > 1 and all(n % d for d in range(2, int(n**0.5) + 1))


def _dfs_rows(
    order: int, rows: int, sub: list[list[int]], rng: random.Random, budget: int
) -> list[tuple[int, ...]]:
    used: list[set[int]] = [set() for _ in range(6)]  # column pairs 01, 02, 03, 12, 13, 23
    chosen: list[tuple[int, ...]] = []
    best: list[tuple[int, ...]] = []
    nodes = 0

    def candidates() -> list[tuple[int, int, int]]:
        out = []
        elems = list(range(order))
        rng.shuffle(elems)
        for s1 in elems:
            if s1 in used[0]:
                continue
            for s2 in elems:
                if s2 in used[1] or sub[s2][s1] in used[3]:
                    continue
                for s3 in elems:
                    if s3 in used[2] or sub[s3][s1] in used[4] or sub[s3][s2] in used[5]:
                        continue
                    out.append((s1, s2, s3))
                    if len(out) >= 6:
                        return out
        return out

    def place(row: tuple[int, int, int], sign: bool) -> None:
        s1, s2, s3 = row
        diffs = (s1, s2, s3, sub[s2][s1], sub[s3][s1], sub[s3][s2])
        for col, d in zip(used, diffs, strict=True):
            if sign:
                col.add(d)
            else:
                col.discard(d)

    def dfs() -> bool:
        nonlocal nodes, best
        if len(chosen) > len(best):
            best = list(chosen)
        if len(chosen) == rows:
            return True
        nodes += 1
        if nodes > budget:
            return False
        for row in candidates():
            place(row, True)
            chosen.append((0, *row))
            if dfs():
                return True
            chosen.pop()
            place(row, False)
        return False

    dfs()
    return best


def difference_design(order: int, rounds: int) -> Design | None:
    """Transversal-design rounds: 4 groups of `order` points, point g*order + x.

    Table t of round r holds (g, t + s_g) for g = 0..3, with (s_g) the r-th difference row, so two
    points meet at most once and two points of the same group never meet (teams go in groups).
    """
    rows = difference_rows(order, rounds)
    if len(rows) < rounds:
        return None
    add, _sub = _group_tables(order)
    return [[[g * order + add[t][row[g]] for g in range(4)] for t in range(order)] for row in rows]


def max_difference_rounds(order: int, wanted: int) -> int:
    """How many rounds (at most `wanted`) the difference construction gives for this order."""
    return len(difference_rows(order, wanted))
