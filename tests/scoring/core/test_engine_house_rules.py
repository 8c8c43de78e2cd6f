"""House-rule variants are data: the booklet variant and a variant made up on the spot."""

from dataclasses import FrozenInstanceError, replace
from types import MappingProxyType

import pytest

from scoring.core.deal import Deal, DealError
from scoring.core.engine import score_deal
from scoring.core.rules import BOOKLET, FFT, RULE_SETS, get_rules


def four(**fields) -> Deal:
    return Deal(players=4, taker=0, **fields)


def test_registry_names_the_rule_sets():
    assert RULE_SETS == {"fft": FFT, "booklet": BOOKLET}
    assert get_rules("booklet") is BOOKLET
    with pytest.raises(KeyError):
        get_rules("belote")


def test_fft_is_the_default():
    deal = four(contract="garde_sans", oudlers=2, points=45)
    assert score_deal(deal) == score_deal(deal, FFT)


def test_booklet_garde_sans_won_by_4_is_times_three():
    result = score_deal(four(contract="garde_sans", oudlers=2, points=45), BOOKLET)
    assert (result.multiplier, result.value) == (3, (25 + 4) * 3)
    assert result.scores == (261, -87, -87, -87)


def test_booklet_garde_contre_lost_by_6_is_times_four():
    result = score_deal(four(contract="garde_contre", oudlers=1, points=45), BOOKLET)
    assert result.value == -(25 + 6) * 4
    assert result.scores == (-372, 124, 124, 124)


@pytest.mark.parametrize("contract", ["prise", "garde"])
def test_booklet_prise_and_garde_score_as_fft(contract):
    deal = four(contract=contract, oudlers=3, points=60, poignees=[[1, "simple"]])
    assert score_deal(deal, BOOKLET).scores == score_deal(deal, FFT).scores


def test_booklet_petit_au_bout_adds_ten_card_points_and_can_win_the_contract():
    deal = four(contract="prise", oudlers=1, points=45, petit_au_bout="attack")
    fft = score_deal(deal, FFT)
    assert (fft.won, fft.value) == (False, -31 + 10)
    booklet = score_deal(deal, BOOKLET)
    assert (booklet.counted_points, booklet.won, booklet.margin) == (55, True, 4)
    assert (booklet.petit_au_bout_bonus, booklet.value) == (0, 29)


def test_booklet_petit_au_bout_to_the_defence_can_sink_the_contract():
    deal = four(contract="garde", oudlers=2, points=45, petit_au_bout="defense")
    assert score_deal(deal, FFT).value == (25 + 4) * 2 - 20
    assert score_deal(deal, BOOKLET).value == -(25 + 6) * 2


def test_booklet_chelem_all_tricks_but_one():
    deal = four(contract="garde", oudlers=3, points=85, chelem_announced=True, chelem="attack")
    with pytest.raises(DealError) as info:
        score_deal(deal, FFT)
    assert info.value.field == "chelem"
    assert score_deal(deal, BOOKLET).value == (25 + 49) * 2 + 400


def test_booklet_chelem_lets_the_defence_take_the_last_trick_with_the_petit():
    deal = four(contract="garde", oudlers=3, points=85, chelem="attack", petit_au_bout="defense")
    with pytest.raises(DealError):
        score_deal(deal, FFT)
    assert score_deal(deal, BOOKLET).value == (25 + 39) * 2 + 200


def test_a_new_variant_needs_no_engine_change():
    # A club variant: contracts worth 20, poignées 10/15/20, petit au bout not multiplied.
    club = replace(
        FFT,
        name="club",
        label="Club",
        contract_base=20,
        poignee_bonuses=MappingProxyType({"simple": 10, "double": 15, "triple": 20}),
        petit_au_bout_multiplied=False,
        chelem_announced_made=300,
    )
    deal = four(
        contract="garde",
        oudlers=2,
        points=87,
        poignees=[[0, "double"]],
        petit_au_bout="attack",
        chelem_announced=True,
        chelem="attack",
    )
    result = score_deal(deal, club)
    assert result.value == (20 + 46) * 2 + 15 + 10 + 300
    assert result.scores[0] == 3 * result.value


def test_rule_sets_are_immutable():
    with pytest.raises(FrozenInstanceError):
        FFT.contract_base = 30
    with pytest.raises(TypeError):
        FFT.multipliers["garde_sans"] = 3
    assert FFT.multipliers["garde_sans"] == 4
