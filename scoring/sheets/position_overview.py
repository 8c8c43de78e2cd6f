"""A position's overview on the arbiter's desk: every table and the state of its sheet, in a
fixed number of queries whatever the size of the tournament.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from django.db.models import Count
from django.utils.translation import gettext

from scoring.models import Deal, Incident, ScoreSheet, TableLink
from scoring.sheets.summary import State, sheet_flags, sheet_state
from tournament.models import ChangeLog, Position, Table


@dataclass
class TableRow:
    table: Table
    sheet: ScoreSheet | None
    players: int
    state: str
    played: int
    expected: int
    zero_sum: bool
    flags: list[str]
    pending: int = 0
    paper_failed: bool = False  # paper bilans typed that differ from the deals'
    link: TableLink | None = None  # the table's phone link, when players enter deals

    @property
    def state_label(self) -> str:
        return str(State.LABELS[self.state])


def position_overview(position: Position) -> list[TableRow]:
    """Every table of the position with its sheet's state, in a fixed number of queries."""
    tournament = position.tournament
    tables = list(
        Table.objects.filter(position=position)
        .annotate(seat_count=Count("seats"))
        .order_by("number")
    )
    sheets = {
        s.table_id: s
        for s in ScoreSheet.objects.filter(table__position=position).only(
            "pk", "table_id", "paper_bilans", "version", "tournament_id", "status"
        )
    }
    sheet_ids = [s.pk for s in sheets.values()]
    deals_by_sheet: dict[int, list[tuple[list[int], bool]]] = defaultdict(list)
    pending: dict[int, int] = defaultdict(int)
    adjusted: set[int] = set()
    for sheet_id, scores, cancelled, waiting, arbitral in Deal.objects.filter(
        sheet_id__in=sheet_ids
    ).values_list("sheet_id", "scores", "cancelled", "pending", "adjusted"):
        deals_by_sheet[sheet_id].append((scores, cancelled))
        pending[sheet_id] += waiting
        if arbitral:
            adjusted.add(sheet_id)
    incident_counts = dict(
        Incident.objects.filter(sheet_id__in=sheet_ids)
        .values_list("sheet_id")
        .annotate(n=Count("pk"))
        .values_list("sheet_id", "n")
    )
    conflict_counts = dict(
        ChangeLog.objects.filter(sheet_id__in=sheet_ids, action=ChangeLog.Action.CONFLICT)
        .values_list("sheet_id")
        .annotate(n=Count("pk"))
        .values_list("sheet_id", "n")
    )
    rows = []
    for table in tables:
        sheet = sheets.get(table.pk)
        players = table.seat_count
        expected = tournament.deals_for_table_size(players)
        deals = deals_by_sheet.get(sheet.pk, []) if sheet else []
        bilans = [0] * players
        zero_sum = True
        for scores, _cancelled in deals:
            zero_sum = zero_sum and sum(scores) == 0
            for seat, points in enumerate(scores[:players]):
                bilans[seat] += points
        played = sum(1 for _scores, cancelled in deals if not cancelled)
        paper = list(sheet.paper_bilans) if sheet and sheet.paper_bilans else None
        paper_failed = paper is not None and any(
            p is not None and p != b for p, b in zip(paper, bilans, strict=False)
        )
        paper_ok = paper is not None and None not in paper and not paper_failed
        flags = sheet_flags(
            paper_failed,
            sheet is not None and sheet.pk in adjusted,
            incident_counts.get(sheet.pk, 0) if sheet else 0,
        )
        if sheet and conflict_counts.get(sheet.pk):
            flags.append(
                gettext("%(count)s conflit(s) de saisie") % {"count": conflict_counts[sheet.pk]}
            )
        waiting_deals = pending.get(sheet.pk, 0) if sheet else 0
        rows.append(
            TableRow(
                table=table,
                sheet=sheet,
                players=players,
                state=sheet_state(
                    played,
                    expected,
                    paper_ok,
                    pending=waiting_deals,
                    disagree=paper_failed and tournament.entry_mode == "both",
                ),
                played=played,
                expected=expected,
                zero_sum=zero_sum and sum(bilans) == 0,
                flags=flags,
                pending=waiting_deals,
                paper_failed=paper_failed,
            )
        )
    return rows
