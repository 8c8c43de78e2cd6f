"""Combinatorial designs that seat 4m players at tables of 4 with no repeated meeting."""

from __future__ import annotations

import random
from functools import cache

# A design: a list of rounds, each round a list of tables, each table a list of point numbers
# 0..v-1. Callers relabel the points with players; the design only fixes who meets whom.
Design = list[list[list[int]]]

# 1-rotational resolvable packings, found offline by simulated annealing over the base round
# (points Z_k x levels plus fixed "infinite" points; the rounds are the k shifts of the base
# round). Each entry: v -> (k, levels, fixed points, base round), a point being (x, level) with
# level < 0 for the fixed points. They reach the known maxima of the social golfer problem at
# tables of 4, where plain local search stalls: 20 players x 5, 24 x 7, 28 x 9 (a resolvable
# (28,4,1)-BIBD), 36 x 11, plus 40 x 10 (cheaper than searching at run time). 32 x 10 is below.
ROTATIONAL_BASES: dict[int, tuple[int, int, int, list[list[tuple[int, int]]]]] = {
    20: (
        5,
        4,
        0,
        [
            [(1, 1), (2, 0), (2, 3), (0, 0)],
            [(2, 2), (1, 3), (2, 1), (0, 2)],
            [(3, 1), (0, 1), (3, 0), (4, 2)],
            [(3, 2), (0, 3), (3, 3), (4, 0)],
            [(1, 0), (4, 3), (4, 1), (1, 2)],
        ],
    ),
    24: (
        7,
        3,
        3,
        [
            [(0, -3), (1, 0), (2, 2), (6, 1)],
            [(0, -2), (0, 2), (2, 0), (5, 1)],
            [(0, -1), (4, 1), (4, 2), (5, 0)],
            [(0, 0), (1, 1), (4, 0), (6, 0)],
            [(0, 1), (1, 2), (2, 1), (3, 1)],
            [(3, 0), (3, 2), (5, 2), (6, 2)],
        ],
    ),
    28: (
        9,
        3,
        1,
        [
            [(0, -1), (3, 0), (6, 2), (7, 1)],
            [(0, 0), (1, 0), (5, 2), (6, 0)],
            [(0, 1), (0, 2), (1, 2), (3, 2)],
            [(1, 1), (4, 1), (8, 0), (8, 1)],
            [(2, 0), (2, 2), (4, 0), (5, 1)],
            [(2, 1), (3, 1), (5, 0), (7, 2)],
            [(4, 2), (6, 1), (7, 0), (8, 2)],
        ],
    ),
    36: (
        11,
        3,
        3,
        [
            [(0, -3), (5, 2), (10, 0), (10, 1)],
            [(0, -2), (1, 0), (3, 2), (9, 1)],
            [(0, -1), (2, 1), (6, 0), (6, 2)],
            [(0, 0), (4, 1), (5, 1), (7, 2)],
            [(0, 1), (5, 0), (7, 1), (8, 0)],
            [(0, 2), (1, 1), (1, 2), (9, 2)],
            [(2, 0), (7, 0), (9, 0), (10, 2)],
            [(2, 2), (3, 0), (4, 0), (8, 2)],
            [(3, 1), (4, 2), (6, 1), (8, 1)],
        ],
    ),
    40: (
        10,
        4,
        0,
        [
            [(1, 1), (8, 2), (9, 1), (9, 0)],
            [(6, 0), (3, 3), (3, 1), (7, 3)],
            [(1, 0), (0, 3), (3, 2), (1, 3)],
            [(4, 1), (2, 3), (7, 2), (5, 1)],
            [(5, 0), (9, 2), (2, 2), (8, 1)],
            [(8, 3), (2, 1), (6, 1), (5, 3)],
            [(8, 0), (6, 2), (6, 3), (4, 2)],
            [(0, 1), (7, 1), (5, 2), (2, 0)],
            [(4, 0), (7, 0), (9, 3), (3, 0)],
            [(0, 2), (0, 0), (4, 3), (1, 2)],
        ],
    ),
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
DOUBLED_AFFINE_32: list[list[list[int]]] = [
    [
        [0, 8, 16, 24],
        [1, 9, 17, 25],
        [2, 10, 18, 26],
        [3, 11, 19, 27],
        [4, 12, 20, 28],
        [5, 13, 21, 29],
        [6, 14, 22, 30],
        [7, 15, 23, 31],
    ],
    [
        [0, 10, 20, 30],
        [1, 11, 21, 31],
        [2, 8, 22, 28],
        [3, 9, 23, 29],
        [4, 14, 17, 26],
        [5, 15, 16, 27],
        [6, 12, 18, 25],
        [7, 13, 19, 24],
    ],
    [
        [0, 12, 23, 27],
        [1, 13, 22, 26],
        [2, 14, 21, 24],
        [3, 15, 20, 25],
        [4, 9, 18, 31],
        [5, 8, 19, 30],
        [6, 10, 16, 29],
        [7, 11, 17, 28],
    ],
    [
        [0, 14, 19, 29],
        [1, 15, 18, 28],
        [2, 12, 16, 31],
        [3, 13, 17, 30],
        [4, 10, 23, 24],
        [5, 11, 22, 25],
        [6, 9, 21, 26],
        [7, 8, 20, 27],
    ],
    [
        [0, 3, 4, 6],
        [1, 2, 5, 7],
        [8, 11, 12, 14],
        [9, 10, 13, 15],
        [16, 18, 20, 22],
        [17, 19, 21, 23],
        [24, 26, 28, 30],
        [25, 27, 29, 31],
    ],
    [
        [1, 6, 19, 20],
        [0, 7, 18, 21],
        [3, 8, 26, 31],
        [2, 9, 27, 30],
        [15, 22, 24, 29],
        [14, 23, 25, 28],
        [5, 10, 12, 17],
        [4, 11, 13, 16],
    ],
    [
        [5, 20, 23, 26],
        [4, 21, 22, 27],
        [6, 8, 15, 17],
        [7, 9, 14, 16],
        [1, 3, 12, 24],
        [0, 2, 13, 25],
        [10, 19, 28, 31],
        [11, 18, 29, 30],
    ],
    [
        [2, 17, 20, 29],
        [3, 16, 21, 28],
        [8, 13, 18, 23],
        [9, 12, 19, 22],
        [5, 6, 24, 31],
        [4, 7, 25, 30],
        [1, 10, 14, 27],
        [0, 11, 15, 26],
    ],
    [
        [13, 14, 20, 31],
        [12, 15, 21, 30],
        [1, 4, 8, 29],
        [0, 5, 9, 28],
        [17, 18, 24, 27],
        [16, 19, 25, 26],
        [3, 7, 10, 22],
        [2, 6, 11, 23],
    ],
    [
        [9, 11, 20, 24],
        [8, 10, 21, 25],
        [6, 13, 27, 28],
        [7, 12, 26, 29],
        [0, 17, 22, 31],
        [1, 16, 23, 30],
        [3, 5, 14, 18],
        [2, 4, 15, 19],
    ],
]


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
