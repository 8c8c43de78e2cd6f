"""Which published positions still have sheets to enter, and which one the desk works on."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.db.models import Count

from scoring.models import Deal
from tournament.models import Position, Table, Tournament


@dataclass(frozen=True)
class ToEnter:
    """A position's sheets not yet complete: no deal typed, or fewer than the table's count."""

    number: int
    missing: int
    incomplete: int

    @property
    def total(self) -> int:
        return self.missing + self.incomplete


def sheets_to_enter(tournament: Tournament, positions: Sequence[Position]) -> dict[int, ToEnter]:
    """Per position id, its sheets still to enter (positions with none are left out).

    Two queries whatever the number of positions and tables.
    """
    by_id = {p.pk: p for p in positions}
    if not by_id:
        return {}
    tables = (
        Table.objects.filter(position_id__in=by_id)
        .annotate(seat_count=Count("seats"))
        .values_list("pk", "position_id", "seat_count")
    )
    played = dict(
        Deal.objects.filter(sheet__table__position_id__in=by_id, cancelled=False)
        .values_list("sheet__table_id")
        .annotate(n=Count("pk"))
        .values_list("sheet__table_id", "n")
    )
    counts: dict[int, list[int]] = {}
    for table_id, position_id, seats in tables:
        deals = played.get(table_id, 0)
        if deals >= tournament.deals_for_table_size(seats):
            continue
        missing_incomplete = counts.setdefault(position_id, [0, 0])
        missing_incomplete[0 if deals == 0 else 1] += 1
    return {
        position_id: ToEnter(by_id[position_id].number, missing, incomplete)
        for position_id, (missing, incomplete) in counts.items()
    }


def position_being_entered(
    positions: Sequence[Position], to_enter: dict[int, ToEnter], moved_on_to: int | None
) -> Position | None:
    """The position the desk opens on: the earliest published one with sheets still to enter,
    from the one the arbiter last chose on (`moved_on_to`); else the latest played one.

    Publishing the next position does not move the desk: typing "1" then opens table 1 of the
    position whose sheets are still coming in, until they are all in or the arbiter moves on.
    """
    published = [p for p in positions if p.status == Position.Status.PUBLISHED]
    for position in published:
        if position.pk in to_enter and (moved_on_to is None or position.number >= moved_on_to):
            return position
    played = [p for p in positions if p.status != Position.Status.DRAFT]
    candidates = played or list(positions)
    return candidates[-1] if candidates else None
