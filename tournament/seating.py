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
Then, in order: the seats at tables of 3 or 5 (the *odd tables*, a different game) shared as
evenly as the arithmetic allows, each player's count within 1 of every other's over the whole
plan; as few repeated meetings as possible (a third meeting costs far more than a second);
balanced directions per player. Fairness comes before repeats: where both cannot hold, the plan
says so in `Plan.notes`, with a lower bound on repeats.

How: known designs (affine plane, transversal designs from difference matrices, rotational
designs found offline) give zero-repeat movements where they exist, with players relabelled by the
seed; greedy starts do elsewhere. Each start is first made fair (odd seats handed from players
with more to players with fewer), then a tabu search and simulated annealing, both with
incremental meeting counts, lower the repeats by moves that never widen the odd-table spread.
Directions are balanced last (seating_directions). Re-plan by passing the positions already
played as `fixed` and the current plan as `previous`: played positions are kept exactly, unplayed
ones change as little as the new field allows, all counts cover the whole tournament.
`plan_figures` gives a plan's repeats, odd-table spread and direction spread with their bounds.
"""

from __future__ import annotations

import heapq
import itertools
import math
import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any, Protocol

from tournament.i18n import gettext_noop
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
# search never trades two second meetings for one third meeting. Teammates' counts start at
# _MATE, where a meeting costs more than any number of repeats.
_MATE = 100
_INC = (
    (0, 16, 480, 14_400, 432_000, 12_960_000)
    + (10**9,) * (_MATE - 6)
    + (10**12,) * (MAX_POSITIONS + 1)
)
_CUM = tuple(itertools.accumulate(_INC, initial=0))  # total cost of a pair met c times
_REPEAT = _INC[1]
# Annealing temperatures, in the units of _INC (a second meeting costs 16), and step budget.
_HOT, _COLD = 8.0, 2.0
_CYCLE = 50_000  # steps from _HOT to _COLD; a run stops after _PATIENCE cycles without progress
_PATIENCE = 2
_MAX_STEPS = 600_000  # all runs together: about 2 s of CPU
_RUNS = 3  # independent annealing runs
_REDEAL = 0.2  # share of annealing steps that redeal two tables instead of swapping two players


class SeatingError(ValueError):
    """A request that cannot be seated, meant for the arbiter.

    Like scoring.engine.DealError, it carries a French message template with named params,
    marked for the catalogue; the Django layer translates the template when it shows it
    (`gettext(error.template) % error.params`). str() gives the French message.
    """

    def __init__(self, template: str, params: Mapping[str, Any] | None = None):
        self.template = template
        self.params = dict(params or {})
        super().__init__(self.template % self.params)

    def __str__(self) -> str:
        return self.template % self.params

    def __reduce__(self) -> tuple[Any, ...]:
        # Picklable despite the custom __init__ (parallel test workers, caches).
        return (type(self), (self.template, self.params))


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
    """Every position's tables; each table lists player ids in seat order N, E, S, W[, X].

    `notes` (French, for the arbiter) say what the plan could not reach and why: repeated
    meetings with their lower bound, an odd-table spread that played positions impose.
    """

    positions: tuple[Position, ...]
    notes: tuple[str, ...] = field(default=(), compare=False)

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
        raise SeatingError(gettext_noop("Il faut au moins 3 joueurs pour former une table."))
    rest = players % 4
    if rest == 0:
        return [4] * (players // 4)
    if policy == "five":
        if players < 5 * rest:
            raise SeatingError(
                gettext_noop(
                    "Impossible de placer %(players)s joueurs à des tables de 4 et de 5 : "
                    "choisissez des tables de 3."
                ),
                {"players": players},
            )
        return [4] * ((players - 5 * rest) // 4) + [5] * rest
    threes = 4 - rest
    if players < 3 * threes:
        raise SeatingError(
            gettext_noop(
                "Impossible de placer %(players)s joueurs à des tables de 4 et de 3 : "
                "choisissez des tables de 5."
            ),
            {"players": players},
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
    outcome = _best_groupings(state, roster, sizes, done, new_count, previous, rng)
    seated = assign_directions(state.ids, fixed_positions, outcome.grouping, rng)
    return Plan(fixed_positions + seated, _notes(state, outcome, sizes))


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
        raise SeatingError(
            gettext_noop("Formule de tables inconnue : « %(policy)s » (five ou three)."),
            {"policy": policy},
        )
    return policy


def _check_players(players: Iterable[PlayerLike]) -> list[SeatingPlayer]:
    roster = [SeatingPlayer(int(p.id), getattr(p, "team", None)) for p in players]
    ids = [p.id for p in roster]
    if len(set(ids)) != len(ids):
        twice = sorted({i for i in ids if ids.count(i) > 1})
        raise SeatingError(
            gettext_noop("Joueurs en double : %(players)s."),
            {"players": ", ".join(map(str, twice))},
        )
    if len(roster) < 3:
        raise SeatingError(gettext_noop("Il faut au moins 3 joueurs pour former une table."))
    return roster


def _check_fixed(fixed: Sequence[Sequence[Sequence[int]]], positions: int) -> tuple[Position, ...]:
    if positions < 1 or positions > MAX_POSITIONS:
        raise SeatingError(
            gettext_noop("Le nombre de positions doit être entre 1 et %(max)s."),
            {"max": MAX_POSITIONS},
        )
    if len(fixed) > positions:
        raise SeatingError(gettext_noop("Plus de positions jouées que de positions prévues."))
    out = []
    for number, position in enumerate(fixed, start=1):
        tables = tuple(tuple(int(p) for p in table) for table in position)
        seated = [p for table in tables for p in table]
        if len(set(seated)) != len(seated):
            raise SeatingError(
                gettext_noop("Position %(number)s : un joueur y est assis deux fois."),
                {"number": number},
            )
        if any(not 3 <= len(table) <= 5 for table in tables):
            raise SeatingError(
                gettext_noop("Position %(number)s : une table n'a pas 3 à 5 joueurs."),
                {"number": number},
            )
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
            gettext_noop(
                "Une équipe de %(size)s joueurs ne peut pas être répartie sur %(tables)s "
                "tables sans que deux coéquipiers se rencontrent."
            ),
            {"size": largest, "tables": len(sizes)},
        )
    groups = list(team_sizes.values()) + [1] * sum(1 for p in roster if p.team is None)
    ordered = sorted(sizes, reverse=True)
    for k in range(1, len(ordered) + 1):
        if sum(ordered[:k]) > sum(min(g, k) for g in groups):
            raise SeatingError(
                gettext_noop("Les équipes sont trop grandes pour séparer tous les coéquipiers.")
            )


def _positions_of(
    plan: Plan | Sequence[Sequence[Sequence[int]]],
) -> Sequence[Sequence[Sequence[int]]]:
    return plan.positions if isinstance(plan, Plan) else plan


# --- Search state ---------------------------------------------------------------------------


@dataclass
class _State:
    """Players as indices 0..n-1 (present players first) with meeting and odd-table counts.

    Teammates' meeting counts start at _MATE, so one more meeting prices them at _INC[_MATE]:
    the hard rule costs nothing extra in the inner loops.
    """

    ids: list[int]
    present: int
    meets: list[list[int]]
    odd: list[int]  # times each player sat at a table of 3 or 5
    mates: list[int]  # how many teammates each player has

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
        mates = [0] * n
        for a, b in itertools.combinations(range(len(roster)), 2):
            if roster[a].team is not None and roster[a].team == roster[b].team:
                meets[a][b] = meets[b][a] = _MATE
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
        return cls(ids, len(roster), meets, odd, mates)

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
        row = self.meets[x]
        return sum(_INC[row[c]] for c in table)

    def cost(self) -> int:
        """Total convex cost of the meeting counts (teammates priced per meeting)."""
        cum = _CUM.__getitem__
        total = sum(sum(map(cum, row[a + 1 :])) for a, row in enumerate(self.meets))
        return total - sum(self.mates) // 2 * _CUM[_MATE]

    def repeats(self) -> int:
        """E over the counts: meetings beyond the first (teammates' head start left out)."""
        total = 0
        for row, mates in zip(self.meets, self.mates, strict=True):
            total += sum(row) - (len(row) - row.count(0)) - mates * (_MATE - 1)
        return total // 2

    def odd_spread(self) -> int:
        counts = self.odd[: self.present]
        return max(counts) - min(counts)


def _swap_delta(meets: list[list[int]], ta: list[int], tb: list[int], x: int, y: int) -> int:
    """Cost change when x (at table ta) and y (at table tb) trade places."""
    inc = _INC
    row_x, row_y = meets[x], meets[y]
    delta = 0
    for c in ta:
        if c != x:
            delta += inc[row_y[c]] - inc[row_x[c] - 1]
    for c in tb:
        if c != y:
            delta += inc[row_x[c]] - inc[row_y[c] - 1]
    return delta


def _move(
    state: _State, tables: list[list[int]], tab_of: list[int], x: int, a: int, y: int, b: int
) -> None:
    """x (at table a) and y (at table b) trade places; counts follow."""
    meets, ta, tb = state.meets, tables[a], tables[b]
    row_x, row_y = meets[x], meets[y]
    for c in ta:
        if c != x:
            row_x[c] -= 1
            meets[c][x] -= 1
            row_y[c] += 1
            meets[c][y] += 1
    for c in tb:
        if c != y:
            row_y[c] -= 1
            meets[c][y] -= 1
            row_x[c] += 1
            meets[c][x] += 1
    ta[ta.index(x)] = y
    tb[tb.index(y)] = x
    tab_of[x], tab_of[y] = b, a
    if (len(ta) == 4) != (len(tb) == 4):
        shift = 1 if len(ta) == 4 else -1  # x now sits at tb
        state.odd[x] += shift
        state.odd[y] -= shift


def _fair_odd_counts(state: _State, sizes: list[int], new_count: int) -> list[int]:
    """The fairest final counts of odd-table seats of the present players, by water-filling.

    Each new position hands its seats at tables of 3 or 5 to distinct players; giving each seat
    to a player with the fewest so far (among those not yet served in every new position)
    minimises both the spread and the sum of squares of the counts.
    """
    seats = new_count * sum(s for s in sizes if s != 4)
    return _water_fill(state.odd[: state.present], [new_count] * state.present, seats)


def _fairness_gap(state: _State, fair: list[int]) -> int:
    """How far the current odd counts are from the fairest (0 when as even as can be)."""
    return sum(k * k for k in state.odd[: state.present]) - sum(k * k for k in fair)


def _share_odd_seats(state: _State, grouping: Grouping, rng: random.Random) -> None:
    """Hand seats at tables of 3 or 5 from players who have 2 more than others to them.

    Each hand-over is a swap within one new position, the one that adds the least meeting
    cost; it lowers the sum of squared counts, so the loop ends, at the water-filling optimum
    unless played positions pin a player (then no position lets them hand a seat over).
    """
    if all(len(t) == 4 for pos in grouping for t in pos):
        return
    n, odd, meets = state.present, state.odd, state.meets
    where = [_where(pos, n) for pos in grouping]
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
                        key = (_swap_delta(meets, ta, tables[b], x, y), odd[y], rng.random())
                        if best is None or key < best[0]:
                            best = (key, r, x, a, y, b)
            if best is not None:
                break
        if best is None:
            return
        _, r, x, a, y, b = best
        _move(state, grouping[r], where[r], x, a, y, b)


# --- Groupings: who sits with whom ----------------------------------------------------------

Grouping = list[list[list[int]]]  # new positions -> tables -> player indices


@dataclass
class _Outcome:
    """What the search found, and what it knows about what it could not reach."""

    grouping: Grouping
    fair_spread: int  # the best odd-table spread the arithmetic allows
    repeats_floor: int  # no plan with that spread has fewer repeated meetings
    uneven: tuple[int, int] | None  # (repeats, odd spread) of a cheaper start that was unfair


def _best_groupings(
    state: _State,
    roster: list[SeatingPlayer],
    sizes: list[int],
    done: int,
    new_count: int,
    previous: Plan | None,
    rng: random.Random,
) -> _Outcome:
    """Try each starting point (previous plan, design, greedy), improve it, keep the cheapest.

    Every start is first made fair (odd-table seats shared as evenly as the arithmetic allows);
    the searches then only make moves that keep it so, and lower the meeting cost.
    """
    fair = _fair_odd_counts(state, sizes, new_count)
    repeats_floor = _repeats_floor(state, sizes, new_count, fair, done)
    floor = max(_cost_floor(state, sizes, new_count), _REPEAT * repeats_floor)
    if done:
        floor = 0  # played positions carry costs the floor does not know
    hints: list[list[list[list[int]]] | None] = []
    if previous is not None:
        hints.append(_hint_from_previous(state, previous, done, new_count))
    design = _design_hint(state, roster, new_count, rng)
    if design is not None:
        hints.append(design)
    hints.append(None)  # plain greedy

    best: tuple[int, Grouping] | None = None
    uneven: tuple[int, int] | None = None
    clean = False
    for hint in hints:
        grouping = _build(state, sizes, new_count, hint, rng)
        if _fairness_gap(state, fair) > 0:
            before = (state.repeats(), state.odd_spread())
            if uneven is None or before < uneven:
                uneven = before
            _share_odd_seats(state, grouping, rng)
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
    if not clean and len(sizes) > 1:
        # The best start still has repeats: anneal it, the tabu search alone stalls on plateaus.
        # Independent runs from fresh starts make the result depend far less on the seed than
        # one long run. A design relabelled is the better start at tables of 4 only: with
        # tables of 3 or 5, sharing them fairly breaks it up anyway.
        steps = _anneal_steps(state.present, new_count) // _RUNS
        cost = _anneal(state, grouping, rng, cost, floor, steps)
        for _ in range(_RUNS - 1):
            if cost <= floor:
                break
            for pos in grouping:
                state.add_position(pos, -1)
            fresh = None
            if design is not None and all(s == 4 for s in sizes):
                fresh = _design_hint(state, roster, new_count, rng)
            other = _build(state, sizes, new_count, fresh, rng)
            _share_odd_seats(state, other, rng)
            other_cost = _anneal(state, other, rng, state.cost(), floor, steps)
            if other_cost < cost:
                cost, grouping = other_cost, other
            else:
                for pos in other:
                    state.add_position(pos, -1)
                for pos in grouping:
                    state.add_position(pos, 1)
    _even_prefixes(state, grouping)
    spread = max(fair) - min(fair)
    if uneven is not None and (uneven[0] >= state.repeats() or uneven[1] <= spread):
        uneven = None  # fairness cost nothing
    return _Outcome(grouping, spread, repeats_floor, uneven)


def _even_prefixes(state: _State, grouping: Grouping) -> None:
    """Space each player's odd-table seats over time, by exchanges that add no meeting cost.

    The whole plan is already fair; this makes every prefix as fair as it can be for free (the
    sum over prefixes of squared counts goes down), so that a withdrawal or a late arrival
    half-way leaves counts a re-plan can still even out. An exchange moves x's odd seat from
    position r to a later position s and y's the other way.
    """
    if all(len(t) == 4 for pos in grouping for t in pos):
        return
    n, meets = state.present, state.meets
    where = [_where(pos, n) for pos in grouping]
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
                    delta = _swap_delta(meets, tables_r[a], tables_r[b], x, y)
                    _move(state, tables_r, where[r], x, a, y, b)
                    delta += _swap_delta(meets, tables_s[c], tables_s[d], x, y)
                    if delta > 0:
                        _move(state, tables_r, where[r], y, a, x, b)  # undo
                        continue
                    _move(state, tables_s, where[s], x, c, y, d)
                    improved = True
                    break
                if improved:
                    break
            if improved:
                break


def _notes(state: _State, outcome: _Outcome, sizes: list[int]) -> tuple[str, ...]:
    """What the arbiter should know about a plan that is not perfect, in French."""
    notes = []
    odd_size = next((s for s in sizes if s != 4), 0)
    tables = {5: "tables de 5", 3: "tables de 3"}.get(odd_size, "tables de 3 ou 5")
    if outcome.fair_spread > 1:
        notes.append(
            f"Les {tables} ne peuvent pas être mieux partagées : avec les positions déjà jouées, "
            f"l'écart entre joueurs est d'au moins {outcome.fair_spread}."
        )
    repeats = state.repeats()
    if repeats:
        notes.append(
            f"Rencontres répétées : {repeats} (au moins {outcome.repeats_floor} inévitables : les "
            "positions demandent plus de rencontres qu'il ne reste d'adversaires jamais "
            "rencontrés)."
            if outcome.repeats_floor
            else f"Rencontres répétées : {repeats} (aucun décompte ne les impose, mais aucun plan "
            "sans répétition n'a été trouvé)."
        )
    if outcome.uneven is not None:
        fewer, spread = outcome.uneven
        notes.append(
            f"Un plan à {fewer} rencontres répétées existait, mais les {tables} y revenaient "
            f"aux mêmes joueurs (écart {spread} entre joueurs) : le partage équitable passe avant."
        )
    return tuple(notes)


def _anneal_steps(players: int, new_count: int) -> int:
    """The annealing budget, in proportion to the seats to plan, bounded."""
    return min(_MAX_STEPS, 3_000 * players * new_count)


def _cost_floor(state: _State, sizes: list[int], new_count: int) -> int:
    """Least possible cost: the pair meetings spread as evenly as allowed over the pairs."""
    n = state.present
    slots = new_count * sum(s * (s - 1) // 2 for s in sizes)
    allowed = n * (n - 1) // 2 - sum(state.mates[:n]) // 2
    if slots <= allowed or allowed <= 0:
        return 0
    times, extra = divmod(slots, allowed)
    return (allowed - extra) * _CUM[times] + extra * _CUM[times + 1]


def _repeats_floor(
    state: _State, sizes: list[int], new_count: int, fair: list[int], done: int
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
    return fixed + max(0, overall, -(-each // 2))


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


def _keeps_fair(odd: list[int], ta: list[int], tb: list[int], x: int, y: int) -> bool:
    """Whether x (at ta) and y (at tb) may trade places without widening the odd-table spread.

    Between tables of the same kind always; between a table of 4 and one of 3 or 5 only when the
    player who takes the odd seat had at least one fewer than the one who leaves it.
    """
    if (len(ta) == 4) == (len(tb) == 4):
        return True
    leaving, joining = (x, y) if len(ta) != 4 else (y, x)
    return odd[joining] < odd[leaving]


def _tabu(state: _State, grouping: Grouping, rng: random.Random, floor: int = 0) -> int:
    """Swap players between tables of one position until no pair meets too often.

    Classic tabu search for the social golfer problem: pick a player in conflict, make the best
    swap that is not tabu, forbid moving those two back for a few iterations. Deltas are
    computed from the meeting counts, so one step costs O(players). Stops at `floor`, a lower
    bound of the cost, when it is reached. Swaps that would widen the odd-table spread are
    left out.
    """
    meets, odd, inc = state.meets, state.odd, _INC
    cost = state.cost()
    if cost <= floor or len(grouping[0]) < 2:  # a single table: nothing to swap
        return cost
    best_cost = cost
    best = [[list(t) for t in pos] for pos in grouping]
    n = state.present
    tabu = [[0] * n for _ in grouping]
    where = [_where(pos, n) for pos in grouping]
    max_iters = 400 + 30 * n
    stale = kicks = 0
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
        # The best swap so far: (delta, tie-breaking draw) and (r, x, a, y, b).
        choice: tuple[tuple[int, float], tuple[int, int, int, int, int]] | None = None
        for r, x in movers:
            tables, tab_of = grouping[r], where[r]
            a = tab_of[x]
            ta = tables[a]
            row_x = meets[x]
            leave_x = sum(inc[row_x[c] - 1] for c in ta if c != x)
            x_tabu = tabu[r][x] > it
            for b, tb in enumerate(tables):
                if b == a:
                    continue
                join_x = sum(inc[row_x[c]] for c in tb)
                same_kind = (len(ta) == 4) == (len(tb) == 4)
                for y in tb:
                    if not same_kind and not _keeps_fair(odd, ta, tb, x, y):
                        continue
                    row_y = meets[y]
                    delta = (
                        sum(inc[row_y[c]] for c in ta if c != x)
                        - leave_x
                        + join_x
                        - inc[row_x[y]]
                        - sum(inc[row_y[c] - 1] for c in tb if c != y)
                    )
                    if (x_tabu or tabu[r][y] > it) and cost + delta >= best_cost:
                        continue
                    key = (delta, rng.random())
                    if choice is None or key < choice[0]:
                        choice = key, (r, x, a, y, b)
        if choice is None:
            continue
        (best_delta, _draw), (r, x, a, y, b) = choice
        _move(state, grouping[r], where[r], x, a, y, b)
        cost += best_delta
        tabu[r][x] = it + rng.randint(4, 12)
        tabu[r][y] = it + rng.randint(4, 12)
        if cost < best_cost:
            best_cost, stale, kicks = cost, 0, 0
            best = [[list(t) for t in pos] for pos in grouping]
            if cost <= floor:
                break
        else:
            stale += 1
            if stale > 60 + n:
                kicks += 1
                if kicks > 3:  # forced repeats: the annealing does better from here
                    break
                _perturb(state, grouping, where, conflicts, rng)
                cost, stale = state.cost(), 0
                conflicts = _conflicts(state, grouping)
    _restore(state, grouping, best)
    return best_cost


def _anneal(
    state: _State, grouping: Grouping, rng: random.Random, cost: int, floor: int, steps: int
) -> int:
    """Simulated annealing on swaps of a player in conflict with anyone of another table.

    Cheaper per step than the tabu search (one delta, not a whole neighbourhood), so it can take
    the many sideways steps that dense fields need to lose their last repeated meetings. Some
    steps redeal the conflicted player's table and another of the same kind instead. A swap
    that would hand an odd-table seat to a player who has as many as the one leaving it is made
    fair by the reverse hand-over in another position (both swaps are judged together), so the
    odd-table counts never move away from the fairest.
    """
    meets, odd, inc = state.meets, state.odd, _INC
    n = state.present
    rounds = len(grouping)
    where = [_where(pos, n) for pos in grouping]
    fours = [[len(t) == 4 for t in pos] for pos in grouping]  # sizes never change
    best_cost = cost
    best = [[list(t) for t in pos] for pos in grouping]
    # Recounting conflicts costs a pass over every seat: at most a few operations per step.
    refresh = max(128 + n * rounds // 16, n * rounds // 4)
    # Cycles of cooling from _HOT to _COLD, each from the best grouping so far; the search stops
    # when a whole cycle found nothing better.
    cycle = min(steps, _CYCLE)
    cooling = (_COLD / _HOT) ** (1 / cycle)
    temperature = _HOT
    improved_at = 0
    conflicts: list[tuple[int, int]] = []
    exp, rand = math.exp, rng.random
    for step in range(steps):
        if step % cycle == 0 and step:
            if step - improved_at >= cycle * _PATIENCE:
                break
            temperature = _HOT
            _restore(state, grouping, [[list(t) for t in pos] for pos in best])
            where = [_where(pos, n) for pos in grouping]
            cost = best_cost
            conflicts = _conflicts(state, grouping)
        if step % refresh == 0:
            conflicts = _conflicts(state, grouping)
            if not conflicts:
                break
        temperature *= cooling
        r, x = conflicts[int(rand() * len(conflicts))]
        tables, tab_of, four = grouping[r], where[r], fours[r]
        a = tab_of[x]
        b = int(rand() * (len(tables) - 1))
        b += b >= a
        if four[a] == four[b] and rand() < _REDEAL:
            delta = _repartition(state, tables, tab_of, a, b, temperature, rand)
        else:
            tb = tables[b]
            y = tb[int(rand() * len(tb))]
            if four[a] != four[b] and (odd[y] >= odd[x] if four[b] else odd[x] >= odd[y]):
                delta = _exchange(state, grouping, where, fours, r, x, y, temperature, rand)
            else:
                row_x, row_y = meets[x], meets[y]
                delta = 0
                for c in tables[a]:
                    if c != x:
                        delta += inc[row_y[c]] - inc[row_x[c] - 1]
                for c in tb:
                    if c != y:
                        delta += inc[row_x[c]] - inc[row_y[c] - 1]
                if delta > 0 and rand() >= exp(-delta / temperature):
                    continue
                _move(state, tables, tab_of, x, a, y, b)
        if delta is None:
            continue
        cost += delta
        if cost < best_cost:
            best_cost, improved_at = cost, step
            best = [[list(t) for t in pos] for pos in grouping]
            if cost <= floor:
                break
    _restore(state, grouping, best)
    return best_cost


@cache
def _splits(size_a: int, size_b: int) -> tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]:
    """Every way to deal size_a + size_b players (0..) into two tables, as pair numbers.

    Each split is (players of the first table, pair numbers inside either table), a pair (i, j)
    with i < j numbered i * m + j. The split that keeps both tables as they are comes first;
    equal sizes count each split once (player 0 stays at the first table).
    """
    m = size_a + size_b
    out = []
    for chosen in itertools.combinations(range(m), size_a):
        if size_a == size_b and 0 not in chosen:
            continue
        rest = [i for i in range(m) if i not in chosen]
        pairs = [i * m + j for part in (chosen, rest) for i, j in itertools.combinations(part, 2)]
        out.append((chosen, tuple(pairs)))
    return tuple(out)


def _repartition(
    state: _State,
    tables: list[list[int]],
    tab_of: list[int],
    a: int,
    b: int,
    temperature: float,
    rand: Callable[[], float],
) -> int | None:
    """Deal the players of two tables of one kind between them again, any split.

    Reaches in one step the double swaps a single swap would only reach through a worse plan.
    A split that costs no more is taken at random among those; otherwise a random split, on the
    annealing's terms. Returns the cost change, or None when nothing changed.
    """
    ta, tb = tables[a], tables[b]
    people = ta + tb
    k, m = len(ta), len(people)
    meets, inc = state.meets, _INC
    cost = [0] * (m * m)
    for i in range(m):
        row = meets[people[i]]
        for j in range(i + 1, m):
            # What the pair would cost at one table if this position did not seat them yet.
            cost[i * m + j] = inc[row[people[j]] - ((i < k) == (j < k))]
    splits = _splits(k, m - k)
    price = cost.__getitem__
    current = sum(map(price, splits[0][1]))
    good = []
    for chosen, pairs in splits[1:]:
        delta = sum(map(price, pairs)) - current
        if delta <= 0:
            good.append((delta, chosen))
    if good:
        delta, chosen = good[int(rand() * len(good))]
    else:
        chosen, pairs = splits[1 + int(rand() * (len(splits) - 1))]
        delta = sum(map(price, pairs)) - current
        if rand() >= math.exp(-delta / temperature):
            return None
    state.add_position([ta, tb], -1)
    ta[:] = [people[i] for i in chosen]
    tb[:] = [people[i] for i in range(m) if i not in chosen]
    for p in ta:
        tab_of[p] = a
    for p in tb:
        tab_of[p] = b
    state.add_position([ta, tb], 1)
    return delta


def _exchange(
    state: _State,
    grouping: Grouping,
    where: list[list[int]],
    fours: list[list[bool]],
    r: int,
    x: int,
    y: int,
    temperature: float,
    rand: Callable[[], float],
) -> int | None:
    """Swap x and y in position r and back in another position where their tables' kinds are
    the other way round, so that both keep their odd-table counts. Made when the annealing
    accepts the pair of swaps; returns its cost change, or None when nothing was done."""
    a, b = where[r][x], where[r][y]
    leaving, joining = (y, x) if fours[r][a] else (x, y)
    others = [
        s
        for s, (tab_of, four) in enumerate(zip(where, fours, strict=True))
        if s != r and not four[tab_of[joining]] and four[tab_of[leaving]]
    ]
    if not others:
        return None
    s = others[int(rand() * len(others))]
    meets, inc = state.meets, _INC
    ta, tb = grouping[r][a], grouping[r][b]
    delta = _swap_delta(meets, ta, tb, x, y)
    # The second swap's cost as it will be after the first: x has left ta for tb, y the reverse.
    shift = {c: 1 for c in ta if c != x}
    shift.update((c, -1) for c in tb if c != y)
    row_x, row_y = meets[x], meets[y]
    c_, d_ = where[s][x], where[s][y]
    for c in grouping[s][c_]:
        if c != x:
            k = shift.get(c, 0)
            delta += inc[row_y[c] + k] - inc[row_x[c] - k - 1]
    for c in grouping[s][d_]:
        if c != y:
            k = shift.get(c, 0)
            delta += inc[row_x[c] - k] - inc[row_y[c] + k - 1]
    if delta > 0 and rand() >= math.exp(-delta / temperature):
        return None
    _move(state, grouping[r], where[r], x, a, y, b)
    _move(state, grouping[s], where[s], x, c_, y, d_)
    return delta


def _restore(state: _State, grouping: Grouping, best: Grouping) -> None:
    """Put the best grouping seen back in place, counts included."""
    for pos in grouping:
        state.add_position(pos, -1)
    grouping[:] = best
    for pos in grouping:
        state.add_position(pos, 1)


def _in_conflict(state: _State, table: list[int], x: int) -> bool:
    """x meets someone at this table too often (or a teammate)."""
    row = state.meets[x]
    return any(row[c] > 1 for c in table if c != x)


def _where(tables: list[list[int]], n: int) -> list[int]:
    tab_of = [0] * n
    for t, table in enumerate(tables):
        for p in table:
            tab_of[p] = t
    return tab_of


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
        y = rng.choice(tables[b])
        if _keeps_fair(state.odd, tables[a], tables[b], x, y):
            _move(state, tables, tab_of, x, a, y, b)


def _conflicts(state: _State, grouping: Grouping) -> list[tuple[int, int]]:
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
    change); repeats cover everybody who sat.
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
    fairest = _water_fill([0] * len(ids), [played[p] for p in ids], total)
    directions = [c for p, c in direction_counts(plan).items() if p in played]
    spreads = [max(c[d] for d in "NESW") - min(c[d] for d in "NESW") for c in directions]
    return PlanFigures(
        repeats=repeated_meetings(plan),
        repeats_floor=_plan_repeats_floor(plan, roster),
        odd_spread=max(odd.values(), default=0) - min(odd.values(), default=0),
        odd_spread_floor=max(fairest, default=0) - min(fairest, default=0),
        direction_spread=max(spreads, default=0),
        direction_spread_floor=direction_spread_floor(plan, ids),
    )


def _water_fill(counts: list[int], caps: list[int], units: int) -> list[int]:
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
    possible.
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
    return max(0, slots - pairs, -(-each // 2))


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
