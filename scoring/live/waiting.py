"""What waits beside the totals: the deals kept but not counted (scoring.counting's `waiting()`:
to confirm, or contested), sheet by sheet. The arbiter's ranking page and cockpit list them with
a link to each sheet; every printed or exported ranking states them in one line (nothing when
none waits). One query whatever the number of tournaments.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from django.utils.translation import gettext, ngettext

from scoring.live.counted import FREE_SHEETS
from scoring.models import Deal
from tournament.models import Tournament


@dataclass(frozen=True)
class WaitingSheet:
    """A sheet's deals not counted yet: `deals` of them, `contested` of those contested."""

    sheet_id: int
    position: int  # FREE_SHEETS for a free sheet (no table)
    table: int | None
    title: str  # a free sheet's title
    deals: int
    contested: int = 0

    @property
    def where(self) -> str:
        """ "la table 7 (position 2)", or a free sheet's name."""
        if self.table is None:
            return self.title or gettext("feuille libre %(pk)s") % {"pk": self.sheet_id}
        return gettext("la table %(table)s (position %(position)s)") % {
            "table": self.table,
            "position": self.position,
        }

    @property
    def text(self) -> str:
        """ "3 donnes à confirmer à la table 7 (position 2), non comptées" for the arbiter."""
        text = ngettext(
            "%(count)s donne à confirmer à %(where)s, non comptée",
            "%(count)s donnes à confirmer à %(where)s, non comptées",
            self.deals,
        ) % {"count": self.deals, "where": self.where}
        if self.contested:
            text += ngettext(
                " (dont %(count)s contestée)", " (dont %(count)s contestées)", self.contested
            ) % {"count": self.contested}
        return text


@dataclass(frozen=True)
class WaitingDeals:
    """A tournament's deals not counted yet, by sheet in position and table order."""

    sheets: list[WaitingSheet] = field(default_factory=list)

    @property
    def count(self) -> int:
        return sum(sheet.deals for sheet in self.sheets)

    def __bool__(self) -> bool:
        return bool(self.sheets)

    def at(self, position: int) -> WaitingDeals:
        """Those of one position's tables (a position's own ranking states only those)."""
        return WaitingDeals([sheet for sheet in self.sheets if sheet.position == position])

    @property
    def summary(self) -> str:
        """The line a printed or exported ranking carries: "Non comptées : 4 donnes à
        confirmer, table 7 (position 2) : 3, table 9 (position 2) : 1."; "" when none waits."""
        if not self.sheets:
            return ""
        where = ", ".join(
            gettext("%(where)s : %(count)s") % {"where": sheet.where, "count": sheet.deals}
            for sheet in self.sheets
        )
        return ngettext(
            "Non comptée : %(count)s donne à confirmer ou contestée, à %(where)s.",
            "Non comptées : %(count)s donnes à confirmer ou contestées, à %(where)s.",
            self.count,
        ) % {"count": self.count, "where": where}


def waiting_deals(tournament_ids: Iterable[int]) -> dict[int, WaitingDeals]:
    """Each tournament's deals not counted, by tournament id (every id given has an entry)."""
    ids = list(tournament_ids)
    found: dict[int, dict[int, list]] = defaultdict(dict)
    rows = (
        Deal.objects.waiting()
        .filter(sheet__tournament_id__in=ids)
        .order_by()
        .values_list(
            "sheet__tournament_id",
            "sheet_id",
            "sheet__table__position__number",
            "sheet__table__number",
            "sheet__title",
            "disputed",
        )
    )
    for tournament_id, sheet_id, position, table, title, disputed in rows:
        entry = found[tournament_id].setdefault(
            sheet_id, [FREE_SHEETS if position is None else position, table, title, 0, 0]
        )
        entry[3] += 1
        entry[4] += bool(disputed)
    return {
        pk: WaitingDeals(
            sorted(
                (
                    WaitingSheet(sheet_id, position, table, title, deals, contested)
                    for sheet_id, (position, table, title, deals, contested) in found[pk].items()
                ),
                key=_sheet_order,
            )
        )
        for pk in ids
    }


def _sheet_order(sheet: WaitingSheet) -> tuple[bool, int, int, int]:
    """Position, then table order; free sheets last, in the order they were made."""
    return (sheet.table is None, sheet.position, sheet.table or 0, sheet.sheet_id)


def waiting_deals_of(tournament_id: int) -> WaitingDeals:
    """One tournament's deals not counted (one query)."""
    return waiting_deals([tournament_id])[tournament_id]


def waiting_notes(tournaments: Sequence[Tournament]) -> list[str]:
    """For a ranking over several tournaments (a championship): a line for each tournament
    whose totals leave deals out, naming it (one query)."""
    waiting = waiting_deals(t.pk for t in tournaments)
    return [
        f"{t.name} ({t.date:%d/%m/%Y}) — {waiting[t.pk].summary}"
        for t in tournaments
        if waiting[t.pk]
    ]
