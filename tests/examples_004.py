"""The FFT rules' worked score sheet (004, "Exemple de report des scores"): the one copy of it.

Every test that plays the example imports it from here. The deals are written by compass
direction (N, E, S, W); `engine_deals(order)` puts them on the seat indexes of any seat order
(a seated table is N, E, S, W; a free sheet keeps the order it is given; the pure sheet follows
the play, N, W, S, E). The printed sheet's columns are Nord, Sud, Est, Ouest.
"""

from __future__ import annotations

from typing import Any

NAMES = {"N": "DURAND", "S": "DUPONT", "E": "DUBOIS", "W": "DESPRES"}
PAPER_ORDER = "NSEW"  # the printed sheet's columns
PAPER_NAMES = [NAMES[direction] for direction in PAPER_ORDER]

# The five deals in the engine's fields, seats named by direction: 1 Est garde, 2 Ouest garde
# sans (the defence keeps the petit), 3 Sud prise lost, 4 Nord garde (a defender's poignée),
# 5 Sud garde with an announced chelem.
_DEALS: list[dict[str, Any]] = [
    dict(taker="E", contract="garde", oudlers=2, points=49, poignees=[["E", "simple"]],
         petit_au_bout="attack"),
    dict(taker="W", contract="garde_sans", oudlers=1, points=55, petit_au_bout="defense"),
    dict(taker="S", contract="prise", oudlers=1, points=44, poignees=[["S", "simple"]],
         petit_au_bout="attack"),
    dict(taker="N", contract="garde", oudlers=2, points=52, poignees=[["E", "simple"]]),
    dict(taker="S", contract="garde", oudlers=2, points=87, poignees=[["S", "simple"]],
         petit_au_bout="attack", chelem_announced=True, chelem="attack"),
]  # fmt: skip

# The same deals as the arbiter types them at the desk (deal 2 from the defence's side:
# "défense 36"; Ouest is O on the keyboard).
TYPED_FIELDS = ("taker", "contract", "oudlers", "points", "poignees", "petit_au_bout", "chelem")
TYPED_ROWS = [
    ("E", "G", "2", "49", "E1", "A", ""),
    ("O", "GS", "1", "d36", "", "D", ""),
    ("S", "P", "1", "44", "S1", "A", ""),
    ("N", "G", "2", "52", "E1", "", ""),
    ("S", "G", "2", "87", "S1", "A", "AR"),
]
TYPED = [
    {field: value for field, value in zip(TYPED_FIELDS, row, strict=True) if value}
    for row in TYPED_ROWS
]

# The official sheet typed by figures: contract key, taker key, the taker's figure.
FIGURES = [
    {"contract": "G", "taker": "E", "figure": "318"},
    {"contract": "GS", "taker": "O", "figure": "228"},
    {"contract": "P", "taker": "S", "figure": "-126"},
    {"contract": "G", "taker": "N", "figure": "276"},
    {"contract": "G", "taker": "S", "figure": "1746"},
]

# What the sheet prints, in its columns Nord, Sud, Est, Ouest: each deal's row, the plus and
# minus totals and the Bilan (the figures of rule 004, not worked out again here).
ROWS = [
    [-106, -106, 318, -106],
    [-76, -76, -76, 228],
    [42, -126, 42, 42],
    [276, -92, -92, -92],
    [-582, 1746, -582, -582],
]
PLUS_TOTALS = [318, 1746, 360, 270]
MINUS_TOTALS = [764, 400, 750, 780]
BILANS = [-446, 1346, -390, -510]
BILANS_BY_NAME = dict(zip(PAPER_NAMES, BILANS, strict=True))


def in_seat_order(paper_values: list[int], order: str) -> list[int]:
    """Values given in the paper's columns (N, S, E, W), rearranged to the seat order `order`."""
    by_direction = dict(zip(PAPER_ORDER, paper_values, strict=True))
    return [by_direction[direction] for direction in order]


def engine_deals(order: str = "NESW") -> list[dict[str, Any]]:
    """The five deals in the engine's fields, with seats as indexes of `order` (e.g. "NSEW")."""

    def seat(direction: str) -> int:
        return order.index(direction)

    deals = []
    for deal in _DEALS:
        fields = {**deal, "taker": seat(deal["taker"])}
        if "poignees" in deal:
            fields["poignees"] = [[seat(owner), size] for owner, size in deal["poignees"]]
        deals.append(fields)
    return deals
