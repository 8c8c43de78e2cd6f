"""Generating (seating) positions as drafts and publishing them."""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournament import hooks
from tournament.access.audit import change_record
from tournament.access.lifecycle import (
    ensure_tournament_open,
    locked_position,
    locked_tournament,
)
from tournament.core import seating
from tournament.evening.fairness import Roster, floor_figures, plan_measures, tournament_roster
from tournament.evening.plan_inputs import plan_inputs, plan_solve
from tournament.evening.selectors import active_registrations, position_is_stale, tables_of
from tournament.models import DIRECTIONS, Position, Seat, Table, Tournament

GENERATOR = Position.Seating.GENERATOR


def _game(tournament: Tournament, size: int) -> str:
    if size == 3:
        return Table.Game.THREE
    if size == 5:
        if tournament.remainder == Tournament.Remainder.FIVE_DEAD:
            return Table.Game.FIVE_DEAD
        return Table.Game.FIVE
    return Table.Game.FOUR


def venue_first_table(tournament: Tournament, count: int) -> int:
    """The first of `count` table numbers for the bracket: its first_table, or, when another
    bracket of its event's session already uses one of those numbers (the bracket seated again
    on more tables than the cut planned), the first free run after it, kept and logged."""
    first = tournament.first_table
    if tournament.event_id is None:
        return first
    taken = set(
        Table.objects.filter(
            position__tournament__event_id=tournament.event_id,
            position__tournament__session=tournament.session,
        )
        .exclude(position__tournament=tournament)
        .values_list("number", flat=True)
    )
    while clash := taken.intersection(range(first, first + count)):
        first = max(clash) + 1
    if first != tournament.first_table:
        before = tournament.first_table
        tournament.first_table = first
        tournament.save(update_fields=["first_table"])
        change_record(
            tournament=tournament,
            obj=tournament,
            action="update",
            before={"first_table": before},
            after={"first_table": first},
        )
    return first


def position_tables_store(*, position: Position, tables: Sequence[Sequence[int]]) -> list[Table]:
    """Replace the position's tables by these (registration ids, seat by seat) in two inserts.

    In the caller's transaction: the generator's plans and generated tournaments seat through it.
    """
    position.tables.all().delete()
    first = venue_first_table(position.tournament, len(tables))
    stored = Table.objects.bulk_create(
        Table(position=position, number=number, game=_game(position.tournament, len(seated)))
        # An event's brackets play in one venue: each numbers its tables from its first_table.
        for number, seated in enumerate(tables, start=first)
    )
    Seat.objects.bulk_create(
        Seat(table=table, registration_id=rid, direction=DIRECTIONS[index])
        for table, seated in zip(stored, tables, strict=True)
        for index, rid in enumerate(seated)
    )
    return stored


def generated_figures(
    tournament: Tournament, plan: seating.Plan, start: int = 1
) -> dict[str, object]:
    """The fairness measures of a plan just generated (services.fairness), and the generator's
    bound on repeats with the field it holds for (positions `start` and after planned)."""
    lists = plan.to_lists()
    regs = tournament_roster(tournament)
    teams = {pk: registration.team_id for pk, registration in regs.items()}
    figures: dict[str, object] = dict(plan_measures(lists, Roster.of(lists, regs)))
    return figures | floor_figures(lists, start, plan.repeats_floor, teams)


def generation_seconds(tournament: Tournament, played: int) -> int:
    """How long generating the positions after `played` may take, in seconds (announced on the
    positions page, whose progress bar follows it while the request runs)."""
    players = len(active_registrations(tournament, played + 1))
    new_positions = tournament.positions_count - played
    return seating.expected_seconds(players, new_positions, settings.SEATING_EXACT_BUDGET)


def position_generate(
    *,
    tournament: Tournament,
    seed: int | None = None,
    start: int | None = None,
    keep_close: bool = True,
    user=None,
    seating_method: str | None = None,
) -> list[Position]:
    """Plan positions `start`..positions_count as drafts; earlier positions are kept as played.

    By default `start` is the first position not yet published, which makes this the re-plan
    after a withdrawal or a late arrival. With `keep_close`, the current drafts are the starting
    point, so that the new plan moves as few players as possible. `seating_method` (a
    Position.Seating) says how position `start` is seated: by the generator, or, when it is the
    next to play, from the current standings (by rank or in a snake; later positions by the
    generator around it); by default as it was seated before.

    The solver (seconds) runs with no transaction open: a write transaction would hold SQLite's
    database lock, and every phone's deal in the room would wait for it. Only the check that
    its inputs are unchanged, and the store, run under the tournament's lock; inputs changed
    meanwhile (a withdrawal, a publication) are solved again once, then refused.
    """
    if seed is None:
        seed = secrets.randbelow(2**31)
    changed = ""
    for _attempt in range(2):
        # Read fresh, with no lock: the settings too may have changed since the caller read it.
        current = Tournament.objects.get(pk=tournament.pk)
        inputs, _existing = plan_inputs(current, start, seating_method)
        plan = plan_solve(inputs, seed, keep_close)
        with transaction.atomic():
            # Two arbiters generating at once would interleave tables: one stores at a time.
            locked = locked_tournament(tournament)
            now, existing = plan_inputs(locked, start, seating_method)
            what = inputs.changed(now)
            if what is None:
                return _plan_store(
                    locked,
                    existing,
                    plan,
                    start=now.start,
                    seed=seed,
                    user=user,
                    seating_method=now.method,
                )
        changed = what
    raise ValidationError(changed)


def _plan_store(
    tournament: Tournament,
    existing: dict[int, Position],
    plan: seating.Plan,
    *,
    start: int,
    seed: int,
    user,
    seating_method: str = "generator",
) -> list[Position]:
    """Positions `start` and after seated as `plan` says, drafts, each change in the history."""
    # E over the whole tournament, kept in the history to compare plans; every measure kept
    # on the positions generated, for the positions page to compare hand changes with.
    repeats = seating.repeated_meetings(plan)
    # A position seated from the standings is not the generator's: its bound starts after it.
    figures = generated_figures(tournament, plan, start + (seating_method != GENERATOR))
    positions = []
    for number in range(start, tournament.positions_count + 1):
        position = existing.get(number)
        before = tables_of(position) if position is not None else None
        if position is None:
            position = Position.objects.create(tournament=tournament, number=number)
        position.seed = seed
        position.status = Position.Status.DRAFT
        position.generated_figures = figures
        position.seating = seating_method if number == start else GENERATOR
        position.save(update_fields=["seed", "status", "generated_figures", "seating"])
        after = [list(table) for table in plan.positions[number - 1]]
        position_tables_store(position=position, tables=after)
        change_record(
            tournament=tournament,
            obj=position,
            action="update" if before is not None else "create",
            before={"tables": before} if before is not None else None,
            after={"tables": after, "seed": seed, "repeated_meetings": repeats},
            user=user,
        )
        positions.append(position)
    return positions


def position_regenerate(
    *, position: Position, seed: int | None = None, user=None
) -> list[Position]:
    """A new draft for this position (and the drafts after it), ignoring the current one."""
    if position.status != Position.Status.DRAFT:
        raise ValidationError(
            _("La position %(number)s est publiée : elle ne peut plus être régénérée.")
            % {"number": position.number}
        )
    return position_generate(
        tournament=position.tournament,
        seed=seed,
        start=position.number,
        keep_close=False,
        user=user,
    )


class EarlierPositionsUnfinished(ValidationError):
    """Publishing while earlier published positions still have sheets to enter: the arbiter
    is asked to confirm (the desk would otherwise be tempted to move on to the new one)."""

    def __init__(self, to_enter):
        self.to_enter = to_enter  # scoring.sheets.entry_progress.ToEnter per earlier position
        super().__init__(
            [
                _("La position %(number)s a encore %(missing)s et %(incomplete)s.")
                % {
                    "number": t.number,
                    "missing": ngettext(
                        "%(count)s feuille manquante", "%(count)s feuilles manquantes", t.missing
                    )
                    % {"count": t.missing},
                    "incomplete": ngettext(
                        "%(count)s feuille incomplète",
                        "%(count)s feuilles incomplètes",
                        t.incomplete,
                    )
                    % {"count": t.incomplete},
                }
                for t in to_enter
            ]
        )


@transaction.atomic
def position_publish(
    *, position: Position, user=None, unfinished_confirmed: bool = False
) -> Position:
    """Draft → published: players and scorers may now see it; it is never regenerated again.

    Raises EarlierPositionsUnfinished, unless `unfinished_confirmed`, while an earlier
    published position still has missing or incomplete sheets.
    """
    position = locked_position(position)
    tournament = position.tournament
    ensure_tournament_open(tournament)
    if position.status != Position.Status.DRAFT:
        raise ValidationError(_("Cette position est déjà publiée."))
    if tournament.positions.filter(
        number__lt=position.number, status=Position.Status.DRAFT
    ).exists():
        raise ValidationError(_("Publiez d'abord les positions précédentes."))
    if not position.tables.exists():
        raise ValidationError(_("Cette position n'a pas de tables."))
    if position_is_stale(position):
        raise ValidationError(
            _(
                "Les joueurs ont changé depuis la génération de cette position (forfait ou "
                "arrivée) : replanifiez avant de publier."
            )
        )
    earlier = tournament.positions.filter(
        number__lt=position.number, status=Position.Status.PUBLISHED
    )
    to_enter = sorted(
        hooks.sheets_to_enter(tournament, list(earlier)).values(), key=lambda t: t.number
    )
    if to_enter and not unfinished_confirmed:
        raise EarlierPositionsUnfinished(to_enter)
    position.status = Position.Status.PUBLISHED
    position.published_at = timezone.now()
    position.save(update_fields=["status", "published_at"])
    if tournament.status == Tournament.Status.DRAFT:
        tournament.status = Tournament.Status.RUNNING
        tournament.save(update_fields=["status"])
    after: dict[str, Any] = {"status": "published"}
    if to_enter:
        # The arbiter published knowing these sheets were still to come.
        after["sheets_to_enter"] = {str(t.number): t.total for t in to_enter}
    change_record(
        tournament=tournament,
        obj=position,
        action="update",
        before={"status": "draft"},
        after=after,
        user=user,
    )
    published_on_commit(position)
    return position


def published_on_commit(position: Position) -> None:
    """Say `position` is published once the transaction commits, never if it is rolled back:
    every table gets its link and code (scoring listens), printed on its sheet, scanned by
    players. Every path that publishes calls it (the desk, a restored backup, a generated
    tournament), not a view."""
    transaction.on_commit(lambda: hooks.position_published.send(sender=Position, position=position))
