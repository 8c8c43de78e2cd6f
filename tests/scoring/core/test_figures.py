"""The FFT sheet's figures: a taker's figure fills its row only when a real deal can give it."""

from itertools import product

import pytest
from hypothesis import given

from scoring.core.deal import CONTRACTS, Deal, DealError
from scoring.core.engine import score_deal
from scoring.core.figures import contract_values, figure_scores
from scoring.core.rules import BOOKLET, FFT
from tests.examples_004 import BILANS, FIGURES, ROWS, engine_deals, in_seat_order
from tests.scoring.core.test_engine_properties import SETTINGS, rule_sets, valid_deals

N, E, S, W, X = range(5)

# 004's score sheet, seat indexes N, E, S, W: (taker, contract, taker's figure) → row.
SHEET_004 = [
    ((deal["taker"], deal["contract"], int(typed["figure"])), tuple(in_seat_order(row, "NESW")))
    for deal, typed, row in zip(engine_deals("NESW"), FIGURES, ROWS, strict=True)
]


@pytest.mark.parametrize(("typed", "row"), SHEET_004)
def test_the_004_sheet_rows_fill_from_the_takers_figure(typed, row):
    taker, contract, figure = typed
    assert figure_scores(players=4, taker=taker, contract=contract, figure=figure) == row


def test_the_004_sheet_bilans_follow_from_its_figures():
    rows = [
        figure_scores(players=4, taker=taker, contract=contract, figure=figure)
        for (taker, contract, figure), _row in SHEET_004
    ]
    bilans = [sum(column) for column in zip(*rows, strict=True)]
    assert bilans == in_seat_order(BILANS, "NESW")


def test_each_table_shares_the_value_as_the_rules_say():
    # 3 players: the taker scores 2V.
    assert figure_scores(players=3, taker=0, contract="garde", figure=100) == (100, -50, -50)
    # 5 players with a called partner: taker 2V, partner V, three defenders −V.
    assert figure_scores(players=5, taker=N, partner=S, contract="prise", figure=60) == (
        60, -30, 30, -30, -30,
    )  # fmt: skip
    # Alone at 5 (called himself or the king in the chien): 4V.
    assert figure_scores(players=5, taker=N, contract="prise", figure=120) == (
        120, -30, -30, -30, -30,
    )  # fmt: skip
    # A mort sits out: a 4-player deal, the mort scores 0.
    assert figure_scores(players=5, taker=N, dead=X, contract="prise", figure=90) == (
        90, -30, -30, -30, 0,
    )  # fmt: skip


def test_a_figure_no_prise_can_give_is_refused_with_the_nearest_possible_ones():
    # A prise is worth at least 25, the petit au bout to the defence takes 10 at most: 15.
    with pytest.raises(DealError) as refused:
        figure_scores(players=4, taker=N, contract="prise", figure=30)
    assert refused.value.field == "figure"
    message = str(refused.value)
    assert "Chiffre du preneur" in message and "Prise" in message and "+30" in message
    assert "-48 ; +45" in message


def test_a_figure_that_is_not_a_multiple_of_the_takers_share_is_refused():
    with pytest.raises(DealError) as refused:
        figure_scores(players=4, taker=N, contract="garde", figure=317)
    assert refused.value.field == "figure"
    assert "multiple de 3" in str(refused.value)


def test_an_odd_value_at_garde_is_impossible():
    # (25 + margin) × 2, the petit ×2, poignées 20/30/40, chelems ±200/400: always even.
    assert all(value % 2 == 0 for value in contract_values("garde", 4))
    with pytest.raises(DealError) as refused:
        figure_scores(players=4, taker=N, contract="garde", figure=3 * 51)
    assert refused.value.field == "figure"


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"taker": 4}, "taker"),
        ({"contract": "grande"}, "contract"),
        ({"figure": "318"}, "figure"),
        ({"figure": True}, "figure"),
        ({"partner": S}, "partner"),  # no partner at 4 players
    ],
)
def test_bad_input_names_its_field(fields, field):
    typed = {"players": 4, "taker": N, "contract": "garde", "figure": 318, **fields}
    with pytest.raises(DealError) as refused:
        figure_scores(**typed)
    assert refused.value.field == field


@SETTINGS
@given(valid_deals(), rule_sets)
def test_every_figure_the_engine_gives_is_accepted_and_fills_the_same_row(deal, rules):
    result = score_deal(deal, rules)
    row = figure_scores(
        players=deal.players,
        taker=deal.taker,
        partner=deal.partner,
        dead=deal.dead,
        contract=deal.contract,
        figure=result.scores[deal.taker],
        rules=rules,
    )
    assert row == result.scores


@pytest.mark.parametrize("rules", [FFT, BOOKLET], ids=lambda r: r.name)
def test_the_accepted_values_are_exactly_those_of_real_deals(rules):
    # Every deal of a garde at 4 players, scored by the engine: the same set of values.
    thresholds = rules.poignee_thresholds[4]
    poignee_sets = [()] + [((0, size),) for size in thresholds]
    poignee_sets += [((0, "simple"), (1, "simple"))]  # 20 trumps: two simples fit, no more
    found = set()
    for oudlers in range(4):
        for points in range(4 * oudlers, 92 - 4 * (3 - oudlers)):
            for petit, announced, chelem, poignees in product(
                (None, "attack", "defense"),
                (False, True),
                (None, "attack", "defense"),
                poignee_sets,
            ):
                deal = Deal(
                    players=4,
                    taker=0,
                    contract="garde",
                    oudlers=oudlers,
                    points=points,
                    poignees=poignees,
                    petit_au_bout=petit,
                    chelem_announced=announced,
                    chelem=chelem,
                )
                try:
                    found.add(score_deal(deal, rules).value)
                except DealError:
                    continue
    assert contract_values("garde", 4, rules) == found


@pytest.mark.parametrize("contract", CONTRACTS)
def test_every_contract_and_table_size_has_values(contract):
    for playing in (3, 4, 5):
        assert contract_values(contract, playing)


def test_a_prise_never_scores_zero():
    # A garde can (won by 75, chelem announced and failed: 200 − 200), a prise never.
    assert 0 in contract_values("garde", 4)
    assert all(0 not in contract_values("prise", playing) for playing in (3, 4, 5))
