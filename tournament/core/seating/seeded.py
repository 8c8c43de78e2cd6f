"""One position seated by the standings: by rank ("table d'honneur") or in a snake.

For the last position of an evening or a final, the arbiter may seat a position from the
ranking instead of the generator's plan. `players` come best first.

- **By rank** (`RANK`): the leaders together at table 1, the next ones at table 2, and so on:
  each table is a block of consecutive ranks.
- **Snake** (`SNAKE`): seats are dealt table by table, one pass per seat, forward then back:
  with T tables of 4, table 1 gets ranks 1, 2T, 2T + 1 and 4T, table T gets T, T + 1, 3T and
  3T + 1 (16 players: 1, 8, 9, 16 | 2, 7, 10, 15 | 3, 6, 11, 14 | 4, 5, 12, 13), so every
  table has the same sum of ranks. A pass for the fifth seat covers the tables of 5 only (and
  the fourth pass skips the tables of 3).

Table sizes are the generator's (`table_sizes`); the tables of 3 or 5 come last, or first when
that shares them more evenly over the tournament (the odd-table rule: the players at the
bottom, or the top, of the ranking may already have had their share); a player who would
still have two such seats more than someone at a table of 4 changes places with the
nearest-ranked of them, fairness coming first as in the generator. Teammates never sit
together: a player who would meet a teammate changes places with the nearest-ranked player
who can. Directions are balanced with the positions already played, as the generator does.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from tournament.core.i18n import gettext_noop
from tournament.core.seating.directions import assign_directions
from tournament.core.seating.plan import (
    PlayerLike,
    Position,
    SeatingError,
    SeatingPlayer,
    check_fixed,
    check_players,
    check_policy,
    check_teams_fit,
    table_sizes,
)

RANK = "rank"
SNAKE = "snake"
METHODS = (RANK, SNAKE)


def by_rank(ranked: Sequence[int], sizes: Sequence[int]) -> list[list[int]]:
    """Consecutive blocks of `ranked` (best first), table after table, of the given sizes."""
    tables, start = [], 0
    for size in sizes:
        tables.append(list(ranked[start : start + size]))
        start += size
    return tables


def snake(ranked: Sequence[int], sizes: Sequence[int]) -> list[list[int]]:
    """`ranked` dealt out one seat per table and pass, passes alternately forward and back."""
    tables: list[list[int]] = [[] for _ in sizes]
    order = iter(ranked)
    for seat in range(max(sizes, default=0)):
        open_tables = [t for t, size in enumerate(sizes) if size > seat]
        for t in open_tables if seat % 2 == 0 else reversed(open_tables):
            tables[t].append(next(order))
    return tables


def seat_by_standings(
    players: Sequence[PlayerLike],
    method: str,
    policy: str = "five",
    fixed: Sequence[Sequence[Sequence[int]]] = (),
    seed: int = 0,
) -> Position:
    """The next position (after `fixed`, the positions played), seated from `players` in
    ranking order (best first) by `method` (RANK or SNAKE); tables of ids in seat order."""
    if method not in METHODS:
        raise ValueError(f"unknown seating method {method!r}")
    roster = check_players(players)
    policy = check_policy(policy)
    played = check_fixed(fixed, len(fixed) + 1)
    sizes = table_sizes(len(roster), policy)
    check_teams_fit(roster, sizes)
    deal = by_rank if method == RANK else snake
    odd_last = sorted(sizes, key=lambda s: s != 4)
    candidates = [odd_last, odd_last[::-1]] if odd_last != odd_last[::-1] else [odd_last]
    seated = [_apart(roster, deal([p.id for p in roster], order)) for order in candidates]
    # Odd tables last unless first shares them more evenly (a stable min keeps the first).
    tables = min(seated, key=lambda t: _odd_spread(_odd_counts(played, t, roster)))
    _share_odd_seats(roster, played, tables)
    return _with_directions(roster, played, tables, seed)


def _odd_counts(
    played: Sequence[Position], tables: list[list[int]], roster: list[SeatingPlayer]
) -> dict[int, int]:
    """Each player's seats at tables of 3 or 5, the new position included."""
    counts = {p.id: 0 for p in roster}
    for position in [*played, tables]:
        for table in position:
            for p in table:
                if p in counts and len(table) != 4:
                    counts[p] += 1
    return counts


def _odd_spread(counts: dict[int, int]) -> int:
    return max(counts.values()) - min(counts.values())


def _share_odd_seats(
    roster: list[SeatingPlayer], played: Sequence[Position], tables: list[list[int]]
) -> None:
    """The odd-table rule before the ranking: a player at a table of 3 or 5 with two such
    seats more than someone at a table of 4 changes places with the nearest-ranked of those
    (teammates still apart), until no one has two more."""
    team = {p.id: p.team for p in roster}
    rank = {p.id: r for r, p in enumerate(roster)}
    counts = _odd_counts(played, tables, roster)
    for _ in range(len(roster) * len(roster)):
        where = {p: t for t, table in enumerate(tables) for p in table}
        swap = min(
            (
                (abs(rank[x] - rank[y]), rank[x], x, y)
                for x in rank
                if len(tables[where[x]]) != 4
                for y in rank
                if len(tables[where[y]]) == 4
                and counts[x] >= counts[y] + 2
                and _fits(team, tables[where[y]], x, y)
                and _fits(team, tables[where[x]], y, x)
            ),
            default=None,
        )
        if swap is None:
            return
        _, _, x, y = swap
        a, b = tables[where[x]], tables[where[y]]
        a[a.index(x)], b[b.index(y)] = y, x
        counts[x], counts[y] = counts[x] - 1, counts[y] + 1


def _fits(team: dict[int, int | None], table: list[int], player: int, leaving: int) -> bool:
    """Whether `player` may take `leaving`'s seat at `table` (no teammate there)."""
    mine = team[player]
    return mine is None or all(team[o] != mine for o in table if o not in (player, leaving))


def _apart(roster: list[SeatingPlayer], tables: list[list[int]]) -> list[list[int]]:
    """`tables` with no two teammates together: the lower-ranked of two teammates changes
    places with the nearest-ranked player elsewhere for whom neither table holds a teammate."""
    team = {p.id: p.team for p in roster}
    rank = {p.id: r for r, p in enumerate(roster)}
    where = {p: t for t, table in enumerate(tables) for p in table}

    def fits(player: int, t: int, leaving: int) -> bool:
        return _fits(team, tables[t], player, leaving)

    for _ in range(len(roster) * len(roster)):
        clash = _first_clash(tables, team, rank)
        if clash is None:
            return tables
        t = where[clash]
        others = sorted(
            (p for p in rank if where[p] != t), key=lambda p: (abs(rank[p] - rank[clash]), rank[p])
        )
        partner = next((o for o in others if fits(clash, where[o], o) and fits(o, t, clash)), None)
        if partner is None:
            break
        u = where[partner]
        tables[t][tables[t].index(clash)], tables[u][tables[u].index(partner)] = partner, clash
        where[clash], where[partner] = u, t
    raise SeatingError(
        gettext_noop("Les équipes sont trop grandes pour séparer tous les coéquipiers.")
    )


def _first_clash(
    tables: list[list[int]], team: dict[int, int | None], rank: dict[int, int]
) -> int | None:
    """The lower-ranked player of the first pair of teammates at one table, or None."""
    for table in tables:
        for p in sorted(table, key=rank.__getitem__, reverse=True):
            if team[p] is not None and any(team[o] == team[p] for o in table if o != p):
                return p
    return None


def _with_directions(
    roster: list[SeatingPlayer], played: Sequence[Position], tables: list[list[int]], seed: int
) -> Position:
    """`tables` in their order, each one's seats ordered so that directions stay balanced."""
    ids = [p.id for p in roster]
    index = {pid: i for i, pid in enumerate(ids)}
    for position in played:
        for table in position:
            for p in table:
                if p not in index:
                    index[p] = len(ids)
                    ids.append(p)
    grouping = [[[index[p] for p in table] for table in tables]]
    ordered = assign_directions(ids, played, grouping, random.Random(seed))[0]
    by_members = {frozenset(table): table for table in ordered}
    return tuple(by_members[frozenset(table)] for table in tables)
