"""The feuille de marque, checked against 004's "Exemple de report des scores"."""

import pytest

from scoring.core.deal import Deal, DealError
from scoring.core.rules import BOOKLET
from scoring.core.sheet import Cell, DealRow, PassedRow, ScoresRow, SheetColumn, build_sheet
from tests.examples_004 import BILANS, MINUS_TOTALS, PLUS_TOTALS, ROWS, engine_deals

# Seats follow the play (counter-clockwise: N, W, S, E); the sheet prints N, S, E, W.
NORTH, WEST, SOUTH, EAST = 0, 1, 2, 3
COLUMNS = [
    SheetColumn("DURAND", NORTH, "3 N"),
    SheetColumn("DUPONT", SOUTH, "3 S"),
    SheetColumn("DUBOIS", EAST, "3 E"),
    SheetColumn("DESPRES", WEST, "3 O"),
]


def deal(taker: int, **fields) -> Deal:
    return Deal(players=4, taker=taker, **fields)


# 004's five deals on the seats of the play; the deal passes counter-clockwise.
DEALERS = [NORTH, EAST, SOUTH, WEST, NORTH]
EXAMPLE_ROWS = [
    DealRow(deal(**fields), dealer=dealer)
    for fields, dealer in zip(engine_deals("NWSE"), DEALERS, strict=True)
]


def figures(line) -> list[tuple[int | None, int | None]]:
    return [(cell.plus, cell.minus) for cell in line.cells]


def test_fft_example_sheet_rows():
    sheet = build_sheet(COLUMNS, EXAMPLE_ROWS)
    assert [line.label for line in sheet.lines] == ["Garde", "G. Sans", "Prise", "Garde", "Garde"]
    rows = [figures(line) for line in sheet.lines]
    # Each figure in the plus or the minus column of its player, as printed.
    assert rows == [[(v, None) if v > 0 else (None, -v) for v in row] for row in ROWS]


def test_fft_example_sheet_totals_and_bilans():
    sheet = build_sheet(COLUMNS, EXAMPLE_ROWS)
    assert sheet.plus_totals == tuple(PLUS_TOTALS)
    assert sheet.minus_totals == tuple(MINUS_TOTALS)
    assert sheet.bilans == tuple(BILANS)
    assert sheet.bilan_by_seat() == {NORTH: -446, SOUTH: 1346, EAST: -390, WEST: -510}


def test_fft_example_sheet_running_totals():
    sheet = build_sheet(COLUMNS, EXAMPLE_ROWS)
    assert [line.running for line in sheet.lines] == [
        (-106, -106, 318, -106),
        (-182, -182, 242, 122),
        (-140, -308, 284, 164),
        (136, -400, 192, 72),
        (-446, 1346, -390, -510),
    ]


def test_deal_rows_keep_the_engine_breakdown_and_dealer():
    sheet = build_sheet(COLUMNS, EXAMPLE_ROWS)
    first = sheet.lines[0]
    assert (first.number, first.dealer, first.result.value) == (1, NORTH, 106)
    assert first.result.contract_value == 66
    assert not first.passed and not first.adjusted


def test_passed_and_adjusted_rows():
    rows = [
        PassedRow(dealer=NORTH),
        ScoresRow((-30, 90, -30, -30), label="Garde", adjusted=True, dealer=WEST),
        ScoresRow((25, 25, -75, 25), label="Prise"),
    ]
    sheet = build_sheet(COLUMNS, rows)
    passed, adjusted, stored = sheet.lines
    assert (passed.label, passed.passed, passed.cells) == ("Tous passent", True, (Cell(0),) * 4)
    assert (passed.cells[0].plus, passed.cells[0].minus) == (None, None)
    # Scores are by seat; cells follow the columns N, S, E, W = seats 0, 2, 3, 1.
    assert [c.score for c in adjusted.cells] == [-30, -30, -30, 90]
    assert adjusted.adjusted and not stored.adjusted
    assert [c.score for c in stored.cells] == [25, -75, 25, 25]
    assert sheet.bilans == (-5, -105, -5, 115)
    assert sheet.plus_totals == (25, 0, 25, 115)


def test_sheet_uses_the_given_rule_set():
    row = DealRow(deal(NORTH, contract="garde_sans", oudlers=2, points=45))
    assert build_sheet(COLUMNS, [row]).bilans[0] == 3 * 116
    assert build_sheet(COLUMNS, [row], BOOKLET).bilans[0] == 3 * 87


def test_five_player_sheet_with_a_dead():
    columns = [SheetColumn(name, seat) for seat, name in enumerate("ABCDE")]
    rows = [
        DealRow(Deal(players=5, taker=0, dead=4, contract="prise", oudlers=1, points=56)),
        DealRow(Deal(players=5, taker=1, partner=2, contract="garde", oudlers=2, points=40.5)),
        PassedRow(),
    ]
    sheet = build_sheet(columns, rows)
    assert [c.score for c in sheet.lines[0].cells] == [90, -30, -30, -30, 0]
    assert [c.score for c in sheet.lines[1].cells] == [52, -104, -52, 52, 52]
    assert sheet.bilans == (142, -134, -82, 22, 52)


def test_empty_sheet():
    sheet = build_sheet(COLUMNS, [])
    assert sheet.bilans == (0, 0, 0, 0) and sheet.lines == ()


def test_scores_row_must_sum_to_zero():
    with pytest.raises(ValueError):
        ScoresRow((10, 0, 0, 0), label="Garde")


def test_row_for_another_table_size_is_refused():
    row = DealRow(Deal(players=3, taker=0, contract="prise", oudlers=1, points=60))
    with pytest.raises(ValueError):
        build_sheet(COLUMNS, [row])
    with pytest.raises(ValueError):
        build_sheet(COLUMNS, [ScoresRow((10, -5, -5), label="Prise")])


def test_columns_must_cover_each_seat_once():
    with pytest.raises(ValueError):
        build_sheet([SheetColumn("A", 0), SheetColumn("B", 0), SheetColumn("C", 2)], [])


def test_impossible_deal_on_a_sheet_raises_deal_error():
    with pytest.raises(DealError) as info:
        build_sheet(COLUMNS, [DealRow(deal(NORTH, contract="garde", oudlers=2, points=95))])
    assert info.value.field == "points"
