"""The exact plan for small fields: a constraint model (OR-Tools CP-SAT) minimising repeats.

For a first plan of a small field (16 players or fewer) the whole plan fits in one model:
x[p, r, t] says that player p sits at table t in position r, y[i, j, r] that players i and j
share a table in position r, and the objective counts E, the meetings beyond the first over all
pairs, then, to break ties, how much the repeats pile up on the same pairs (C(m - 1, 2) for a
pair met m times: three pairs met twice rather than one pair met four times). The hard rules
are constraints: one seat per player and position, the table sizes, teammates never at one
table, and every player's count of seats at tables of 3 or 5 within one of everyone else's.

Symmetries make the search waste its time on copies of one plan, so the model keeps one of each
(any plan can be relabelled into that form, so nothing better is cut off):

- without teams players are interchangeable, so position 1 is fixed (players 0..3 at table 1,
  4..7 at table 2, …), positions 2..R come in increasing order of the pairs they repeat from
  position 1, and in position 2 the players of each table of position 1 sit at tables in the
  order of their numbers;
- in every position, tables of one size come in the order of their smallest player (players are
  not relabelled by it, tables are).

A re-plan keeps the positions already played: they come in as `Earlier`, every pair's meetings
and every player's seats at tables of 3 or 5 so far. E then counts those meetings too, the odd
seats are kept within the fair range over the whole tournament, and players are no longer
interchangeable (only the order of tables is broken).

The solver stops at a deterministic time limit (OR-Tools' own work unit, close to a second of
CPU, so the same request always gives the same plan) with the best plan found, its proven lower
bound on E and whether the plan is optimal. A complete plan (the local search's) is given as a
hint, so the solver starts from it and can only do better. OR-Tools stays behind this module:
the rest of the package sees lists of tables of player indices.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

from ortools.sat.python import cp_model

Grouping = list[list[list[int]]]  # positions -> tables -> player indices (as in `state`)


@dataclass(frozen=True)
class Earlier:
    """What the positions already played leave to a re-plan, over players 0..n-1 (present).

    `meetings[i][j]`: times i and j met; `odd[i]`: i's seats at tables of 3 or 5; `odd_range`:
    the fewest and most such seats each player may end with (the fair range of the search).
    """

    meetings: list[list[int]]
    odd: list[int]
    odd_range: tuple[int, int]


@dataclass(frozen=True)
class ExactPlan:
    """What the solver found: the grouping, its repeats and the proven bound on repeats."""

    grouping: Grouping
    repeats: int
    piling: int  # over pairs met m times, C(m - 1, 2): repeats piled on the same pairs
    repeats_bound: int  # no plan of this field has fewer repeats (proven by the solver)

    @property
    def optimal(self) -> bool:
        return self.repeats <= self.repeats_bound


def exact_plan(
    teams: Sequence[int | None],
    sizes: Sequence[int],
    positions: int,
    hint: Grouping | None = None,
    budget: float = 3.0,
    seed: int = 0,
    lower: int = 0,
    earlier: Earlier | None = None,
) -> ExactPlan | None:
    """The fewest repeats for players 0..n-1 (`teams[i]`: player i's team or None) seated at
    tables of `sizes` (one position; tables of 4 first, then the 3s or 5s) in `positions` rounds.

    `hint` is a valid grouping to start from (its tables need not be in `sizes`' order);
    `lower` a lower bound on E already proven (`bounds`), which the solver's LP may not see.
    With `earlier` (a re-plan), E and the bound count the earlier meetings of these players too.
    Returns None when the solver found no plan within `budget` (the caller keeps its own).
    """
    model = _Model(list(teams), sorted(sizes, key=lambda s: (s != 4, s)), positions, earlier)
    if hint is not None:
        model.hint(hint)
    if lower > 0:
        model.model.add(sum(model.excess) >= lower)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1  # deterministic, and the machine is shared
    solver.parameters.random_seed = seed
    solver.parameters.max_deterministic_time = budget
    status = solver.solve(model.model)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return None
    grouping = model.grouping(solver)
    repeats = sum(int(solver.value(e)) for e in model.excess)
    piling = sum(int(solver.value(e)) for e in model.piling)
    # weight * E + piling >= the objective's bound, piling < weight: E >= bound // weight.
    bound = int(solver.best_objective_bound + 1e-6) // model.weight
    if status == cp_model.OPTIMAL:
        bound = repeats
    return ExactPlan(grouping, repeats, piling, max(0, bound))


class _Model:
    """The CP-SAT model of one request, with its variables (see the module's docstring)."""

    def __init__(
        self,
        teams: list[int | None],
        sizes: list[int],
        positions: int,
        earlier: Earlier | None = None,
    ) -> None:
        self.n, self.sizes, self.rounds = len(teams), sizes, positions
        self.teams, self.earlier = teams, earlier
        self.model = m = cp_model.CpModel()
        n, tables = self.n, range(len(sizes))
        self.x = {
            (p, r, t): m.new_bool_var(f"x{p}_{r}_{t}")
            for p in range(n)
            for r in range(positions)
            for t in tables
        }
        x = self.x
        for p, r in itertools.product(range(n), range(positions)):
            m.add_exactly_one(x[p, r, t] for t in tables)
        for r, t in itertools.product(range(positions), tables):
            m.add(sum(x[p, r, t] for p in range(n)) == sizes[t])
        self.y: dict[tuple[int, int, int], cp_model.IntVar] = {}
        for i, j in itertools.combinations(range(n), 2):
            mates = teams[i] is not None and teams[i] == teams[j]
            for r in range(positions):
                if mates:
                    for t in tables:
                        m.add_at_most_one(x[i, r, t], x[j, r, t])
                    continue
                met = m.new_bool_var(f"y{i}_{j}_{r}")
                self.y[i, j, r] = met
                for t in tables:
                    m.add_bool_or(~x[i, r, t], ~x[j, r, t], met)
        # Each player meets exactly the others at their table: with the clauses above, y is
        # exactly "at one table", and the linear relaxation knows every player's meetings.
        for i, r in itertools.product(range(n), range(positions)):
            m.add(
                sum(self.met(i, j, r) for j in range(n) if j != i)
                == sum((sizes[t] - 1) * x[i, r, t] for t in tables)
            )
        self._fair_odd_tables()
        self._break_symmetries()
        self.pairs = [(i, j) for i, j in itertools.combinations(range(n), 2) if (i, j, 0) in self.y]
        self._objective()

    def before(self, i: int, j: int) -> int:
        """Meetings of i and j in the positions already played (0 in a first plan)."""
        return self.earlier.meetings[i][j] if self.earlier is not None else 0

    def _objective(self) -> None:
        """E first; piling (C(m - 1, 2) per pair met m times) only between plans of equal E."""
        m, rounds = self.model, self.rounds
        self.excess: list[cp_model.IntVar] = []
        self.piling: list[cp_model.IntVar] = []  # sum over k >= 2 of max(0, m - k)
        most = rounds + max((self.before(i, j) for i, j in self.pairs), default=0)
        for i, j in self.pairs:
            count = sum(self.y[i, j, r] for r in range(rounds)) + self.before(i, j)
            top = rounds + self.before(i, j)
            excess = m.new_int_var(0, top, f"e{i}_{j}")
            m.add(excess >= count - 1)
            self.excess.append(excess)
            for k in range(2, most):
                beyond = m.new_int_var(0, max(0, top - k), f"f{i}_{j}_{k}")
                m.add(beyond >= count - k)
                self.piling.append(beyond)
        self.most = most
        self.weight = len(self.pairs) * (most - 1) * (most - 2) // 2 + 1
        m.minimize(self.weight * sum(self.excess) + sum(self.piling))

    def met(self, i: int, j: int, r: int) -> cp_model.IntVar | int:
        """Whether i and j share a table in position r (0 for teammates, who never do)."""
        return self.y.get((min(i, j), max(i, j), r), 0)

    def _fair_odd_tables(self) -> None:
        odd = [t for t, size in enumerate(self.sizes) if size != 4]
        if not odd:
            return
        seats = self.rounds * sum(self.sizes[t] for t in odd)
        low, high = seats // self.n, -(-seats // self.n)
        so_far = [0] * self.n
        if self.earlier is not None:
            (low, high), so_far = self.earlier.odd_range, self.earlier.odd
        for p in range(self.n):
            count = sum(self.x[p, r, t] for r in range(self.rounds) for t in odd)
            self.model.add_linear_constraint(count, low - so_far[p], high - so_far[p])

    def _break_symmetries(self) -> None:
        m, x, n, sizes = self.model, self.x, self.n, self.sizes
        free = self.interchangeable
        first = 1 if free else 0
        if free:
            for p, t in enumerate(self._blocks_of_first()):
                m.add(x[p, 0, t] == 1)
        for r in range(first, self.rounds):
            for t in range(1, len(sizes)):
                if sizes[t] == sizes[t - 1]:
                    # Table t's smallest player comes after table t-1's.
                    for p in range(n):
                        m.add(x[p, r, t] <= sum(x[q, r, t - 1] for q in range(p)))
        if not free:
            # Twins (same team, same past) are interchangeable: in the first new position, a
            # twin sits at a table no later than the next twin's.
            for twins in self.twins():
                for p, q in itertools.pairwise(twins):
                    m.add(self.table_of(p, 0) <= self.table_of(q, 0))
            return
        if self.rounds < 2:
            return
        blocks = self.blocks()
        keys = [self._repeats_of_first(r) for r in range(self.rounds)]
        for r in range(1, self.rounds - 1):
            m.add(keys[r] <= keys[r + 1])
        for block in blocks:
            for p, q in itertools.pairwise(block):
                m.add(self.table_of(p, 1) <= self.table_of(q, 1))

    def twins(self) -> list[list[int]]:
        """Classes of players whom swapping changes nothing: same team, same seats at tables
        of 3 or 5 so far, same earlier meetings with everybody else (a re-plan's table mates
        of the positions played, or any two players of one team in a first plan)."""
        so_far = self.earlier.odd if self.earlier is not None else [0] * self.n
        classes: list[list[int]] = []
        for p in range(self.n):
            for twins in classes:
                q = twins[0]
                if (
                    self.teams[p] == self.teams[q]
                    and so_far[p] == so_far[q]
                    and all(
                        self.before(p, o) == self.before(q, o)
                        for o in range(self.n)
                        if o not in (p, q)
                    )
                ):
                    twins.append(p)
                    break
            else:
                classes.append([p])
        return [twins for twins in classes if len(twins) > 1]

    @property
    def interchangeable(self) -> bool:
        """Players may be relabelled: no teams and no positions played before."""
        return self.earlier is None and all(team is None for team in self.teams)

    def _blocks_of_first(self) -> list[int]:
        """Table of each player in the fixed position 1: 0..3 at table 0, and so on."""
        return [t for t, size in enumerate(self.sizes) for _ in range(size)]

    def blocks(self) -> list[list[int]]:
        """The players of each table of position 1 (without teams)."""
        first = self._blocks_of_first()
        return [[p for p in range(self.n) if first[p] == t] for t in range(len(self.sizes))]

    def _repeats_of_first(self, r: int) -> cp_model.LinearExprT:
        """Pairs of a table of position 1 that meet again in position r."""
        return sum(
            self.y[i, j, r] for block in self.blocks() for i, j in itertools.combinations(block, 2)
        )

    def table_of(self, p: int, r: int) -> cp_model.LinearExprT:
        return sum(t * self.x[p, r, t] for t in range(len(self.sizes)))

    # --- Hint and solution ----------------------------------------------------------------

    def hint(self, grouping: Grouping) -> None:
        """Give the solver `grouping`, first put in the model's symmetry-broken form."""
        canonical = self.canonical(grouping)
        for r, tables in enumerate(canonical):
            for t, table in enumerate(tables):
                for p in range(self.n):
                    self.model.add_hint(self.x[p, r, t], p in table)
        for (i, j, r), met in self.y.items():
            tables = canonical[r]
            self.model.add_hint(met, any(i in table and j in table for table in tables))
        counts = {
            pair: self.before(*pair)
            + sum(1 for tables in canonical for t in tables if pair[0] in t and pair[1] in t)
            for pair in self.pairs
        }
        beyond = iter(self.piling)
        for pair, excess in zip(self.pairs, self.excess, strict=True):
            self.model.add_hint(excess, max(0, counts[pair] - 1))
            for k in range(2, self.most):
                self.model.add_hint(next(beyond), max(0, counts[pair] - k))

    def canonical(self, grouping: Grouping) -> Grouping:
        """`grouping` relabelled and reordered to meet the symmetry-breaking constraints.

        Players are renamed only when interchangeable (no teams, nothing played before);
        positions and tables are reordered in any case.
        """
        plan = [[list(table) for table in tables] for tables in grouping]
        if self.interchangeable:
            # Position 1 becomes the fixed one: its tables, in `sizes`' order, give the labels.
            label = [0] * self.n
            order = self._sorted_tables(plan[0])
            for new, old in enumerate(p for table in order for p in table):
                label[old] = new
            plan = [[[label[p] for p in table] for table in tables] for tables in plan]
            plan[0] = [sorted(table) for table in self._sorted_tables(plan[0])]
            blocks = self.blocks()
            plan[1:] = sorted(plan[1:], key=lambda tables: _repeats_within(tables, blocks))
            if len(plan) > 1:
                # In position 2, each block's players take their labels in table order.
                tables_2 = self._sorted_tables(plan[1])
                where = {p: t for t, table in enumerate(tables_2) for p in table}
                relabel = list(range(self.n))
                for block in blocks:
                    for new, old in zip(block, sorted(block, key=lambda p: where[p]), strict=True):
                        relabel[old] = new
                plan = [[[relabel[p] for p in table] for table in tables] for tables in plan]
        else:
            plan = self._twins_in_order(plan)
        return [self._sorted_tables(tables) for tables in plan]

    def _twins_in_order(self, plan: Grouping) -> Grouping:
        """`plan` with each class of twins relabelled in the order of their tables in the first
        new position (tables in `sizes`' order), as the symmetry breaking wants."""
        relabel = list(range(self.n))
        for _ in range(self.n):  # relabelling may reorder tables: until nothing moves
            tables = self._sorted_tables(plan[0])
            where = {p: t for t, table in enumerate(tables) for p in table}
            relabel = list(range(self.n))
            for twins in self.twins():
                for new, old in zip(twins, sorted(twins, key=lambda p: where[p]), strict=True):
                    relabel[old] = new
            if relabel == list(range(self.n)):
                break
            plan = [[[relabel[p] for p in table] for table in tables] for tables in plan]
        return plan

    def _sorted_tables(self, tables: list[list[int]]) -> list[list[int]]:
        """Tables in `sizes`' order, those of one size by their smallest player."""
        return sorted(tables, key=lambda table: (len(table) != 4, len(table), min(table)))

    def grouping(self, solver: cp_model.CpSolver) -> Grouping:
        return [
            [
                [p for p in range(self.n) if solver.boolean_value(self.x[p, r, t])]
                for t in range(len(self.sizes))
            ]
            for r in range(self.rounds)
        ]


def _repeats_within(tables: list[list[int]], blocks: list[list[int]]) -> int:
    """Pairs of one block (a table of position 1) that share a table in `tables`."""
    block_of = {p: b for b, block in enumerate(blocks) for p in block}
    return sum(
        1
        for table in tables
        for i, j in itertools.combinations(table, 2)
        if block_of[i] == block_of[j]
    )
