"""The score-sheet screen's data: a sheet with its rows, totals, penalties, incidents and
flags, as the desk's entry page and the completed sheets show it (`load_sheet_view`), and the
states a sheet goes through. A deal's words are in `scoring.sheets.deal_detail`, a position's
overview of its tables in `scoring.sheets.position_overview`.

Every loader here runs a fixed number of queries, whatever the size of the tournament.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext

from scoring.core.deal import CONTRACT_LABELS
from scoring.core.notation.keys import DIRECTION_CODES, SeatInfo
from scoring.core.penalties import penalty_adjustments
from scoring.core.sheet import PassedRow, Row, ScoresRow, SheetColumn, SheetLine, build_sheet
from scoring.models import Deal, Incident, ScoreSheet, SheetPlayer
from scoring.sheets.deal_detail import DealDetail, deal_detail
from scoring.sheets.services import next_dealer, penalties_for
from scoring.sheets.services.barring import barred_deal, barred_message
from scoring.sheets.summary import DealFacts, SheetSummary, State, sheet_summary
from tournament.models import (
    DIRECTION_LABELS,
    DIRECTIONS,
    ChangeLog,
    Table,
    sheet_order_key,
    start_display,
)


@dataclass
class Column:
    seat: int
    direction: str
    key: str
    name: str
    start: str
    registration_id: int

    @property
    def direction_label(self) -> str:
        return str(DIRECTION_LABELS.get(self.direction, self.direction))


@dataclass
class Line:
    number: int
    deal: Deal
    label: str
    dealer: str
    dead: str
    cells: list  # scoring.core.sheet.Cell per display column
    barred: list[str]
    incidents: list[Incident]
    # Why the recorded taker could not bid on this deal (incident recorded after the deal).
    barred_taker: str = ""
    detail: DealDetail | None = None  # what the row says besides the figures (None: no deal)

    @property
    def description(self) -> str:
        """The detail in words, as the row prints it ("" when there is none)."""
        return self.detail.text if self.detail is not None else ""


@dataclass
class SheetView:
    sheet: ScoreSheet
    columns: list[Column]
    seats: SeatInfo
    lines: list[Line]
    plus_totals: list[int]
    minus_totals: list[int]
    bilans: list[int]
    penalties: list[int]
    final: list[int]
    paper: list[int | None] | None
    paper_diffs: list[bool]
    expected_deals: int
    played_deals: int
    next_dealer: int
    barred_next: dict[int, str]
    incidents: list[Incident]
    zero_sum: bool
    state: str = State.MISSING
    flags: list[str] = field(default_factory=list)
    # New rows are typed from the FFT sheet (contract and figures) rather than in detail: the
    # tournament's sheet style, unless the arbiter switched this page (`mode_asked`).
    figures: bool = False
    mode_asked: bool = False

    @property
    def state_label(self) -> str:
        return str(State.LABELS[self.state])

    @property
    def has_penalties(self) -> bool:
        return any(self.penalties)

    @property
    def crosscheck_failed(self) -> bool:
        return any(self.paper_diffs)

    @property
    def next_number(self) -> int:
        return len(self.lines) + 1

    @property
    def span(self) -> int:
        """Cells in a full row: + and − per player, then dealer, detail and actions."""
        return 2 * len(self.columns) + 3

    @property
    def totals(self) -> list[dict[str, Any]]:
        """Per column, in display order: the figures of the sheet's bottom lines."""
        paper = self.paper or [None] * len(self.columns)
        return [
            {
                "column": column,
                "plus": self.plus_totals[i],
                "minus": self.minus_totals[i],
                "bilan": self.bilans[i],
                "penalty": self.penalties[i],
                "final": self.final[i],
                "paper": paper[i],
                "diff": self.paper_diffs[i],
            }
            for i, column in enumerate(self.columns)
        ]


def seat_info(players: Sequence[SheetPlayer], table: Table | None) -> SeatInfo:
    directions = [p.direction or DIRECTIONS[p.seat] for p in players]
    game = table.game if table is not None else None
    count = len(players)
    return SeatInfo(
        players=count,
        directions=directions,
        # The FFT sheet's order (N, S, E, O, 5e) for every list of seats the desk shows.
        order=sorted(range(count), key=lambda seat: (sheet_order_key(directions[seat]), seat)),
        labels=[
            f"{DIRECTION_CODES.get(d, d)} — {p.registration.player}"
            for d, p in zip(directions, players, strict=True)
        ],
        called_king=count == 5 and game != Table.Game.FIVE_DEAD,
        dead_is_dealer=count == 5 and game == Table.Game.FIVE_DEAD,
    )


def expected_deals(sheet: ScoreSheet, players: int) -> int:
    return sheet.tournament.deals_for_table_size(players)


def barred_seats(
    incidents: Sequence[Incident], number: int, seat_of: dict[int, int]
) -> dict[int, str]:
    """Seats that may not bid on deal `number`, with the reason (FFT: fausse donne, RC)."""
    barred: dict[int, str] = {}
    for incident in incidents:
        seat = seat_of.get(incident.registration_id) if incident.registration_id else None
        if seat is not None and barred_deal(incident) == number:
            template, params = barred_message(incident, number)
            barred[seat] = gettext(template) % params
    return barred


def load_sheet_view(sheet: ScoreSheet) -> SheetView:
    """The whole sheet for display (sheet must come with tournament and table__position): its
    rows and totals here, its state and flags from the one sheet summary."""
    players = list(SheetPlayer.objects.filter(sheet=sheet).select_related("registration__player"))
    deals = list(
        Deal.objects.filter(sheet=sheet)
        .select_related("entered_by_player__player", "confirmed_by_player__player", "confirmed_by")
        .order_by("number")
    )
    incidents = list(
        Incident.objects.filter(sheet=sheet)
        .select_related("registration__player")
        .order_by("created_at", "pk")
    )
    seats = seat_info(players, sheet.table)
    columns = _columns(players, seats)
    built = build_sheet([SheetColumn(c.name, c.seat, c.start) for c in columns], _rows(deals))
    summary = _summary(sheet, len(players), deals, len(incidents))
    penalty_by_reg = penalty_adjustments(
        penalties_for(incidents, {sheet.pk: [p.registration_id for p in players]})
    )
    penalties = [penalty_by_reg.get(c.registration_id, 0) for c in columns]
    bilans = list(built.bilans)
    seat_of = {c.registration_id: c.seat for c in columns}
    tournament = sheet.tournament
    return SheetView(
        sheet=sheet,
        columns=columns,
        seats=seats,
        lines=_lines(deals, built.lines, seats, incidents, seat_of),
        plus_totals=list(built.plus_totals),
        minus_totals=list(built.minus_totals),
        bilans=bilans,
        penalties=penalties,
        final=[b + p for b, p in zip(bilans, penalties, strict=True)],
        paper=[summary.paper[c.seat] for c in columns] if summary.paper is not None else None,
        paper_diffs=[summary.paper_diffs[c.seat] for c in columns],
        expected_deals=summary.expected,
        played_deals=summary.played,
        next_dealer=next_dealer(deals[-1].dealer if deals else None, len(players)),
        barred_next=barred_seats(incidents, len(deals) + 1, seat_of),
        incidents=incidents,
        zero_sum=summary.zero_sum,
        state=summary.state,
        flags=summary.flags,
        figures=tournament.sheet_style == tournament.SheetStyle.FIGURES,
    )


def _summary(
    sheet: ScoreSheet, players: int, deals: Sequence[Deal], incidents: int
) -> SheetSummary:
    return sheet_summary(
        players=players,
        expected=expected_deals(sheet, players),
        deals=(
            DealFacts(
                d.scores,
                cancelled=d.cancelled,
                pending=d.pending,
                adjusted=d.adjusted,
                phone=d.entered_by_player_id is not None,
                disputed=d.disputed,
            )
            for d in deals
        ),
        paper_bilans=sheet.paper_bilans,
        incidents=incidents,
        both_entries=sheet.tournament.entry_mode == "both",
    )


def _columns(players: Sequence[SheetPlayer], seats: SeatInfo) -> list[Column]:
    """The sheet's columns in the FFT sheet's order (N, S, E, O, 5e)."""
    return sorted(
        (
            Column(
                seat=p.seat,
                direction=seats.directions[p.seat],
                key=seats.key_for_seat(p.seat),
                name=str(p.registration.player),
                start=start_display(p.start_label),
                registration_id=p.registration_id,
            )
            for p in players
        ),
        key=lambda c: (sheet_order_key(c.direction), c.seat),
    )


def _rows(deals: Sequence[Deal]) -> list[Row]:
    return [
        PassedRow(dealer=deal.dealer)
        if deal.passed
        else ScoresRow(
            scores=tuple(deal.scores),
            label=_deal_label(deal),
            dealer=deal.dealer,
            adjusted=deal.adjusted,
        )
        for deal in deals
    ]


def _lines(
    deals: Sequence[Deal],
    built: Sequence[SheetLine],
    seats: SeatInfo,
    incidents: Sequence[Incident],
    seat_of: dict[int, int],
) -> list[Line]:
    """The sheet's rows: figures, the deal in words, who may not bid, the incidents of each."""
    by_deal: dict[int, list[Incident]] = defaultdict(list)
    for incident in incidents:
        if incident.deal_number is not None:
            by_deal[incident.deal_number].append(incident)
    barred_by_number = {
        deal.number: barred_seats(incidents, deal.number, seat_of) for deal in deals
    }
    return [
        Line(
            number=deal.number,
            deal=deal,
            label=line.label,
            detail=deal_detail(deal, seats),
            dealer=seats.key_for_seat(deal.dealer),
            dead=seats.key_for_seat(deal.dead),
            cells=list(line.cells),
            barred=list(barred_by_number[deal.number].values()),
            incidents=by_deal.get(deal.number, []),
            barred_taker=(
                barred_by_number[deal.number].get(deal.taker, "") if deal.taker is not None else ""
            ),
        )
        for deal, line in zip(deals, built, strict=True)
    ]


def _deal_label(deal: Deal) -> str:
    if deal.cancelled:
        return gettext("Donne annulée")
    return gettext(CONTRACT_LABELS.get(deal.contract, deal.contract))


def neighbour_tables(sheet: ScoreSheet) -> dict[str, Table | None]:
    """The tables before and after this sheet's, for the keys that move between sheets."""
    if sheet.table is None:
        return {}
    number = sheet.table.number
    tables = list(Table.objects.filter(position_id=sheet.table.position_id).order_by("number"))
    before = [t for t in tables if t.number < number]
    after = [t for t in tables if t.number > number]
    return {"previous": before[-1] if before else None, "next": after[0] if after else None}


def last_writer(sheet: ScoreSheet) -> str | None:
    """Who changed the sheet last (a refused input aside), or None when nobody signed it."""
    last = (
        ChangeLog.objects.filter(sheet=sheet)
        .exclude(action=ChangeLog.Action.CONFLICT)
        .select_related("user")
        .first()
    )
    return last.user.get_username() if last and last.user else None


def sheet_is_full(view: SheetView) -> bool:
    """A table's sheet holding all its deals (and the extras the arbiter allowed)."""
    if view.sheet.table_id is None:
        return False
    return len(view.lines) >= view.expected_deals + view.sheet.extra_deals
