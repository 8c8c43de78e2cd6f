"""A position's overview on the arbiter's desk and the cockpit: every table and its sheet's summary
(`scoring.sheets.summary`, as the sheet's own screen has it), in a fixed number of queries whatever
the size of the tournament.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from django.db.models import Count

from scoring.models import Deal, Incident, ScoreSheet, TableLink
from scoring.sheets.summary import DealFacts, State, sheet_summary
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
    pending: int = 0  # deals waiting for a confirmation
    disputed: int = 0  # deals contested at the table, for the arbiter to rule on
    paper_failed: bool = False  # paper bilans typed that differ from the deals'
    link: TableLink | None = None  # the table's phone link, when players enter deals

    @property
    def shown_state(self) -> str:
        """Its state, "validated" once an arbiter validated the sheet; what still needs the
        arbiter (a deal to confirm, a disagreement) shows before it."""
        validated = self.sheet is not None and self.sheet.status == ScoreSheet.Status.VALIDATED
        if validated and self.state not in (State.WAITING, State.DISAGREEMENT):
            return State.VALIDATED
        return self.state

    @property
    def state_label(self) -> str:
        return str(State.LABELS[self.shown_state])

    @property
    def tone(self) -> str:
        return State.TONES[self.shown_state]


def position_overview(position: Position) -> list[TableRow]:
    """Every table of the position with its sheet's summary, in a fixed number of queries."""
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
    facts = _sheet_facts([s.pk for s in sheets.values()])
    rows = []
    for table in tables:
        sheet = sheets.get(table.pk)
        players = table.seat_count
        deals, incidents, conflicts = facts.get(sheet.pk, ([], 0, 0)) if sheet else ([], 0, 0)
        summary = sheet_summary(
            players=players,
            expected=tournament.deals_for_table_size(players),
            deals=deals,
            paper_bilans=sheet.paper_bilans if sheet else None,
            incidents=incidents,
            conflicts=conflicts,
            both_entries=tournament.entry_mode == "both",
        )
        rows.append(
            TableRow(
                table=table,
                sheet=sheet,
                players=players,
                state=summary.state,
                played=summary.played,
                expected=summary.expected,
                zero_sum=summary.zero_sum,
                flags=summary.flags,
                pending=summary.pending,
                disputed=summary.disputed,
                paper_failed=summary.paper_failed,
            )
        )
    return rows


def _sheet_facts(sheet_ids: list[int]) -> dict[int, tuple[list[DealFacts], int, int]]:
    """By sheet: its deals' facts, its incidents and its refused inputs (three queries)."""
    deals: dict[int, list[DealFacts]] = defaultdict(list)
    rows = Deal.objects.filter(sheet_id__in=sheet_ids).values_list(
        "sheet_id",
        "scores",
        "cancelled",
        "pending",
        "adjusted",
        "entered_by_player_id",
        "disputed",
    )
    for sheet_id, scores, cancelled, pending, adjusted, player, disputed in rows:
        deals[sheet_id].append(
            DealFacts(scores, cancelled, pending, adjusted, player is not None, disputed)
        )
    incidents = dict(
        Incident.objects.filter(sheet_id__in=sheet_ids)
        .values_list("sheet_id")
        .annotate(n=Count("pk"))
        .values_list("sheet_id", "n")
    )
    conflicts = dict(
        ChangeLog.objects.filter(sheet_id__in=sheet_ids, action=ChangeLog.Action.CONFLICT)
        .values_list("sheet_id")
        .annotate(n=Count("pk"))
        .values_list("sheet_id", "n")
    )
    return {
        sheet_id: (deals.get(sheet_id, []), incidents.get(sheet_id, 0), conflicts.get(sheet_id, 0))
        for sheet_id in sheet_ids
    }
