"""Whether standings are provisional: a counted position whose tables are not all finished.

A position counts as soon as one of its tables has a counted deal; it is partial while it is
published (not closed) and some table's sheet holds fewer counted deals than its size asks.
One query whatever the number of tables, outside `standings_for` (whose five queries stay).
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.db.models import Count, IntegerField, OuterRef, Subquery
from django.db.models.functions import Coalesce
from django.utils.translation import gettext

from scoring.core import ranking
from scoring.models import Deal, ScoreSheet
from tournament.models import Position, Table, Tournament

if TYPE_CHECKING:  # standings reads provisional_text: an annotation here, no circle
    from scoring.live.standings import Standings


@dataclass(frozen=True)
class PartialPosition:
    """A counted position still being played: `finished` of its `tables` hold all their deals."""

    number: int
    finished: int
    tables: int

    @property
    def text(self) -> str:
        return gettext("position %(number)s en cours (%(finished)s/%(tables)s tables)") % {
            "number": self.number,
            "finished": self.finished,
            "tables": self.tables,
        }


def partial_positions(tournament: Tournament, *, public: bool) -> list[PartialPosition]:
    """The published positions with counted deals whose tables are not all finished (one query).

    The deals counted are those the standings count (scoring.counting's rule), and for the
    public only on validated sheets where the organiser asked for that."""
    deals = Deal.objects.counted().filter(sheet__table=OuterRef("pk"), cancelled=False)
    if public and tournament.public_requires_validation:
        deals = deals.filter(sheet__status=ScoreSheet.Status.VALIDATED)
    counted = deals.order_by().values("sheet__table").annotate(n=Count("pk")).values("n")
    rows = (
        Table.objects.filter(
            position__tournament=tournament, position__status=Position.Status.PUBLISHED
        )
        .annotate(
            size=Count("seats", distinct=True),
            deals=Coalesce(Subquery(counted, output_field=IntegerField()), 0),
        )
        .values_list("position__number", "size", "deals")
    )
    tally: dict[int, list[int]] = {}  # number -> [finished, tables, deals]
    for number, size, played in rows:
        counts = tally.setdefault(number, [0, 0, 0])
        counts[0] += played >= tournament.deals_for_table_size(size)
        counts[1] += 1
        counts[2] += played
    return [
        PartialPosition(number, finished, tables)
        for number, (finished, tables, played) in sorted(tally.items())
        if played and finished < tables
    ]


def played_deals() -> Coalesce:
    """A sheet's counted deals, cancelled ones aside (as partial_positions counts a table's):
    an annotation over sheets."""
    deals = Deal.objects.counted().filter(sheet=OuterRef("pk"), cancelled=False)
    counted = deals.order_by().values("sheet").annotate(n=Count("pk")).values("n")
    return Coalesce(Subquery(counted, output_field=IntegerField()), 0)


def finished_sheets(tournament: Tournament, sheets: Mapping[int, Mapping[str, Any]]) -> set[int]:
    """The ids of the sheets whose table is over: validated, on a closed position, or holding
    every deal its size asks (partial_positions' rule). `sheets` as the standings read them."""
    return {
        sheet_id
        for sheet_id, info in sheets.items()
        if info["status"] == ScoreSheet.Status.VALIDATED
        or info["table__position__status"] == Position.Status.CLOSED
        or info["played"] >= tournament.deals_for_table_size(info["size"])
    }


def table_winners(
    seats: Mapping[int, list[int]],
    bilans: Mapping[tuple[int, int], tuple[int, int]],
    played: set[int],
) -> set[tuple[Hashable, Hashable]]:
    """(sheet id, registration id) of the best bilans of each table that `played` a deal, ties
    shared: never at a table where every player holds the same bilan (four zeros after a
    "Tous passent" are nobody's best). The card shows it only once the table is finished."""
    table_bilans: dict[Hashable, Mapping[Hashable, int]] = {
        sheet_id: {reg: bilans.get((sheet_id, reg), (0, 0))[0] for reg in players}
        for sheet_id, players in seats.items()
        if sheet_id in played
    }
    return ranking.mark_table_winners(
        {sheet_id: b for sheet_id, b in table_bilans.items() if len(set(b.values())) > 1}
    )


def provisional_text(partial: list[PartialPosition]) -> str:
    """ "Classement provisoire — position 2 en cours (7/12 tables)", or "" when final."""
    if not partial:
        return ""
    return gettext("Classement provisoire — %(positions)s") % {
        "positions": ", ".join(p.text for p in partial)
    }


def mark_provisional(standings: Standings) -> Standings:
    """The standings with their partial positions filled in (one query)."""
    standings.partial = partial_positions(standings.tournament, public=standings.public)
    return standings
