"""Seating generator: who sits at which table, in which direction, for every position.

Pure Python, no Django. The entry point is `generate`; the Django layer loads registrations,
calls it and saves the `Plan`. Vocabulary:

- a *position* is a round: every table plays its deals once;
- a *table* is a tuple of player ids in seat order N, E, S, W and, at tables of five, a fifth
  seat "X" (shown "5e" on sheets). Tables of three use N, E, S. North deals first, so balancing
  directions also rotates first dealers;
- two players *meet* when they sit at the same table in a position. `repeated_meetings` (E) sums,
  over all pairs, max(0, times met - 1).

Hard rules, always kept: teammates never share a table; every present player has exactly one seat
per position; tables of 4 with the remainder at tables of 5 (policy "five") or 3 ("three").
Then, in order: as few repeated meetings as possible (a third meeting costs far more than a
second), balanced directions per player.

How: known designs (affine plane, transversal designs from difference matrices, rotational
designs found offline) give zero-repeat movements where they exist, with players relabelled by the
seed; a tabu search then simulated annealing, both with incremental meeting counts, repair or
build everything else (tables of 3 or 5, teams, re-plans, positions beyond what designs reach).
Swaps that add no meeting then share the seats at tables of 3 or 5 fairly, and directions are
balanced last (seating_directions). Re-plan by passing the positions already played as `fixed`
and the current plan as `previous`: played positions are kept exactly, unplayed ones change as
little as the new field allows, all counts cover the whole tournament.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol

from tournament.seating_designs import (
    affine_plane_16,
    catalogue_design,
    difference_design,
    max_difference_rounds,
)
from tournament.seating_directions import assign_directions

DIRECTIONS = ("N", "E", "S", "W", "X")
DIRECTION_LABELS = {"N": "Nord", "E": "Est", "S": "Sud", "W": "Ouest", "X": "5e"}
POLICIES = ("five", "three")
# The Django model also knows "five_dead" (tables of 5 with a rotating dummy): same seating.
POLICY_ALIASES = {"five_dead": "five"}
MAX_POSITIONS = 60

Table = tuple[int, ...]
Position = tuple[Table, ...]

# Cost of the (c+1)-th meeting of a pair: free the first time, then steeply convex so that the
# search never trades two second meetings for one third meeting. The odd-table term (sum of
# squared counts, weight 1) only counts once the meeting search is over.
_INC = (0, 16, 480, 14_400, 432_000, 12_960_000) + (10**9,) * 200
_CUM = tuple(sum(_INC[:c]) for c in range(60))  # total cost of a pair met c times
_TEAM = 10**12  # teammates at one table: a hard rule, priced above any repeat


class SeatingError(ValueError):
    """A request that cannot be seated; the message is French and meant for the arbiter."""


class PlayerLike(Protocol):
    id: int
    team: int | None


@dataclass(frozen=True)
class SeatingPlayer:
    """A player to seat: their number and their team (None when playing alone)."""

    id: int
    team: int | None = None


@dataclass(frozen=True)
class Plan:
    """Every position's tables; each table lists player ids in seat order N, E, S, W[, X]."""

    positions: tuple[Position, ...]

    def to_lists(self) -> list[list[list[int]]]:
        return [[list(table) for table in position] for position in self.positions]


def numbered_field(players: int, team_size: int | None = None) -> list[SeatingPlayer]:
    """Players 1..N; with team_size K, players 1..K form team 1, K+1..2K team 2, and so on."""
    return [
        SeatingPlayer(i, (i - 1) // team_size + 1 if team_size else None)
        for i in range(1, players + 1)
    ]


def table_sizes(players: int, policy: str = "five") -> list[int]:
    """Table sizes for one position: tables of 4, then the remainder at tables of 5 or 3."""
    policy = _check_policy(policy)
    if players < 3:
        raise SeatingError("Il faut au moins 3 joueurs pour former une table.")
    rest = players % 4
    if rest == 0:
        return [4] * (players // 4)
    if policy == "five":
        if players < 5 * rest:
            raise SeatingError(
                f"Impossible de placer {players} joueurs à des tables de 4 et de 5 : "
                "choisissez des tables de 3."
            )
        return [4] * ((players - 5 * rest) // 4) + [5] * rest
    threes = 4 - rest
    if players < 3 * threes:
        raise SeatingError(
            f"Impossible de placer {players} joueurs à des tables de 4 et de 3 : "
            "choisissez des tables de 5."
        )
    return [4] * ((players - 3 * threes) // 4) + [3] * threes


def generate(
    players: Iterable[PlayerLike],
    positions: int,
    policy: str = "five",
    fixed: Sequence[Sequence[Sequence[int]]] = (),
    seed: int = 0,
    previous: Plan | None = None,
) -> Plan:
    """Seat `players` for positions len(fixed)+1 .. `positions` (the total count).

    `players` are the players present for the positions to generate (objects with `id` and
    `team`); withdrawn players are simply left out, late ones added. `fixed` are the positions
    already played, kept exactly. `previous`, when given, is the plan being replaced: its
    unplayed positions are the starting point, so that one withdrawal moves few players. The
    same arguments always give the same plan.
    """
    roster = _check_players(players)
    policy = _check_policy(policy)
    fixed_positions = _check_fixed(fixed, positions)
    sizes = table_sizes(len(roster), policy)
    _check_teams_fit(roster, sizes)
    new_count = positions - len(fixed_positions)
    if new_count == 0:
        return Plan(fixed_positions)

    state = _State.build(roster, fixed_positions)
    rng = random.Random(seed)
    done = len(fixed_positions)
    groupings = _best_groupings(state, roster, sizes, done, new_count, previous, rng)
    seated = assign_directions(state.ids, fixed_positions, groupings, rng)
    return Plan(fixed_positions + seated)


def meeting_counts(plan: Plan | Sequence[Sequence[Sequence[int]]]) -> dict[tuple[int, int], int]:
    """How many times each pair (smaller id first) sat at the same table."""
    counts: dict[tuple[int, int], int] = {}
    for position in _positions_of(plan):
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


# --- Checking the request -------------------------------------------------------------------


def _check_policy(policy: str) -> str:
    policy = POLICY_ALIASES.get(policy, policy)
    if policy not in POLICIES:
        raise SeatingError(f"Formule de tables inconnue : « {policy} » (five ou three).")
    return policy


def _check_players(players: Iterable[PlayerLike]) -> list[SeatingPlayer]:
    roster = [SeatingPlayer(int(p.id), getattr(p, "team", None)) for p in players]
    ids = [p.id for p in roster]
    if len(set(ids)) != len(ids):
        twice = sorted({i for i in ids if ids.count(i) > 1})
        raise SeatingError(f"Joueurs en double : {', '.join(map(str, twice))}.")
    if len(roster) < 3:
        raise SeatingError("Il faut au moins 3 joueurs pour former une table.")
    return roster


def _check_fixed(fixed: Sequence[Sequence[Sequence[int]]], positions: int) -> tuple[Position, ...]:
    if positions < 1 or positions > MAX_POSITIONS:
        raise SeatingError(f"Le nombre de positions doit être entre 1 et {MAX_POSITIONS}.")
    if len(fixed) > positions:
        raise SeatingError("Plus de positions jouées que de positions prévues.")
    out = []
    for number, position in enumerate(fixed, start=1):
        tables = tuple(tuple(int(p) for p in table) for table in position)
        seated = [p for table in tables for p in table]
        if len(set(seated)) != len(seated):
            raise SeatingError(f"Position {number} : un joueur y est assis deux fois.")
        if any(not 3 <= len(table) <= 5 for table in tables):
            raise SeatingError(f"Position {number} : une table n'a pas 3 à 5 joueurs.")
        out.append(tables)
    return tuple(out)


def _check_teams_fit(roster: list[SeatingPlayer], sizes: list[int]) -> None:
    """Refuse teams that cannot be spread one member per table (Gale-Ryser condition)."""
    team_sizes: dict[int, int] = {}
    for p in roster:
        if p.team is not None:
            team_sizes[p.team] = team_sizes.get(p.team, 0) + 1
    if not team_sizes:
        return
    largest = max(team_sizes.values())
    if largest > len(sizes):
        raise SeatingError(
            f"Une équipe de {largest} joueurs ne peut pas être répartie sur {len(sizes)} "
            "tables sans que deux coéquipiers se rencontrent."
        )
    groups = list(team_sizes.values()) + [1] * sum(1 for p in roster if p.team is None)
    ordered = sorted(sizes, reverse=True)
    for k in range(1, len(ordered) + 1):
        if sum(ordered[:k]) > sum(min(g, k) for g in groups):
            raise SeatingError("Les équipes sont trop grandes pour séparer tous les coéquipiers.")


def _positions_of(plan: Plan | Sequence[Sequence[Sequence[int]]]) -> Sequence:
    return plan.positions if isinstance(plan, Plan) else plan


# --- Search state ---------------------------------------------------------------------------


@dataclass
class _State:
    """Players as indices 0..n-1 (present players first) with meeting counts and team pairs."""

    ids: list[int]
    present: int
    meets: list[list[int]]
    mates: list[list[int]]  # _TEAM for teammates, else 0
    odd: list[int]  # times each player sat at a table of 3 or 5
    odd_share: int = 0  # what a fair share of those seats is (rounded up)
    odd_weight: int = 0  # 0 while searching for meetings, 1 when evening out odd tables

    @classmethod
    def build(cls, roster: list[SeatingPlayer], fixed: tuple[Position, ...]) -> _State:
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
        for position in fixed:
            for table in position:
                for a, b in itertools.combinations((index[p] for p in table), 2):
                    meets[a][b] += 1
                    meets[b][a] += 1
        mates = [[0] * n for _ in range(n)]
        for a, b in itertools.combinations(range(len(roster)), 2):
            if roster[a].team is not None and roster[a].team == roster[b].team:
                mates[a][b] = mates[b][a] = _TEAM
        odd = [0] * n
        for position in fixed:
            for table in position:
                if len(table) != 4:
                    for p in table:
                        odd[index[p]] += 1
        return cls(ids, len(roster), meets, mates, odd)

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
        row, mates = self.meets[x], self.mates[x]
        return sum(_INC[row[c]] + mates[c] for c in table)

    def cost(self) -> int:
        """Total convex cost of the current counts (teammate pairs priced per meeting)."""
        total = 0
        n = len(self.ids)
        for a in range(n):
            row, mates = self.meets[a], self.mates[a]
            for b in range(a + 1, n):
                c = row[b]
                if c:
                    total += _CUM[c] + mates[b] * c
        return total + self.odd_weight * sum(k * k for k in self.odd)


# --- Groupings: who sits with whom ----------------------------------------------------------

Grouping = list[list[list[int]]]  # new positions -> tables -> player indices


def _best_groupings(
    state: _State,
    roster: list[SeatingPlayer],
    sizes: list[int],
    done: int,
    new_count: int,
    previous: Plan | None,
    rng: random.Random,
) -> Grouping:
    """Try each starting point (previous plan, design, greedy), improve it, keep the cheapest."""
    hints: list[list[list[list[int]]] | None] = []
    odd_seats = new_count * sum(s for s in sizes if s != 4) + sum(state.odd[: state.present])
    state.odd_share = -(-odd_seats // state.present)
    floor = _cost_floor(state, sizes, new_count) if done == 0 else 0
    if previous is not None:
        hints.append(_hint_from_previous(state, previous, done, new_count))
    design = _design_hint(state, roster, new_count, rng)
    if design is not None:
        hints.append(design)
    hints.append(None)  # plain greedy

    best: tuple[int, Grouping] | None = None
    clean = False
    for hint in hints:
        grouping = _build(state, sizes, new_count, hint, rng)
        cost = _tabu(state, grouping, rng, floor)
        if best is None or cost < best[0]:
            best = (cost, [[list(t) for t in pos] for pos in grouping])
        clean = cost <= floor or not _conflicts(state, grouping)
        for pos in grouping:
            state.add_position(pos, -1)
        if clean:
            break
    assert best is not None
    cost, grouping = best
    for pos in grouping:
        state.add_position(pos, 1)
    if not clean and len(sizes) > 1 and _conflicts(state, grouping):
        # The best start still has repeats: anneal it, the tabu search alone stalls on plateaus.
        _anneal(state, grouping, rng, cost, floor)
    _even_odd_tables(state, grouping, rng)
    return grouping


def _even_odd_tables(state: _State, grouping: Grouping, rng: random.Random) -> None:
    """Share the seats at tables of 3 or 5 fairly, by swaps that add no meeting cost.

    Designs leave the players beyond a multiple of 4 at the odd tables every time; a player who
    sits at a table of 3 once more than others is a small unfairness, a repeated meeting a worse
    one, so this runs after the meeting search and never trades against it.
    """
    if all(len(t) == 4 for pos in grouping for t in pos):
        return
    meets, mates, inc, odd = state.meets, state.mates, _INC, state.odd
    n = state.present
    where = [_where(pos, n) for pos in grouping]
    improved = True
    while improved:
        improved = False
        heavy = [
            (r, x)
            for r, tables in enumerate(grouping)
            for table in tables
            if len(table) != 4
            for x in table
            if odd[x] > state.odd_share - 1
        ]
        rng.shuffle(heavy)
        for r, x in heavy:
            tables, tab_of = grouping[r], where[r]
            a = tab_of[x]
            ta = tables[a]
            if len(ta) == 4 or x not in ta:
                continue
            row_x, mate_x = meets[x], mates[x]
            best = None
            for b, tb in enumerate(tables):
                if len(tb) != 4:
                    continue
                for y in tb:
                    if odd[y] + 1 >= odd[x]:
                        continue
                    row_y, mate_y = meets[y], mates[y]
                    delta = 0
                    for c in ta:
                        if c != x:
                            delta += inc[row_y[c]] + mate_y[c] - inc[row_x[c] - 1] - mate_x[c]
                    for c in tb:
                        if c != y:
                            delta += inc[row_x[c]] + mate_x[c] - inc[row_y[c] - 1] - mate_y[c]
                    key = (delta, odd[y], rng.random())
                    if delta <= 0 and (best is None or key < best[0]):
                        best = (key, b, y)
            if best is not None:
                _, b, y = best
                _swap(state, tables, tab_of, x, a, y, b)
                improved = True


def _cost_floor(state: _State, sizes: list[int], new_count: int) -> int:
    """Least possible cost: the pair meetings spread as evenly as allowed over the pairs."""
    n = state.present
    slots = new_count * sum(s * (s - 1) // 2 for s in sizes)
    allowed = n * (n - 1) // 2 - sum(1 for row in state.mates for m in row if m) // 2
    if slots <= allowed or allowed <= 0:
        return 0
    times, extra = divmod(slots, allowed)
    return (allowed - extra) * _CUM[times] + extra * _CUM[times + 1]


def _hint_from_previous(
    state: _State, previous: Plan, done: int, new_count: int
) -> list[list[list[int]]]:
    index = {pid: i for i, pid in enumerate(state.ids[: state.present])}
    hint = []
    for position in previous.positions[done : done + new_count]:
        hint.append([[index[p] for p in table if p in index] for table in position])
    return hint


def _design_hint(
    state: _State, roster: list[SeatingPlayer], new_count: int, rng: random.Random
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
        elif rounds >= 2:
            design, grouped = difference_design(m, rounds), True
        else:
            return None
    assert design is not None
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


def _build(
    state: _State,
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
    state: _State, sizes: list[int], groups: list[list[int]], rng: random.Random
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


def _tabu(state: _State, grouping: Grouping, rng: random.Random, floor: int = 0) -> int:
    """Swap players between tables of one position until no pair meets too often.

    Classic tabu search for the social golfer problem: pick a player in conflict, make the best
    swap that is not tabu, forbid moving those two back for a few iterations. Deltas are
    computed from the meeting counts, so one step costs O(players). Stops at `floor`, a lower
    bound of the cost, when it is reached.
    """
    meets, mates, inc = state.meets, state.mates, _INC
    cost = state.cost()
    if cost <= floor or len(grouping[0]) < 2:  # a single table: nothing to swap
        return cost
    best_cost = cost
    best = [[list(t) for t in pos] for pos in grouping]
    n = state.present
    tabu = [[0] * n for _ in grouping]
    where = [_where(pos, n) for pos in grouping]
    max_iters = 400 + 30 * n
    stale = 0
    conflicts = _conflicts(state, grouping)
    for it in range(1, max_iters + 1):
        if it % 16 == 0:
            conflicts = _conflicts(state, grouping)
        if not conflicts:
            break
        # A few players in conflict (possibly in different positions) compete for the best swap.
        movers = []
        for r, x in rng.sample(conflicts, min(3, len(conflicts))):
            if _in_conflict(state, grouping[r][where[r][x]], x):
                movers.append((r, x))
        if not movers:
            conflicts = _conflicts(state, grouping)  # stale entries: refresh the list
            continue
        choice = None
        best_delta = None
        for r, x in movers:
            tables, tab_of = grouping[r], where[r]
            a = tab_of[x]
            ta = tables[a]
            row_x, mate_x = meets[x], mates[x]
            leave_x = sum(inc[row_x[c] - 1] + mate_x[c] for c in ta if c != x)
            x_tabu = tabu[r][x] > it
            for b, tb in enumerate(tables):
                if b == a:
                    continue
                join_x = sum(inc[row_x[c]] + mate_x[c] for c in tb)
                for y in tb:
                    row_y, mate_y = meets[y], mates[y]
                    delta = (
                        sum(inc[row_y[c]] + mate_y[c] for c in ta if c != x)
                        - leave_x
                        + join_x
                        - inc[row_x[y]]
                        - mate_x[y]
                        - sum(inc[row_y[c] - 1] + mate_y[c] for c in tb if c != y)
                    )
                    if (x_tabu or tabu[r][y] > it) and cost + delta >= best_cost:
                        continue
                    key = (delta, rng.random())
                    if best_delta is None or key < best_delta:
                        best_delta, choice = key, (r, x, a, y, b)
        if choice is None:
            continue
        r, x, a, y, b = choice
        _swap(state, grouping[r], where[r], x, a, y, b)
        cost += best_delta[0]
        tabu[r][x] = it + rng.randint(4, 12)
        tabu[r][y] = it + rng.randint(4, 12)
        if cost < best_cost:
            best_cost, stale = cost, 0
            best = [[list(t) for t in pos] for pos in grouping]
            if cost <= floor:
                break
        else:
            stale += 1
            if stale > 60 + n:
                _perturb(state, grouping, where, conflicts, rng)
                cost, stale = state.cost(), 0
                conflicts = _conflicts(state, grouping)
    for pos in grouping:
        state.add_position(pos, -1)
    grouping[:] = best
    for pos in grouping:
        state.add_position(pos, 1)
    return best_cost


def _anneal(state: _State, grouping: Grouping, rng: random.Random, cost: int, floor: int) -> int:
    """Simulated annealing on swaps of a player in conflict with anyone of another table.

    Cheaper per step than the tabu search (one delta, not a whole neighbourhood), so it can take
    the many sideways steps that dense fields need to lose their last repeated meetings.
    """
    meets, mates, inc = state.meets, state.mates, _INC
    n = state.present
    where = [_where(pos, n) for pos in grouping]
    conflicts = _conflicts(state, grouping)
    best_cost = cost
    best = [[list(t) for t in pos] for pos in grouping]
    steps = 20_000 + 600 * n
    patience = 12_000 + 300 * n  # when repeats are forced, stop once no progress is made
    improved_at = 0
    temperature = 9.6
    for step in range(steps):
        if step - improved_at > patience:
            break
        if step % 64 == 0:
            conflicts = _conflicts(state, grouping)
            temperature = max(2.4, temperature * 0.995)
            if not conflicts:
                break
        r, x = conflicts[rng.randrange(len(conflicts))]
        tables, tab_of = grouping[r], where[r]
        a = tab_of[x]
        b = rng.randrange(len(tables) - 1)
        b += b >= a
        ta, tb = tables[a], tables[b]
        y = tb[rng.randrange(len(tb))]
        row_x, mate_x, row_y, mate_y = meets[x], mates[x], meets[y], mates[y]
        delta = 0
        for c in ta:
            if c != x:
                delta += inc[row_y[c]] + mate_y[c] - inc[row_x[c] - 1] - mate_x[c]
        for c in tb:
            if c != y:
                delta += inc[row_x[c]] + mate_x[c] - inc[row_y[c] - 1] - mate_y[c]
        if delta <= 0 or rng.random() < 2.718281828 ** (-delta / temperature):
            _swap(state, tables, tab_of, x, a, y, b)
            cost += delta
            if cost < best_cost:
                best_cost, improved_at = cost, step
                best = [[list(t) for t in pos] for pos in grouping]
                if cost <= floor:
                    break
    for pos in grouping:
        state.add_position(pos, -1)
    grouping[:] = best
    for pos in grouping:
        state.add_position(pos, 1)
    return best_cost


def _in_conflict(state: _State, table: list[int], x: int) -> bool:
    """x meets someone at this table too often, or sits at a table of 3 or 5 beyond their share."""
    if state.odd_weight and len(table) != 4 and state.odd[x] > state.odd_share:
        return True
    row, mate = state.meets[x], state.mates[x]
    return any(row[c] > 1 or mate[c] for c in table if c != x)


def _where(tables: list[list[int]], n: int) -> list[int]:
    tab_of = [0] * n
    for t, table in enumerate(tables):
        for p in table:
            tab_of[p] = t
    return tab_of


def _swap(
    state: _State, tables: list[list[int]], tab_of: list[int], x: int, a: int, y: int, b: int
) -> None:
    ta, tb = tables[a], tables[b]
    state.add_position([ta, tb], -1)
    ta[ta.index(x)] = y
    tb[tb.index(y)] = x
    tab_of[x], tab_of[y] = b, a
    state.add_position([ta, tb], 1)


def _perturb(
    state: _State,
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
        _swap(state, tables, tab_of, x, a, rng.choice(tables[b]), b)


def _conflicts(state: _State, grouping: Grouping) -> list[tuple[int, int]]:
    """(new position, player) pairs where the player meets someone too often or a teammate."""
    meets, mates, odd, share = state.meets, state.mates, state.odd, state.odd_share
    out = []
    for r, tables in enumerate(grouping):
        for table in tables:
            unusual = state.odd_weight and len(table) != 4
            for a in table:
                if unusual and odd[a] > share:
                    out.append((r, a))
                    continue
                row, mate = meets[a], mates[a]
                for b in table:
                    if b != a and (row[b] > 1 or mate[b]):
                        out.append((r, a))
                        break
    return out


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
