"""The fairness measures of a whole plan, and what a change of plan does to them.

One function measures a plan (`plan_measures`): the positions page's figures (repeats, pairs
meeting three times or more, odd-table and direction spreads, teammates at one table). The swap
preview, the re-plan and the positions page's comparison with the generator's plan all go
through it, and `plan_change` says in words, player by player, what gets worse.

The generator's lower bound on repeats (its counts, or the exact solver's proof) is kept beside
those measures with the field it holds for (`floor_figures`), and read back by the positions
page while the plan still seats that field (`generated_floor`): a hand swap keeps it, a change
of players or of played tables drops it.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _

from tournament.core import seating
from tournament.evening.selectors import tables_of, tournament_plan
from tournament.models import DIRECTION_LABELS, Registration, Tournament

KEYS = ("repeats", "thrice", "odd", "directions", "teammates")
PlanList = Sequence[Sequence[Sequence[int]]]


def measure_label(key: str) -> str:
    return {
        "repeats": _("Rencontres répétées (E)"),
        "thrice": _("Paires qui se rencontrent 3 fois ou plus"),
        "odd": _("Écart des tables de 3 ou 5"),
        "directions": _("Écart des directions"),
        "teammates": _("Coéquipiers à une même table"),
    }[key]


@dataclass(frozen=True)
class Measure:
    """One fairness figure of the whole plan, before and after a change (smaller is better)."""

    key: str
    label: str
    before: int
    after: int

    @property
    def worse(self) -> bool:
        return self.after > self.before

    @property
    def better(self) -> bool:
        return self.after < self.before


@dataclass(frozen=True)
class Roster:
    """Whom the measures are about: the registrations by id (their names for the warnings,
    their teams), and the players of the plan's last position (the spreads cover them: a
    withdrawn player's seats no longer change)."""

    regs: dict[int, Registration]
    ids: tuple[int, ...]

    @classmethod
    def of(cls, plan: PlanList, regs: dict[int, Registration]) -> Roster:
        playing = [p for table in plan[-1] for p in table] if plan else []
        return cls(regs, tuple(p for p in playing if p in regs) or tuple(regs))

    def team(self, pk: int) -> int | None:
        registration = self.regs.get(pk)
        return registration.team_id if registration is not None else None


def _frozen(plan: PlanList) -> seating.Plan:
    return seating.Plan(tuple(tuple(tuple(table) for table in position) for position in plan))


def _together(plan: PlanList, roster: Roster) -> int:
    return sum(
        1
        for position in plan
        for table in position
        for i, a in enumerate(table)
        for b in table[i + 1 :]
        if roster.team(a) is not None and roster.team(a) == roster.team(b)
    )


def plan_measures(
    plan: PlanList, roster: Roster, counts: dict[tuple[int, int], int] | None = None
) -> dict[str, int]:
    """Every figure of the positions page for `plan` (`counts`: its meeting counts, if known)."""
    counts = seating.meeting_counts(plan) if counts is None else counts
    frozen = _frozen(plan)
    directions = [c for p, c in seating.direction_counts(frozen).items() if p in roster.ids]
    return {
        "repeats": sum(n - 1 for n in counts.values()),
        "thrice": sum(1 for n in counts.values() if n >= 3),
        "odd": seating.odd_spread(frozen, roster.ids),
        "directions": max((max(c.values()) - min(c.values()) for c in directions), default=0),
        "teammates": _together(plan, roster),
    }


@dataclass(frozen=True)
class PlanChange:
    """Every measure before → after a change of plan, and what gets worse, in words."""

    measures: tuple[Measure, ...]
    warnings: tuple[str, ...]

    @property
    def worse(self) -> bool:
        return any(m.worse for m in self.measures)

    def as_data(self) -> dict[str, Any]:
        """Plain data, for the session between a re-plan and the page that shows it."""
        return {
            "measures": [[m.key, m.label, m.before, m.after] for m in self.measures],
            "warnings": list(self.warnings),
        }

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> PlanChange:
        return cls(
            tuple(Measure(*row) for row in data.get("measures", [])),
            tuple(data.get("warnings", [])),
        )


def _ordinal(n: int) -> str:
    return _("%(n)sre") % {"n": n} if n == 1 else _("%(n)se") % {"n": n}


def _odd_warning(
    pk: int, name: str, plans, odd, *, need_second: bool, need_most: bool
) -> str | None:
    """A moved player at a table of 3 or 5 once more (with `need_second`, only a second time or
    more; with `need_most`, only when it makes them the player with the most)."""
    now = odd[1].get(pk, 0)
    if now <= odd[0].get(pk, 0) or (need_second and now < 2):
        return None
    if need_most and now < max(odd[1].values(), default=0):
        return None
    size = next((len(t) for position in plans[1] for t in position if pk in t and len(t) != 4), 5)
    return _("%(name)s serait à la table de %(size)s pour la %(nth)s fois") % {
        "name": name,
        "size": size,
        "nth": _ordinal(now),
    }


def _direction_warnings(pk: int, name: str, directions) -> list[str]:
    before, after = (d.get(pk, {}) for d in directions)
    return [
        _("%(name)s serait en %(direction)s pour la %(nth)s fois")
        % {
            "name": name,
            "direction": DIRECTION_LABELS.get(direction, direction),
            "nth": _ordinal(n),
        }
        for direction, n in after.items()
        if n > before.get(direction, 0) and n >= 2
    ]


def _pair_warnings(counts, roster: Roster) -> list[str]:
    before, after = counts
    rising = [
        (roster.regs[a], roster.regs[b], n)
        for (a, b), n in after.items()
        if n >= 3 and n > before.get((a, b), 0) and a in roster.regs and b in roster.regs
    ]
    rising.sort(key=lambda r: (r[0].number, r[1].number))
    return [
        _("%(a)s et %(b)s se rencontreraient pour la %(nth)s fois")
        % {"a": a.player.full_name, "b": b.player.full_name, "nth": _ordinal(n)}
        for a, b, n in rising
    ]


def plan_change(
    before: PlanList,
    after: PlanList,
    regs: dict[int, Registration],
    *,
    moved: Iterable[Registration] | None = None,
    counts: tuple[dict, dict] | None = None,
) -> PlanChange:
    """Every measure before → after, and in words what the `moved` players would suffer (a
    table of 3 or 5 or a direction once more; by default everybody, for what gets worse), and
    the pairs that would meet a third time or more. `counts`: both plans' meeting counts."""
    roster = Roster.of(before, regs)
    counts = counts or (seating.meeting_counts(before), seating.meeting_counts(after))
    figures = [plan_measures(p, roster, c) for p, c in zip((before, after), counts, strict=True)]
    measures = tuple(Measure(k, measure_label(k), figures[0][k], figures[1][k]) for k in KEYS)
    worse = {m.key for m in measures if m.worse}
    strict = moved is None
    if moved is None:
        moved = sorted((regs[p] for p in roster.ids), key=lambda r: r.number)
    plans = (before, after)
    odd = [seating.odd_table_counts(_frozen(p), roster.ids) for p in plans]
    directions = [seating.direction_counts(_frozen(p)) for p in plans]
    warnings: list[str] = []
    for registration in moved:
        name = registration.player.full_name
        if "odd" in worse or not strict:
            found = _odd_warning(
                registration.pk,
                name,
                plans,
                odd,
                need_second=strict or "odd" not in worse,
                need_most=strict,
            )
            warnings += [found] if found else []
        if "directions" in worse:
            warnings += _direction_warnings(registration.pk, name, directions)
    return PlanChange(measures, tuple(warnings + _pair_warnings(counts, roster)))


def tournament_roster(tournament: Tournament) -> dict[int, Registration]:
    return {r.pk: r for r in tournament.registrations.select_related("player")}


def replan_change(tournament: Tournament, before: PlanList) -> PlanChange | None:
    """What a re-plan did, from the plan `before` it to the stored one; None when there was
    no plan before (a first generation)."""
    if not before:
        return None
    return plan_change(before, tournament_plan(tournament), tournament_roster(tournament))


def plan_drift(tournament: Tournament) -> tuple[Measure, ...]:
    """The measures the plan now has worse than the generator left them (hand swaps since),
    generator's figure → now; empty when none is, or before any generation. Five queries."""
    positions = list(tournament.positions.prefetch_related("tables__seats"))
    generated = positions[-1].generated_figures if positions else None
    if not generated:
        return ()
    plan = [tables_of(p) for p in positions]
    now = plan_measures(plan, Roster.of(plan, tournament_roster(tournament)))
    return tuple(
        Measure(key, measure_label(key), generated[key], now[key])
        for key in KEYS
        if key in generated and now[key] > generated[key]
    )


def _floor_key(plan: PlanList, start: int, teams: Mapping[int, int | None]) -> str:
    """What a generated plan's bound holds for: the positions before `start` as they were
    played (who sat with whom), then for each later position who plays it, with their teams,
    and its table sizes. Hand swaps within a position change none of it."""
    played = [sorted(sorted(table) for table in position) for position in plan[: start - 1]]
    planned = [
        [
            sorted([p, teams.get(p)] for table in position for p in table),
            sorted(len(table) for table in position),
        ]
        for position in plan[start - 1 :]
    ]
    return hashlib.sha256(json.dumps([played, planned]).encode()).hexdigest()[:20]


def floor_figures(
    plan: PlanList, start: int, floor: int | None, teams: Mapping[int, int | None]
) -> dict[str, object]:
    """The generator's bound on repeats for the figures kept on the positions it planned
    (`start` and after), with the field it holds for; empty when it gave none."""
    if floor is None:
        return {}
    key = _floor_key(plan, start, teams)
    return {"repeats_floor": floor, "floor_from": start, "floor_key": key}


def generated_floor(
    plan: PlanList, generated: Mapping[str, object] | None, teams: Mapping[int, int | None]
) -> int | None:
    """The generator's bound kept in `generated` (the last position's figures) while `plan`
    still seats the field it was proven for; None otherwise. No query."""
    if not generated or "floor_key" not in generated:
        return None
    start = generated["floor_from"]
    floor = generated["repeats_floor"]
    if not isinstance(start, int) or not isinstance(floor, int):
        return None
    return floor if _floor_key(plan, start, teams) == generated["floor_key"] else None
