"""The feuille de marque of one table: + / − figures per deal, totals, bilans, running totals."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from scoring.core.deal import CONTRACT_LABELS, Deal
from scoring.core.engine import DealResult, passed_scores, score_deal
from scoring.core.rules import FFT, RuleSet
from tournament.core.i18n import gettext_noop as _

PASSED_LABEL = _("Tous passent")


@dataclass(frozen=True)
class SheetColumn:
    """One player's column: the name, the engine's seat index and the starting position."""

    name: str
    seat: int
    start: str = ""  # as printed on the sheet, e.g. "3 N"


@dataclass(frozen=True)
class DealRow:
    """A played deal, scored with the sheet's rule set."""

    deal: Deal
    dealer: int | None = None
    label: str | None = None  # defaults to the contract ("Garde", "G. Sans", ...)


@dataclass(frozen=True)
class PassedRow:
    """Everybody passed: the deal scores nothing but keeps its line (and its dealer)."""

    dealer: int | None = None
    label: str = PASSED_LABEL


@dataclass(frozen=True)
class ScoresRow:
    """Scores given directly by seat: a stored deal, or an arbiter's adjusted score."""

    scores: tuple[int, ...]
    label: str
    dealer: int | None = None
    adjusted: bool = False

    def __post_init__(self) -> None:
        scores = tuple(self.scores)
        if not all(isinstance(s, int) and not isinstance(s, bool) for s in scores):
            raise ValueError(f"scores must be integers: {scores!r}")
        if sum(scores) != 0:
            raise ValueError(f"a deal's scores must sum to zero: {scores!r}")
        object.__setattr__(self, "scores", scores)


Row = DealRow | PassedRow | ScoresRow


@dataclass(frozen=True)
class Cell:
    """One player's figure for one deal, written in the + or the − column."""

    score: int

    @property
    def plus(self) -> int | None:
        return self.score if self.score > 0 else None

    @property
    def minus(self) -> int | None:
        return -self.score if self.score < 0 else None


@dataclass(frozen=True)
class SheetLine:
    """One row of the sheet; `cells` and `running` follow the column order."""

    number: int  # 1-based, as "Donne 1"
    label: str
    dealer: int | None
    passed: bool
    adjusted: bool
    cells: tuple[Cell, ...]
    running: tuple[int, ...]  # each player's total after this deal
    result: DealResult | None  # the engine's breakdown when the row was a Deal


@dataclass(frozen=True)
class Sheet:
    """The whole feuille de marque; per-player tuples follow the column order."""

    columns: tuple[SheetColumn, ...]
    lines: tuple[SheetLine, ...]
    plus_totals: tuple[int, ...]
    minus_totals: tuple[int, ...]
    bilans: tuple[int, ...]
    rules_name: str

    def bilan_by_seat(self) -> dict[int, int]:
        return {column.seat: bilan for column, bilan in zip(self.columns, self.bilans, strict=True)}


def contract_label(contract: str) -> str:
    """The short label the paper sheet prints for a contract."""
    return CONTRACT_LABELS[contract]


def build_sheet(columns: Sequence[SheetColumn], rows: Iterable[Row], rules: RuleSet = FFT) -> Sheet:
    """Compute the sheet; raises DealError for an impossible deal, ValueError for bad shapes."""
    columns = tuple(columns)
    _check_columns(columns)
    players = len(columns)
    running = [0] * players
    lines = []
    for number, row in enumerate(rows, start=1):
        by_seat, result = _row_scores(row, players, rules)
        _check_dealer(row.dealer, players)
        cells = tuple(Cell(by_seat[column.seat]) for column in columns)
        running = [total + cell.score for total, cell in zip(running, cells, strict=True)]
        lines.append(
            SheetLine(
                number=number,
                label=_row_label(row),
                dealer=row.dealer,
                passed=isinstance(row, PassedRow),
                adjusted=isinstance(row, ScoresRow) and row.adjusted,
                cells=cells,
                running=tuple(running),
                result=result,
            )
        )
    plus = tuple(sum(line.cells[i].plus or 0 for line in lines) for i in range(players))
    minus = tuple(sum(line.cells[i].minus or 0 for line in lines) for i in range(players))
    bilans = tuple(p - m for p, m in zip(plus, minus, strict=True))
    _check_zero_sum(lines, bilans, running)
    return Sheet(
        columns=columns,
        lines=tuple(lines),
        plus_totals=plus,
        minus_totals=minus,
        bilans=bilans,
        rules_name=rules.name,
    )


def _check_columns(columns: tuple[SheetColumn, ...]) -> None:
    if not 3 <= len(columns) <= 5:
        raise ValueError(f"a sheet has 3 to 5 players, not {len(columns)}")
    if sorted(column.seat for column in columns) != list(range(len(columns))):
        raise ValueError("the columns' seats must be 0..players-1, each once")


def _check_dealer(dealer: int | None, players: int) -> None:
    if dealer is not None and not 0 <= dealer < players:
        raise ValueError(f"dealer seat {dealer} is not at a table of {players}")


def _row_scores(
    row: Row, players: int, rules: RuleSet
) -> tuple[tuple[int, ...], DealResult | None]:
    if isinstance(row, DealRow):
        if row.deal.players != players:
            raise ValueError(f"a deal for {row.deal.players} players on a sheet of {players}")
        result = score_deal(row.deal, rules)
        return result.scores, result
    if isinstance(row, PassedRow):
        return passed_scores(players), None
    if len(row.scores) != players:
        raise ValueError(f"{len(row.scores)} scores on a sheet of {players} players")
    return row.scores, None


def _row_label(row: Row) -> str:
    if isinstance(row, DealRow):
        return row.label or contract_label(row.deal.contract)
    return row.label


def _check_zero_sum(lines: list[SheetLine], bilans: tuple[int, ...], running: list[int]) -> None:
    # Every input row is zero-sum, so a failure here is a bug in this module, not a user error.
    for line in lines:
        if sum(cell.score for cell in line.cells) != 0:
            raise RuntimeError(f"sheet line {line.number} does not sum to zero")
    if sum(bilans) != 0 or list(bilans) != running:
        raise RuntimeError(f"sheet bilans {bilans} are inconsistent with the rows")
