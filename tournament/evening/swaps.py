"""Exchanging two players' seats in one position, previewed then applied."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from tournament.access.audit import change_record
from tournament.access.lifecycle import ensure_position_open, locked_position
from tournament.core import seating
from tournament.evening.fairness import Measure, plan_change
from tournament.evening.selectors import tournament_plan
from tournament.models import Position, Registration, Seat, Table

__all__ = ["Measure", "SwapPreview", "seat_swap", "seat_swap_preview"]


@dataclass(frozen=True)
class SwapPreview:
    """What exchanging two players' seats would change, before anything is written."""

    position: Position
    first: Registration
    second: Registration
    first_seat: Seat
    second_seat: Seat
    repeats_before: int
    repeats_after: int
    # Pairs whose meeting count changes: (player a, player b, count before, count after).
    changed_meetings: list[tuple[Registration, Registration, int, int]]
    # Every figure of the positions page, before → after, and what gets worse, in words.
    measures: tuple[Measure, ...] = ()
    warnings: tuple[str, ...] = ()

    @property
    def delta(self) -> int:
        return self.repeats_after - self.repeats_before


def _swap_seats(position: Position, first: Registration, second: Registration):
    seats = {
        seat.registration_id: seat
        for seat in Seat.objects.filter(
            table__position=position, registration__in=[first, second]
        ).select_related("table", "registration__player")
    }
    if first.pk == second.pk:
        raise ValidationError(_("Choisissez deux joueurs différents."))
    for registration in (first, second):
        if registration.pk not in seats:
            raise ValidationError(
                _("%(player)s n'est pas placé à cette position.")
                % {"player": registration.player.full_name}
            )
    ensure_position_open(position)
    table_ids = [seats[first.pk].table_id, seats[second.pk].table_id]
    if Table.objects.filter(pk__in=table_ids, sheet__isnull=False).exists():
        raise ValidationError(
            _("Une feuille de marque existe déjà pour cette table : les places ne changent plus.")
        )
    return seats[first.pk], seats[second.pk]


def _check_teammates(first_seat: Seat, second_seat: Seat) -> None:
    if first_seat.table_id == second_seat.table_id:
        return
    for seat, leaving in ((first_seat, second_seat), (second_seat, first_seat)):
        incoming = leaving.registration
        if incoming.team_id is None:
            continue
        mates = Seat.objects.filter(
            table_id=seat.table_id, registration__team_id=incoming.team_id
        ).exclude(pk=seat.pk)
        if mates.exists():
            raise ValidationError(
                _("%(player)s se retrouverait à la table d'un coéquipier.")
                % {"player": incoming.player.full_name}
            )


def _swapped(plan, position_index: int, first_id: int, second_id: int):
    swap = {first_id: second_id, second_id: first_id}
    out = [[list(t) for t in p] for p in plan]
    out[position_index] = [[swap.get(p, p) for p in t] for t in out[position_index]]
    return out


def seat_swap_preview(
    *, position: Position, first: Registration, second: Registration
) -> SwapPreview:
    """The repeated meetings (E, over the whole tournament) before and after the swap."""
    first_seat, second_seat = _swap_seats(position, first, second)
    _check_teammates(first_seat, second_seat)
    tournament = position.tournament
    numbers = list(tournament.positions.values_list("number", flat=True))
    plan = tournament_plan(tournament)
    after = _swapped(plan, numbers.index(position.number), first.pk, second.pk)
    counts_before = seating.meeting_counts(plan)
    counts_after = seating.meeting_counts(after)
    regs = {r.pk: r for r in tournament.registrations.select_related("player")}
    changed = sorted(
        (
            (regs[a], regs[b], counts_before.get((a, b), 0), counts_after.get((a, b), 0))
            for (a, b) in set(counts_before) | set(counts_after)
            if counts_before.get((a, b), 0) != counts_after.get((a, b), 0)
            and (counts_before.get((a, b), 0) > 1 or counts_after.get((a, b), 0) > 1)
        ),
        key=lambda c: (c[0].number, c[1].number),
    )
    change = plan_change(
        plan, after, regs, moved=(first, second), counts=(counts_before, counts_after)
    )
    measures, warnings = change.measures, change.warnings
    return SwapPreview(
        position=position,
        first=first,
        second=second,
        first_seat=first_seat,
        second_seat=second_seat,
        repeats_before=measures[0].before,
        repeats_after=measures[0].after,
        changed_meetings=changed,
        measures=measures,
        warnings=warnings,
    )


@transaction.atomic
def seat_swap(
    *, position: Position, first: Registration, second: Registration, user=None
) -> SwapPreview:
    """Exchange two players' seats in one position; refused if it seats teammates together."""
    position = locked_position(position)
    preview = seat_swap_preview(position=position, first=first, second=second)
    a, b = preview.first_seat, preview.second_seat
    before = _seating_state(position, [(first, a), (second, b)], preview.repeats_before)
    # Delete then recreate: a direct exchange would briefly break the unique seat constraints.
    Seat.objects.filter(pk__in=[a.pk, b.pk]).delete()
    Seat.objects.bulk_create(
        [
            Seat(table_id=a.table_id, direction=a.direction, registration=second),
            Seat(table_id=b.table_id, direction=b.direction, registration=first),
        ]
    )
    after = _seating_state(position, [(first, b), (second, a)], preview.repeats_after)
    change_record(
        tournament=position.tournament,
        obj=position,
        action="update",
        before={"swap": before},
        after={"swap": after},
        user=user,
    )
    return preview


def _seating_state(
    position: Position, seated: list[tuple[Registration, Seat]], repeats: int
) -> dict[str, Any]:
    """The swap as the history keeps it: who sits at which table and seat, and the repeats."""
    return {
        "position": position.number,
        "seats": [[r.pk, seat.table.number, seat.direction] for r, seat in seated],
        "repeated_meetings": repeats,
    }
