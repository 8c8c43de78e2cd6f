"""The search state: players as indices with incremental meeting and odd-table counts.

Also the one swap delta (`swap_delta`) and the one swap (`move`) every search step uses, and the
small helpers the searches share (conflicts, fairness of a swap, restoring the best grouping).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

from tournament.core.seating.plan import MAX_POSITIONS, Position, SeatingPlayer

# Cost of the (c+1)-th meeting of a pair: free the first time, then steeply convex so that the
# search never trades two second meetings for one third meeting. Teammates' counts start at
# MATE, where a meeting costs more than any number of repeats.
MATE = 100
INC = (
    (0, 16, 480, 14_400, 432_000, 12_960_000)
    + (10**9,) * (MATE - 6)
    + (10**12,) * (MAX_POSITIONS + 1)
)
CUM = tuple(itertools.accumulate(INC, initial=0))  # total cost of a pair met c times
REPEAT = INC[1]
# E itself, for small fields whose fewest repeats need a pair to meet a third time (8 players
# x 3 positions: 8 with four pairs met three times, 12 without): every meeting beyond the
# first costs REPEAT, plus PILING per meeting the pair already had beyond the first, so that
# among plans of one E those spreading repeats over more pairs cost less. A pair met m times
# costs REPEAT (m - 1) + PILING C(m - 1, 2). `small.refine_on_repeats` anneals with it.
PILING = 4
LINEAR_INC = (
    (0,) + tuple(REPEAT + PILING * k for k in range(MATE - 1)) + (10**12,) * (MAX_POSITIONS + 1)
)


Grouping = list[list[list[int]]]  # who sits with whom: new positions -> tables -> player indices


@dataclass
class State:
    """Players as indices 0..n-1 (present players first) with meeting and odd-table counts.

    Teammates' meeting counts start at MATE, so one more meeting prices them at INC[MATE]:
    the hard rule costs nothing extra in the inner loops. `inc` is the price list (INC, or
    LINEAR_INC to minimise E itself).
    """

    ids: list[int]
    present: int
    meets: list[list[int]]
    odd: list[int]  # times each player sat at a table of 3 or 5
    mates: list[int]  # how many teammates each player has
    inc: tuple[int, ...] = INC

    @classmethod
    def build(
        cls,
        roster: list[SeatingPlayer],
        fixed: tuple[Position, ...],
        inc: tuple[int, ...] = INC,
    ) -> State:
        ids = [p.id for p in roster]
        known = set(ids)
        for position in fixed:
            for table in position:
                for p in table:
                    if p not in known:
                        known.add(p)
                        ids.append(p)
        index = {pid: i for i, pid in enumerate(ids)}
        n = len(ids)
        meets = [[0] * n for _ in range(n)]
        mates = [0] * n
        for a, b in itertools.combinations(range(len(roster)), 2):
            if roster[a].team is not None and roster[a].team == roster[b].team:
                meets[a][b] = meets[b][a] = MATE
                mates[a] += 1
                mates[b] += 1
        odd = [0] * n
        for position in fixed:
            for table in position:
                seated = [index[p] for p in table]
                for a, b in itertools.combinations(seated, 2):
                    meets[a][b] += 1
                    meets[b][a] += 1
                if len(table) != 4:
                    for a in seated:
                        odd[a] += 1
        return cls(ids, len(roster), meets, odd, mates, inc)

    def add_position(self, tables: list[list[int]], sign: int) -> None:
        meets, odd = self.meets, self.odd
        for table in tables:
            for a, b in itertools.combinations(table, 2):
                meets[a][b] += sign
                meets[b][a] += sign
            if len(table) != 4:
                for a in table:
                    odd[a] += sign

    def join_cost(self, x: int, table: list[int]) -> int:
        row, inc = self.meets[x], self.inc
        return sum(inc[row[c]] for c in table)

    def cost(self) -> int:
        """Total convex cost of the meeting counts (teammates priced per meeting)."""
        prices = CUM if self.inc is INC else tuple(itertools.accumulate(self.inc, initial=0))
        cum = prices.__getitem__
        total = sum(sum(map(cum, row[a + 1 :])) for a, row in enumerate(self.meets))
        return total - sum(self.mates) // 2 * prices[MATE]

    def repeats(self) -> int:
        """E over the counts: meetings beyond the first (teammates' head start left out)."""
        total = 0
        for row, mates in zip(self.meets, self.mates, strict=True):
            total += sum(row) - (len(row) - row.count(0)) - mates * (MATE - 1)
        return total // 2

    def odd_spread(self) -> int:
        counts = self.odd[: self.present]
        return max(counts) - min(counts)


def swap_delta(
    meets: list[list[int]],
    ta: list[int],
    tb: list[int],
    x: int,
    y: int,
    inc: tuple[int, ...] = INC,
) -> int:
    """Cost change when x (at table ta) and y (at table tb) trade places.

    The one place a swap is priced: the tabu search, the annealing (single swaps, and the paired
    swaps of `_exchange` through `exchange_delta`), the fair sharing of odd seats and the spacing
    of them over time.
    """
    row_x, row_y = meets[x], meets[y]
    delta = 0
    for c in ta:
        if c != x:
            delta += inc[row_y[c]] - inc[row_x[c] - 1]
    for c in tb:
        if c != y:
            delta += inc[row_x[c]] - inc[row_y[c] - 1]
    return delta


def exchange_delta(
    meets: list[list[int]],
    first: tuple[list[int], list[int]],
    second: tuple[list[int], list[int]],
    x: int,
    y: int,
    inc: tuple[int, ...] = INC,
) -> int:
    """Cost change when x and y trade places in one position (x at first[0], y at first[1]),
    then again in another (x at second[0], y at second[1]): the annealing's fair pair of swaps.

    The second swap is priced on the counts as the first leaves them, without making it: after
    it x has left first[0]'s players for first[1]'s, and y the other way round (a shift of one
    meeting each). So a refused pair costs no swap and no undo.
    """
    ta, tb = first
    row_x, row_y = meets[x], meets[y]
    delta = swap_delta(meets, ta, tb, x, y, inc)
    for c in second[0]:
        if c != x:
            shift = (c in ta) - (c in tb)
            delta += inc[row_y[c] + shift] - inc[row_x[c] - shift - 1]
    for c in second[1]:
        if c != y:
            shift = (c in ta) - (c in tb)
            delta += inc[row_x[c] - shift] - inc[row_y[c] + shift - 1]
    return delta


def move(
    state: State, tables: list[list[int]], tab_of: list[int], x: int, a: int, y: int, b: int
) -> None:
    """x (at table a) and y (at table b) trade places; counts follow (both directions of the
    symmetric matrix: x leaves a's players for b's, y the other way round)."""
    meets, ta, tb = state.meets, tables[a], tables[b]
    row_x, row_y = meets[x], meets[y]
    for c in ta:
        if c != x:
            row_c = meets[c]
            row_x[c] -= 1
            row_c[x] -= 1
            row_y[c] += 1
            row_c[y] += 1
    for c in tb:
        if c != y:
            row_c = meets[c]
            row_y[c] -= 1
            row_c[y] -= 1
            row_x[c] += 1
            row_c[x] += 1
    ta[ta.index(x)] = y
    tb[tb.index(y)] = x
    tab_of[x], tab_of[y] = b, a
    if (len(ta) == 4) != (len(tb) == 4):
        shift = 1 if len(ta) == 4 else -1  # x now sits at tb
        state.odd[x] += shift
        state.odd[y] -= shift


def keeps_fair(odd: list[int], ta: list[int], tb: list[int], x: int, y: int) -> bool:
    """Whether x (at ta) and y (at tb) may trade places without widening the odd-table spread.

    Between tables of the same kind always; between a table of 4 and one of 3 or 5 only when the
    player who takes the odd seat had at least one fewer than the one who leaves it.
    """
    if (len(ta) == 4) == (len(tb) == 4):
        return True
    leaving, joining = (x, y) if len(ta) != 4 else (y, x)
    return odd[joining] < odd[leaving]


def restore(state: State, grouping: Grouping, best: Grouping) -> None:
    """Put the best grouping seen back in place, counts included."""
    for pos in grouping:
        state.add_position(pos, -1)
    grouping[:] = best
    for pos in grouping:
        state.add_position(pos, 1)


def in_conflict(state: State, table: list[int], x: int) -> bool:
    """x meets someone at this table too often (or a teammate)."""
    row = state.meets[x]
    return any(row[c] > 1 for c in table if c != x)


def table_index(tables: list[list[int]], n: int) -> list[int]:
    tab_of = [0] * n
    for t, table in enumerate(tables):
        for p in table:
            tab_of[p] = t
    return tab_of


def conflicts_of(state: State, grouping: Grouping) -> list[tuple[int, int]]:
    """(new position, player) pairs where the player meets someone too often or a teammate."""
    meets = state.meets
    out = []
    for r, tables in enumerate(grouping):
        for table in tables:
            for a in table:
                # meets[a][a] is 0: the player's own column never counts.
                if max(map(meets[a].__getitem__, table)) > 1:
                    out.append((r, a))
    return out
