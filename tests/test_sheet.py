"""The feuille de marque, checked against 004's "Exemple de report des scores"."""

import pytest

from scoring.engine import Deal, DealError
from scoring.rules import BOOKLET
from scoring.sheet import (
    Cell,
    DealRow,
    PassedRow,
    ScoresRow,
    SheetColumn,
    build_sheet,
)

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


# The five deals derived from the printed sheet: 1 Est garde, 2 Ouest garde sans,
# 3 Sud prise lost, 4 Nord garde (defence poignée), 5 Sud garde with announced chelem.
EXAMPLE_ROWS = [
    DealRow(
        deal(
            EAST,
            contract="garde",
            oudlers=2,
            points=49,
            poignees=[[EAST, "simple"]],
            petit_au_bout="attack",
        ),  # fmt: skip
        dealer=NORTH,
    ),
    DealRow(
        deal(WEST, contract="garde_sans", oudlers=2, points=45, petit_au_bout="defense"),
        dealer=EAST,
    ),
    DealRow(
        deal(
            SOUTH,
            contract="prise",
            oudlers=1,
            points=44,
            poignees=[[SOUTH, "simple"]],
            petit_au_bout="attack",
        ),  # fmt: skip
        dealer=SOUTH,
    ),
    DealRow(
        deal(NORTH, contract="garde", oudlers=1, points=62, poignees=[[WEST, "simple"]]),
        dealer=WEST,
    ),
    DealRow(
        deal(
            SOUTH,
            contract="garde",
            oudlers=2,
            points=87,
            poignees=[[SOUTH, "simple"]],
            petit_au_bout="attack",
            chelem_announced=True,
            chelem="attack",
        ),  # fmt: skip
        dealer=NORTH,
    ),
]


def figures(line) -> list[tuple[int | None, int | None]]:
    return [(cell.plus, cell.minus) for cell in line.cells]


def test_fft_example_sheet_rows():
    sheet = build_sheet(COLUMNS, EXAMPLE_ROWS)
    assert [line.label for line in sheet.lines] == ["Garde", "G. Sans", "Prise", "Garde", "Garde"]
    rows = [figures(line) for line in sheet.lines]
    assert rows[0] == [(None, 106), (None, 106), (318, None), (None, 106)]
    assert rows[1] == [(None, 76), (None, 76), (None, 76), (228, None)]
    assert rows[2] == [(42, None), (None, 126), (42, None), (42, None)]
    assert rows[3] == [(276, None), (None, 92), (None, 92), (None, 92)]
    assert rows[4] == [(None, 582), (1746, None), (None, 582), (None, 582)]


def test_fft_example_sheet_totals_and_bilans():
    sheet = build_sheet(COLUMNS, EXAMPLE_ROWS)
    assert sheet.plus_totals == (318, 1746, 360, 270)
    assert sheet.minus_totals == (764, 400, 750, 780)
    assert sheet.bilans == (-446, 1346, -390, -510)
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
