"""The worked examples of the FFT rules (004 for 4 players, 000 for 5) and the half-point cases."""

import pytest

from scoring.core.deal import Deal
from scoring.core.engine import passed_scores, score_deal

# 004 "Exemples de marque de points"; the taker sits at seat 0 of 4.
# fmt: off
EXAMPLE_1 = dict(players=4, taker=0, contract="garde", oudlers=2, points=49,
                 poignees=[[0, "simple"]], petit_au_bout="attack")
EXAMPLE_2 = dict(players=4, taker=0, contract="garde_sans", oudlers=2, points=45,
                 petit_au_bout="defense")
EXAMPLE_3 = dict(players=4, taker=0, contract="prise", oudlers=1, points=44,
                 poignees=[[0, "simple"]], petit_au_bout="attack")
EXAMPLE_4 = dict(players=4, taker=0, contract="garde", oudlers=1, points=62,
                 poignees=[[2, "simple"]])
EXAMPLE_5 = dict(players=4, taker=0, contract="garde", oudlers=2, points=87,
                 poignees=[[0, "simple"]], petit_au_bout="attack", chelem_announced=True,
                 chelem="attack")
# fmt: on

# What the rules work out for each example: the result's fields checked, by name.
EXAMPLE_RESULTS = {
    "1 garde with poignee and petit au bout": (EXAMPLE_1, dict(
        target=41, won=True, margin=8, multiplier=2, contract_value=66, poignee_bonus=20,
        petit_au_bout_bonus=20, chelem_bonus=0, value=106, scores=(318, -106, -106, -106))),
    "2 garde sans won by 4, petit lost to the defence": (EXAMPLE_2, dict(
        won=True, margin=4, multiplier=4, contract_value=116, petit_au_bout_bonus=-40,
        value=76, scores=(228, -76, -76, -76))),
    # The taker's own poignée is paid to the winning side: the defence.
    "3 prise lost by 7, poignee goes to the defence": (EXAMPLE_3, dict(
        won=False, margin=7, multiplier=1, contract_value=32, poignee_bonus=-20,
        petit_au_bout_bonus=10, value=-42, scores=(-126, 42, 42, 42))),
    "4 garde won by 11, a defender's poignee goes to the attack": (EXAMPLE_4, dict(
        won=True, margin=11, contract_value=72, poignee_bonus=20, value=92,
        scores=(276, -92, -92, -92))),
    "5 announced chelem made at garde": (EXAMPLE_5, dict(
        won=True, margin=46, contract_value=142, poignee_bonus=20, petit_au_bout_bonus=20,
        chelem_bonus=400, value=582, scores=(1746, -582, -582, -582))),
}  # fmt: skip


@pytest.mark.parametrize("example,expected", EXAMPLE_RESULTS.values(), ids=list(EXAMPLE_RESULTS))
def test_004_example(example, expected):
    result = score_deal(Deal(**example))
    assert {name: getattr(result, name) for name in expected} == expected


def test_juste_fait_wins_by_zero():
    result = score_deal(Deal(players=4, taker=1, contract="prise", oudlers=1, points=51))
    assert (result.won, result.margin, result.value) == (True, 0, 25)
    assert result.scores == (-25, 75, -25, -25)


def test_garde_contre_lost_multiplies_by_six():
    result = score_deal(Deal(players=4, taker=3, contract="garde_contre", oudlers=0, points=50))
    assert result.value == -(25 + 6) * 6
    assert result.scores == (186, 186, 186, -558)


# 000: the same five deals at 5 players (poignée simple = 8 trumps), taker at seat 0.
# (with an associate at seat 1: taker, associate, each defender) and (alone: taker, each defender)
FIVE_PLAYER_EXAMPLES = [
    (EXAMPLE_1, (212, 106, -106), (424, -106)),
    (EXAMPLE_2, (152, 76, -76), (304, -76)),
    (EXAMPLE_3, (-84, -42, 42), (-168, 42)),
    (EXAMPLE_4, (184, 92, -92), (368, -92)),
    (EXAMPLE_5, (1164, 582, -582), (2328, -582)),
]


@pytest.mark.parametrize("example,with_partner,alone", FIVE_PLAYER_EXAMPLES)
def test_five_players_with_an_associate(example, with_partner, alone):
    taker, partner, defender = with_partner
    deal = Deal(**{**example, "players": 5, "partner": 1})
    assert score_deal(deal).scores == (taker, partner, defender, defender, defender)


@pytest.mark.parametrize("example,with_partner,alone", FIVE_PLAYER_EXAMPLES)
def test_five_players_taker_alone(example, with_partner, alone):
    taker, defender = alone
    deal = Deal(**{**example, "players": 5, "partner": None})
    assert score_deal(deal).scores == (taker,) + (defender,) * 4


def test_five_players_poignee_shown_by_the_associate_goes_to_the_winning_defence():
    # The poignée goes to the winner whoever showed it: shown by the associate, deal lost.
    deal = Deal(players=5, taker=2, partner=4, contract="prise", oudlers=1, points=44,
                poignees=[[4, "double"]])  # fmt: skip
    result = score_deal(deal)
    assert result.value == -(25 + 7) - 30
    assert result.scores == (62, 62, -124, 62, -62)


def test_half_point_three_players_40_5_with_2_oudlers_loses_by_one():
    result = score_deal(Deal(players=3, taker=0, contract="prise", oudlers=2, points=40.5))
    assert (result.won, result.margin, result.value) == (False, 1, -26)
    assert result.scores == (-52, 26, 26)


def test_half_point_three_players_41_5_with_2_oudlers_wins_by_one():
    result = score_deal(Deal(players=3, taker=2, contract="prise", oudlers=2, points=41.5))
    assert (result.won, result.margin, result.value) == (True, 1, 26)
    assert result.scores == (-26, -26, 52)


def test_half_point_three_players_garde_sans_lost_by_half_point():
    result = score_deal(Deal(players=3, taker=1, contract="garde_sans", oudlers=1, points=50.5))
    assert result.value == -(25 + 1) * 4
    assert result.scores == (104, -208, 104)


def test_half_point_five_players_with_associate():
    lost = score_deal(Deal(players=5, taker=0, partner=3, contract="prise", oudlers=2, points=40.5))
    assert lost.scores == (-52, 26, 26, -26, 26)
    won = score_deal(Deal(players=5, taker=0, partner=3, contract="prise", oudlers=2, points=41.5))
    assert won.scores == (52, -26, -26, 26, -26)


def test_half_point_five_players_alone():
    result = score_deal(Deal(players=5, taker=4, contract="garde", oudlers=2, points=40.5))
    assert result.value == -52
    assert result.scores == (52, 52, 52, 52, -208)


def test_five_at_the_table_with_a_dead_scores_the_four_player_game():
    deal = Deal(**{**EXAMPLE_1, "players": 5, "taker": 1, "dead": 3, "poignees": [[1, "simple"]]})
    result = score_deal(deal)
    assert result.value == 106
    assert result.scores == (-106, 318, -106, 0, -106)


def test_dead_table_uses_four_player_poignee_thresholds():
    # Two simple poignées at 4-player thresholds (10 + 10 trumps) fit in the game's 22.
    deal = Deal(players=5, taker=0, dead=4, contract="garde", oudlers=1, points=55,
                poignees=[[0, "simple"], [2, "simple"]])  # fmt: skip
    result = score_deal(deal)
    assert result.poignee_bonus == 40
    assert result.scores == (3 * 98, -98, -98, -98, 0)


def test_defence_chelem_costs_the_attack_200_each():
    deal = Deal(players=4, taker=0, contract="prise", oudlers=0, points=3, chelem="defense")
    result = score_deal(deal)
    assert result.chelem_bonus == -200
    assert result.value == -(25 + 53) - 200
    assert result.scores == (-834, 278, 278, 278)


def test_announced_chelem_taken_by_the_defence_pays_both_penalties():
    deal = Deal(players=4, taker=0, contract="garde_sans", oudlers=0, points=0,
                chelem_announced=True, chelem="defense")  # fmt: skip
    result = score_deal(deal)
    assert result.chelem_bonus == -400
    assert result.value == -(25 + 56) * 4 - 400


def test_announced_chelem_failed_costs_200():
    deal = Deal(players=4, taker=0, contract="garde", oudlers=3, points=80, chelem_announced=True)
    result = score_deal(deal)
    assert result.chelem_bonus == -200
    assert result.value == (25 + 44) * 2 - 200


def test_unannounced_chelem_made_earns_200():
    deal = Deal(players=4, taker=0, contract="prise", oudlers=3, points=91, chelem="attack")
    assert score_deal(deal).value == 25 + 55 + 200


def test_passed_deal_scores_nothing():
    assert passed_scores(4) == (0, 0, 0, 0)
    assert passed_scores(5) == (0, 0, 0, 0, 0)


def test_deal_from_json_dict_round_trips():
    deal = Deal.from_dict(EXAMPLE_1)
    assert Deal.from_dict(deal.to_dict()) == Deal(**{**EXAMPLE_1, "poignees": [[0, "simple"]]})
    assert score_deal(Deal.from_dict(deal.to_dict())).value == 106
