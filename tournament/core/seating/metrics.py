"""Figures of a plan: meetings, repeats, odd-table and direction spreads with their bounds.

`plan_figures` is what the arbiter checks before publishing; `plan_problems` lists hard-rule
violations of a plan edited by hand.
"""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from tournament.core.seating.bounds import co_meeting_bound
from tournament.core.seating.plan import (
    DIRECTIONS,
    Plan,
    PlayerLike,
    SeatingPlayer,
    positions_of,
    table_sizes,
)


def meeting_counts(plan: Plan | Sequence[Sequence[Sequence[int]]]) -> dict[tuple[int, int], int]:
    """How many times each pair (smaller id first) sat at the same table."""
    counts: dict[tuple[int, int], int] = {}
    for position in positions_of(plan):
        for table in position:
            for a, b in itertools.combinations(sorted(table), 2):
                counts[(a, b)] = counts.get((a, b), 0) + 1
    return counts


def repeated_meetings(plan: Plan | Sequence[Sequence[Sequence[int]]]) -> int:
    """E: over all pairs, the meetings beyond the first."""
    return sum(c - 1 for c in meeting_counts(plan).values())


def starting_positions(plan: Plan) -> dict[int, tuple[int, str]]:
    """Each player's first seat as (table number from 1, direction letter): the FFT sheet name.

    A late arrival is named by the seat of the first position they play.
    """
    start: dict[int, tuple[int, str]] = {}
    for position in plan.positions:
        for number, table in enumerate(position, start=1):
            for seat, player in enumerate(table):
                start.setdefault(player, (number, DIRECTIONS[seat]))
    return start


def direction_counts(plan: Plan) -> dict[int, dict[str, int]]:
    """For each player, how many times they sat in each direction."""
    counts: dict[int, dict[str, int]] = {}
    for position in plan.positions:
        for table in position:
            for seat, player in enumerate(table):
                per = counts.setdefault(player, dict.fromkeys(DIRECTIONS, 0))
                per[DIRECTIONS[seat]] += 1
    return counts


# --- Checking a plan ------------------------------------------------------------------------


def plan_problems(
    plan: Plan, players: Iterable[PlayerLike], policy: str = "five", first: int = 0
) -> list[str]:
    """Hard-rule violations from position index `first` on, in French; empty when all is well.

    Useful to check a plan edited by hand as well as our own output.
    """
    team = {p.id: getattr(p, "team", None) for p in players}
    expected_sizes = sorted(table_sizes(len(team), policy))
    problems = []
    for number, position in enumerate(plan.positions[first:], start=first + 1):
        seated = [p for table in position for p in table]
        if sorted(seated) != sorted(team):
            problems.append(f"Position {number} : les joueurs assis ne sont pas les présents.")
        if sorted(len(t) for t in position) != expected_sizes:
            problems.append(f"Position {number} : tailles de tables inattendues.")
        for k, table in enumerate(position, start=1):
            teams = [team.get(p) for p in table if team.get(p) is not None]
            if len(teams) != len(set(teams)):
                problems.append(f"Position {number}, table {k} : des coéquipiers se rencontrent.")
    return problems


def direction_spread(plan: Plan, directions: str = "NESW") -> int:
    """The largest gap, over players, between their most and least frequent direction."""
    counts = direction_counts(plan).values()
    return max(
        (max(c[d] for d in directions) - min(c[d] for d in directions) for c in counts), default=0
    )


# --- Figures of a whole plan ----------------------------------------------------------------


@dataclass(frozen=True)
class PlanFigures:
    """What the arbiter checks before publishing, for the whole plan, with what is reachable.

    Spreads are over players: the most minus the fewest positions at a table of 3 or 5 (odd
    tables), and the widest gap between a player's most and least frequent of N, E, S, W. Each
    `_floor` is a lower bound for any plan of this field with these table sizes: a figure at
    its floor cannot be improved.
    """

    repeats: int
    repeats_floor: int
    odd_spread: int
    odd_spread_floor: int
    direction_spread: int
    direction_spread_floor: int

    @property
    def repeats_optimal(self) -> bool:
        """No plan of this field has fewer repeats: the plan meets its lower bound (a proof)."""
        return self.repeats <= self.repeats_floor


def odd_table_counts(plan: Plan, players: Iterable[int] | None = None) -> dict[int, int]:
    """For each player (all seated ones by default), positions played at a table of 3 or 5."""
    counts = dict.fromkeys(players, 0) if players is not None else {}
    for position in plan.positions:
        for table in position:
            for p in table:
                if players is None or p in counts:
                    counts[p] = counts.get(p, 0) + (len(table) != 4)
    return counts


def odd_spread(plan: Plan, players: Iterable[int] | None = None) -> int:
    """Most minus fewest positions at a table of 3 or 5, over `players` (default: everyone)."""
    counts = odd_table_counts(plan, players).values()
    return max(counts, default=0) - min(counts, default=0)


def plan_figures(plan: Plan, players: Iterable[PlayerLike] | None = None) -> PlanFigures:
    """Repeats, odd-table spread and direction spread of `plan`, each with its lower bound.

    `players` are those still playing (with their teams); by default everyone seated in the
    last position, without teams. Spreads cover them (a withdrawn player's seats can no longer
    change); repeats cover everybody who sat. The repeats' floor is also the generator's
    (`Plan.repeats_floor`, the exact solver's proof for a small field) when the plan has one.
    """
    if players is None:
        last = plan.positions[-1] if plan.positions else ()
        roster = [SeatingPlayer(p) for table in last for p in table]
    else:
        roster = [SeatingPlayer(int(p.id), getattr(p, "team", None)) for p in players]
    ids = [p.id for p in roster]
    odd = odd_table_counts(plan, ids)
    played = dict.fromkeys(ids, 0)
    for position in plan.positions:
        for table in position:
            for p in table:
                if p in played:
                    played[p] += 1
    total = sum(odd.values())
    fairest = water_fill([0] * len(ids), [played[p] for p in ids], total)
    directions = [c for p, c in direction_counts(plan).items() if p in played]
    spreads = [max(c[d] for d in "NESW") - min(c[d] for d in "NESW") for c in directions]
    return PlanFigures(
        repeats=repeated_meetings(plan),
        repeats_floor=max(_plan_repeats_floor(plan, roster), plan.repeats_floor or 0),
        odd_spread=max(odd.values(), default=0) - min(odd.values(), default=0),
        odd_spread_floor=max(fairest, default=0) - min(fairest, default=0),
        direction_spread=max(spreads, default=0),
        direction_spread_floor=direction_spread_floor(plan, ids),
    )


def water_fill(counts: list[int], caps: list[int], units: int) -> list[int]:
    """Hand `units` out one at a time to whoever has the fewest, player i taking at most caps[i]
    more: the most even counts reachable."""
    counts = list(counts)
    taken = [0] * len(counts)
    heap = [(c, i) for i, c in enumerate(counts) if caps[i] > 0]
    heapq.heapify(heap)
    for _ in range(units):
        if not heap:
            break
        c, i = heapq.heappop(heap)
        counts[i] = c + 1
        taken[i] += 1
        if taken[i] < caps[i]:
            heapq.heappush(heap, (c + 1, i))
    return counts


def _plan_repeats_floor(plan: Plan, roster: list[SeatingPlayer]) -> int:
    """A lower bound on E for plans seating the same players at the same table sizes.

    Pair meetings beyond the pairs that could meet, and player by player meetings beyond the
    opponents they could meet (pairs present together at least once, teammates excepted), the
    extra meetings of tables of 5 (or missing ones of tables of 3) handed out as mildly as
    possible; when every player sat in every position, the pairs that few tables force to meet
    again from one position to another (`bounds.co_meeting_bound`).
    """
    team = {p.id: p.team for p in roster}
    present: dict[int, set[int]] = {}  # player -> positions seated
    slots = 0
    extra: dict[int, int] = {}  # meetings beyond 3 per position, from tables of 5 (or below, 3)
    for number, position in enumerate(plan.positions):
        for table in position:
            slots += len(table) * (len(table) - 1) // 2
            for p in table:
                present.setdefault(p, set()).add(number)
                extra[p] = extra.get(p, 0) + len(table) - 4
    players = sorted(present)
    opponents = {p: 0 for p in players}
    pairs = 0
    for a, b in itertools.combinations(players, 2):
        if team.get(a) is not None and team.get(a) == team.get(b):
            continue
        if present[a] & present[b]:
            pairs += 1
            opponents[a] += 1
            opponents[b] += 1
    slack = sorted((opponents[p] - 3 * len(present[p]) for p in players), reverse=True)
    handed = sorted(extra.values(), reverse=True)
    each = sum(max(0, e - s) for e, s in zip(handed, slack, strict=True))
    co_meetings = 0
    if all(len(seated) == len(plan.positions) for seated in present.values()):
        # Everybody sat in every position: few tables repeat pairs between positions (`bounds`).
        sizes = [[len(table) for table in position] for position in plan.positions]
        co_meetings = co_meeting_bound(sizes, pairs)
    return max(0, slots - pairs, -(-each // 2), co_meetings)


def direction_spread_floor(plan: Plan, players: Iterable[int] | None = None) -> int:
    """The narrowest N/E/S/W spread the seats of this plan allow, over `players` (default all).

    A spread s needs each player with k seats in N, E, S or W to have at least
    ceil((k - 3s) / 4) seats in West; tables of 3 have no West seat, and when they leave too few
    West seats for everybody, s must widen.
    """
    wanted = set(players) if players is not None else None
    seats: dict[int, int] = {}
    wests = 0
    for position in plan.positions:
        for table in position:
            wests += len(table) >= 4
            for p in table[:4]:
                if wanted is None or p in wanted:
                    seats[p] = seats.get(p, 0) + 1
    spread = 0 if all(k % 4 == 0 for k in seats.values()) else 1
    while sum(max(0, -(-(k - 3 * spread) // 4)) for k in seats.values()) > wests:
        spread += 1
    return spread
