"""Lower bounds on repeats (E) that hold for every plan of a field: how good a plan can be.

E sums, over pairs, the meetings beyond the first. Two counts bound it from below, and the
larger wins (`repeats_bound`); the exact solver (`exact`) may prove more for small fields.

- **Counting** (per player). A player at a table of s meets s - 1 others: 3 per position at
  tables of 4, one more at a table of 5, one fewer at a table of 3. Over R positions a player
  meets 3R + (seats at tables of 5) - (seats at tables of 3) times, among at most n - 1 others
  (teammates excepted); whatever exceeds that is repeated, and each repeat is counted by both
  players. With tables of 4 only: E >= ceil(n * max(0, 3R - n + 1) / 2). Tables of 5 or 3 go
  to the players they hurt least, shared fairly (every count within one of every other). The
  count per pair is the same idea over the whole field: E >= meetings - pairs.
- **Co-meetings** (per pair of positions). With few tables, two positions cannot keep everyone
  apart: a table of s players of one position, spread over the k tables of another, puts at
  least C(a, 2) pairs together in each part of a balanced split of s into k parts a. So every
  two positions repeat at least F pairs, and the pairs' meeting counts m satisfy
  sum C(m, 2) >= F * C(R, 2). A pair met m times adds m - 1 to E and C(m, 2) <= (m - 1) R / 2
  to that sum; the fewest repeats that reach it concentrate meetings on as few pairs as the
  count allows (`_co_meeting_repeats`). At 8 players x 3 positions: E >= 8, reached; at 12 x 4:
  9 (the counting bound says 6).
"""

from __future__ import annotations

from collections.abc import Sequence
from math import comb


def balanced_split_pairs(size: int, parts: int) -> int:
    """The fewest pairs sharing a part when `size` players are split into `parts` parts."""
    if parts <= 0:
        return comb(size, 2)
    low, extra = divmod(size, parts)
    return (parts - extra) * comb(low, 2) + extra * comb(low + 1, 2)


def position_overlap(first: Sequence[int], second: Sequence[int]) -> int:
    """Pairs that share a table in both of two positions of these table sizes, at least.

    Each table of one position is split among the tables of the other; both ways give a bound.
    """
    return max(
        sum(balanced_split_pairs(size, len(first)) for size in second),
        sum(balanced_split_pairs(size, len(second)) for size in first),
    )


def co_meeting_bound(positions: Sequence[Sequence[int]], pairs: int) -> int:
    """A lower bound on E from the co-meetings of every two positions (see the module).

    `positions` are the table sizes of each position, every position seating the same players;
    `pairs` the pairs that may meet (teammates excepted).
    """
    rounds = len(positions)
    if rounds < 2:
        return 0
    meetings = sum(comb(size, 2) for sizes in positions for size in sizes)
    needed = sum(
        position_overlap(positions[r], positions[s])
        for r in range(rounds)
        for s in range(r + 1, rounds)
    )
    least = max(0, meetings - pairs)
    for repeats in range(least, meetings):
        if _co_meeting_repeats(repeats, meetings, rounds) >= needed:
            return repeats
    return least  # only a plan breaking the rules (teammates together) gets here


def _co_meeting_repeats(repeats: int, meetings: int, rounds: int) -> int:
    """The largest sum of C(m, 2) over pairs with `repeats` meetings beyond the first, in all.

    C(m, 2) grows faster than m - 1, so the most comes from pairs met in every position (R - 1
    repeats each), the rest on one pair. The pairs met number meetings - repeats; when too few
    to carry the repeats, the sum cannot be reached at all.
    """
    if rounds < 2:
        return 0
    full, rest = divmod(repeats, rounds - 1)
    if full + (rest > 0) > meetings - repeats:
        return 0
    return full * comb(rounds, 2) + comb(rest + 1, 2)


def counting_bound(meetings: Sequence[int], opponents: Sequence[int], pairs: int) -> int:
    """E from counts: player i meets `meetings[i]` times among `opponents[i]` possible others,
    and all meetings together exceed the `pairs` that may meet by at least E."""
    each = sum(max(0, m - o) for m, o in zip(meetings, opponents, strict=True))
    return max(0, sum(meetings) // 2 - pairs, -(-each // 2))


def repeats_bound(
    players: int, rounds: int, sizes: Sequence[int], mates: Sequence[int] = ()
) -> int:
    """The best of the counting and co-meeting bounds for a first plan of `players` (n) at
    tables of `sizes` (one position) for `rounds` positions; `mates[i]`: player i's teammates.

    Seats at tables of 5 (or 3) are shared fairly (counts within one of each other) and handed
    where they hurt least: a table of 5's extra meeting to the players with the most possible
    opponents, a table of 3's missing one to those with the fewest.
    """
    mates = list(mates) or [0] * players
    opponents = [players - 1 - k for k in mates]
    pairs = sum(opponents) // 2
    odd = next((s for s in sizes if s != 4), 4)
    seats = rounds * sum(s for s in sizes if s != 4)
    low, extra = divmod(seats, players) if odd != 4 else (0, 0)
    shares = [low + 1] * extra + [low] * (players - extra)  # most first
    order = sorted(range(players), key=lambda i: opponents[i], reverse=odd == 5)
    meetings = [3 * rounds] * players
    for i, share in zip(order, shares, strict=True):
        meetings[i] += share if odd == 5 else -share if odd == 3 else 0
    counting = counting_bound(meetings, opponents, pairs)
    return max(counting, co_meeting_bound([list(sizes)] * rounds, pairs))
