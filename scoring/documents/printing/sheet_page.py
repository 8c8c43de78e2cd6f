"""The layout shared by blank and completed feuilles de marque: one page per table."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from django.utils.translation import gettext as _

from scoring.documents.printing.phone_entry import PhoneEntry
from tournament.models import (
    DIRECTIONS,
    Direction,
    Registration,
    Seat,
    Table,
    Tournament,
    sheet_order_key,
)

# Height left for the deal rows on a landscape A4 page once the header, the totals and the
# signature boxes are drawn; rows shrink within these bounds so a sheet stays on one page.
DEAL_ROWS_HEIGHT_MM = 72
# What the phone-entry box (table code and QR code) takes from the deal rows on a blank sheet,
# and how low its rows may then go (a sheet of 13 deals still fits one page).
PHONE_BOX_MM = 10
PHONE_ROW_MIN_MM = 4.0
ROW_HEIGHT_MM = (4.5, 12.0)
CELL_PADDING_MM = 1.4  # vertical padding and border around each row's height


@dataclass(frozen=True)
class ColumnHead:
    """A player's column: seat direction at this table, starting position, name."""

    direction: str
    start_label: str
    name: str
    number: int | None = None


@dataclass(frozen=True)
class CellView:
    plus: int | None = None
    minus: int | None = None


@dataclass(frozen=True)
class RowView:
    """One deal row: what the desk asks for (blank on a blank sheet), then the figures."""

    number: int
    contract: str = ""
    taker: str = ""  # seat keys as the desk types them: N, S, E, O, 5
    # Tables of 5 with a called king: the partner's key, or why the taker was alone ("roi au
    # chien", "appelé soi-même", "seul" when not recorded).
    partner: str = ""
    oudlers: str = ""
    points: str = ""
    poignees: str = ""  # "simple E", "double N"
    petit_au_bout: str = ""  # "attaque" or "défense"
    chelem: str = ""  # "annoncé réussi", ...
    cells: tuple[CellView, ...] = ()
    adjusted: bool = False
    mark: str = ""  # refers to a note under the sheet
    entry: str = ""  # who entered and who confirmed a deal typed on a phone

    @property
    def partner_in_words(self) -> bool:
        """The partner cell holds words rather than a seat key: printed small, on two lines."""
        return len(self.partner) > 2


@dataclass
class SheetPage:
    """Everything one printed sheet shows; figures are None on a blank sheet."""

    tournament: Tournament
    position_number: int | None
    table_number: int | None
    game_label: str
    columns: list[ColumnHead]
    rows: list[RowView]
    called_king: bool = False  # a table of 5 with a called king: a column for the partner
    title: str = ""
    blank: bool = True
    plus_totals: list[int] | None = None
    minus_totals: list[int] | None = None
    bilans: list[int] | None = None
    penalties: list[int] | None = None  # negative for a culprit, positive for a shared penalty
    finals: list[int] | None = None
    notes: list[str] = field(default_factory=list)
    status_label: str = ""
    phone: PhoneEntry | None = None  # the table's code and QR code, on a blank sheet

    @property
    def rows_class(self) -> str:
        """The CSS class giving this page's deal rows their height (see row_heights)."""
        return f"{len(self.rows)}{'p' if self.phone else ''}"

    @property
    def detail_span(self) -> int:
        """Cells before the players' figures: deal, contract, taker, (partner,) bouts, points,
        poignées, petit au bout, chelem."""
        return 9 if self.called_king else 8

    @property
    def phone_entries(self) -> bool:
        return any(row.entry for row in self.rows)

    @property
    def totals(self) -> list[tuple[int, int]]:
        return list(zip(self.plus_totals or (), self.minus_totals or (), strict=True))

    @property
    def row_height(self) -> str:
        low, high = ROW_HEIGHT_MM
        available = DEAL_ROWS_HEIGHT_MM
        if self.phone:
            low, available = PHONE_ROW_MIN_MM, available - PHONE_BOX_MM
        height = available / max(len(self.rows), 1) - CELL_PADDING_MM
        return f"{min(max(height, low), high):.1f}"


def row_heights(pages: Iterable[SheetPage]) -> list[tuple[str, str]]:
    """One CSS rule per distinct deal count rather than a style on every row (faster)."""
    return sorted({page.rows_class: page.row_height for page in pages}.items())


def direction_label(direction: str) -> str:
    return str(Direction(direction).label) if direction in DIRECTIONS else ""


def seated_columns(seats: Iterable[Seat], labels: dict[int, str]) -> list[ColumnHead]:
    """Columns in the sheet's order (N, S, E, W, 5e) from a table's seats."""
    return [
        column_for(seat.registration, seat.direction, labels.get(seat.registration_id, ""))
        for seat in sorted(seats, key=lambda s: sheet_order_key(s.direction))
    ]


def column_for(registration: Registration, direction: str, start_label: str) -> ColumnHead:
    return ColumnHead(
        direction=direction_label(direction),
        start_label=start_label or str(registration.number),
        name=registration.player.full_name,
        number=registration.number,
    )


def game_label(table: Table | None, players: int) -> str:
    if table is not None:
        return str(table.get_game_display())
    return _("%(count)s joueurs") % {"count": players}


def split(score: int | None) -> CellView:
    """A figure written in the + or the − column, as on the paper sheet."""
    if score is None:
        return CellView()
    return CellView(plus=score if score > 0 else None, minus=-score if score < 0 else None)


def blank_rows(count: int, players: int) -> list[RowView]:
    return [RowView(number=n, cells=(CellView(),) * players) for n in range(1, count + 1)]


def has_called_king(table: Table | None, players: int) -> bool:
    """A table of 5 playing the called king (not a rotating mort): it has a partner column."""
    if table is None:
        return players == 5
    return table.game == Table.Game.FIVE


def players_at(table: Table, seats: Sequence[Seat]) -> int:
    """How many players the sheet has columns for (the seats, or the game when unseated)."""
    if seats:
        return len(seats)
    players: dict[str, int] = {Table.Game.THREE: 3, Table.Game.FOUR: 4}
    return players.get(table.game, 5)
