"""Impossible deals are refused with a DealError naming the field; every real deal is accepted."""

import pytest

from scoring.core.deal import Deal, DealError
from scoring.core.engine import score_deal
from scoring.core.rules import BOOKLET

BASE = dict(players=4, taker=0, contract="garde", oudlers=2, points=49)
FIVE = dict(players=5, taker=0, partner=1, contract="garde", oudlers=2, points=49.5)
DEAD = dict(players=5, taker=0, dead=4, contract="garde", oudlers=2, points=49)


def refused(base: dict, **changes) -> DealError:
    with pytest.raises(DealError) as info:
        score_deal(Deal(**{**base, **changes}))
    return info.value


@pytest.mark.parametrize("players", [2, 6, 0, "4", 4.0, True, None])
def test_players_outside_three_to_five(players):
    assert refused(BASE, players=players).field == "players"


@pytest.mark.parametrize("taker", [-1, 4, "0", True, None, 1.0])
def test_taker_seat_out_of_range_or_not_a_seat(taker):
    assert refused(BASE, taker=taker).field == "taker"


def test_bool_seat_is_refused_even_when_it_would_index_a_seat():
    # False == 0 in Python; a bool from a form is still a mistake.
    assert refused(BASE, taker=False).field == "taker"


@pytest.mark.parametrize("partner", [-1, 5, "1", True])
def test_partner_seat_out_of_range(partner):
    assert refused(FIVE, partner=partner).field == "partner"


@pytest.mark.parametrize("players", [3, 4])
def test_partner_at_three_or_four_players(players):
    assert refused(BASE, players=players, partner=1, points=49).field == "partner"


def test_partner_at_five_with_a_dead():
    assert refused(DEAD, partner=1).field == "partner"


def test_partner_equal_to_taker():
    assert refused(FIVE, partner=0).field == "partner"


@pytest.mark.parametrize("dead", [-1, 5, "4", True])
def test_dead_seat_out_of_range(dead):
    assert refused(DEAD, dead=dead).field == "dead"


def test_dead_is_the_taker():
    assert refused(DEAD, dead=0).field == "dead"


def test_dead_is_the_partner():
    assert refused(FIVE, dead=1, points=49).field == "dead"


@pytest.mark.parametrize("players", [3, 4])
def test_dead_at_a_table_not_of_five(players):
    assert refused(BASE, players=players, dead=2).field == "dead"


def test_poignee_by_the_dead_seat():
    assert refused(DEAD, poignees=[[4, "simple"]]).field == "poignees"


@pytest.mark.parametrize("points", [-1, 91.5, 92, 200])
def test_points_outside_0_to_91(points):
    assert refused(FIVE, points=points, oudlers=2).field == "points"


def test_half_points_at_four_players():
    assert refused(BASE, points=49.5).field == "points"


def test_half_points_at_five_with_a_dead():
    assert refused(DEAD, points=49.5).field == "points"


@pytest.mark.parametrize("points", [49.25, 49.75, 41.1])
def test_fractions_other_than_a_half(points):
    assert refused(FIVE, points=points).field == "points"


@pytest.mark.parametrize("oudlers", [-1, 4, "2", True, 1.0, None])
def test_oudlers_outside_0_to_3(oudlers):
    assert refused(BASE, oudlers=oudlers).field == "oudlers"


@pytest.mark.parametrize("oudlers,points", [(1, 3), (2, 7), (3, 11), (3, 0)])
def test_points_below_four_per_oudler_held(oudlers, points):
    assert refused(BASE, oudlers=oudlers, points=points).field == "points"


@pytest.mark.parametrize("oudlers,points", [(0, 80), (1, 84), (2, 88), (0, 91)])
def test_points_above_what_the_missing_oudlers_leave(oudlers, points):
    assert refused(BASE, oudlers=oudlers, points=points).field == "points"


# (oudlers, points) at the bounds, and the garde's value: (25 + margin to 56/51/41/36) x 2.
@pytest.mark.parametrize(
    "oudlers,points,value",
    [
        (3, 12, -(25 + 24) * 2),  # lost by 24 (target 36)
        (2, 8, -(25 + 33) * 2),  # lost by 33 (target 41)
        (0, 79, (25 + 23) * 2),  # won by 23 (target 56)
        (2, 87, (25 + 46) * 2),  # won by 46
        (1, 83, (25 + 32) * 2),  # won by 32 (target 51)
    ],
)
def test_points_at_the_oudler_bounds_are_accepted(oudlers, points, value):
    result = score_deal(Deal(**{**BASE, "oudlers": oudlers, "points": points}))
    assert result.value == value
    assert result.scores == (3 * value, -value, -value, -value)


@pytest.mark.parametrize("contract", ["prise", "garde", "garde_sans"])
@pytest.mark.parametrize("points,oudlers", [(90, 3), (87, 3), (86, 2), (83, 1), (80, 3)])
def test_attack_chelem_with_impossible_points(contract, points, oudlers):
    err = refused(BASE, contract=contract, points=points, oudlers=oudlers, chelem="attack")
    assert err.field == "chelem"


@pytest.mark.parametrize("points,oudlers", [(91, 3), (87, 2)])
def test_attack_chelem_with_all_points_accepted(points, oudlers):
    deal = Deal(**{**BASE, "points": points, "oudlers": oudlers, "chelem": "attack"})
    assert score_deal(deal).chelem_bonus == 200


def test_chelem_at_garde_contre_may_leave_the_chien_points_to_the_defence():
    deal = Deal(players=4, taker=0, contract="garde_contre", oudlers=2, points=80, chelem="attack")
    assert score_deal(deal).won


def test_booklet_chelem_all_tricks_but_one_leaves_points_open():
    deal = Deal(players=4, taker=0, contract="garde", oudlers=3, points=85, chelem="attack")
    assert score_deal(deal, BOOKLET).chelem_bonus == 200


def test_two_poignees_by_one_player():
    err = refused(FIVE, poignees=[[2, "simple"], [2, "double"]])
    assert err.field == "poignees"


@pytest.mark.parametrize(
    "base,poignees",
    [
        (BASE, [[0, "simple"], [1, "double"]]),  # 10 + 13 at 4 players
        (BASE, [[0, "triple"], [1, "simple"]]),  # 15 + 10
        ({**BASE, "players": 3}, [[0, "simple"], [1, "simple"]]),  # 13 + 13
        (FIVE, [[0, "double"], [2, "triple"]]),  # 10 + 13
        (FIVE, [[0, "simple"], [2, "simple"], [3, "simple"]]),  # 8 x 3
        (DEAD, [[0, "simple"], [1, "double"]]),  # a dead table shows 4-player handfuls
    ],
)
def test_poignees_needing_more_than_the_22_trumps(base, poignees):
    points = 49 if base is not FIVE else 49.5
    assert refused(base, poignees=poignees, points=points).field == "poignees"


# Trumps shown, and the bonuses (20 a simple, 40 a triple) paid to the winning attack.
@pytest.mark.parametrize(
    "base,poignees,bonus",
    [
        (BASE, [[0, "simple"], [1, "simple"]], 20 + 20),  # 10 + 10 trumps
        (FIVE, [[0, "simple"], [2, "triple"]], 20 + 40),  # 8 + 13
        (FIVE, [[0, "simple"], [2, "simple"]], 20 + 20),  # 8 + 8
    ],
)
def test_poignees_that_fit_in_the_game_are_accepted(base, poignees, bonus):
    without = score_deal(Deal(**base))
    result = score_deal(Deal(**{**base, "poignees": poignees}))
    assert result.won and result.poignee_bonus == bonus
    assert result.value == without.value + bonus


@pytest.mark.parametrize(
    "poignees",
    [
        "simple",
        [[0]],
        [[0, "simple", 1]],
        ["0s"],
        [[4, "simple"]],
        [[True, "simple"]],
        [["0", "simple"]],
        [[0, "quadruple"]],
        [[0, None]],
        None,
    ],
)
def test_malformed_poignees(poignees):
    assert refused(BASE, poignees=poignees).field == "poignees"


def test_poignees_as_json_lists_or_tuples_are_accepted():
    from_json = score_deal(Deal(**{**BASE, "poignees": [[1, "double"]]}))
    from_tuples = score_deal(Deal(**{**BASE, "poignees": ((1, "double"),)}))
    assert from_json.scores == from_tuples.scores == (3 * 96, -96, -96, -96)


@pytest.mark.parametrize("contract", ["petite", "Garde", "", None, 2])
def test_unknown_contract(contract):
    assert refused(BASE, contract=contract).field == "contract"


@pytest.mark.parametrize("side", ["both", "Attack", "", True, 1])
def test_unknown_petit_au_bout_side(side):
    assert refused(BASE, petit_au_bout=side).field == "petit_au_bout"


@pytest.mark.parametrize("side", ["both", "taker", True, 0])
def test_unknown_chelem_side(side):
    assert refused(BASE, chelem=side).field == "chelem"


@pytest.mark.parametrize("announced", ["yes", 1, None, "true"])
def test_chelem_announced_not_a_bool(announced):
    assert refused(BASE, chelem_announced=announced).field == "chelem_announced"


@pytest.mark.parametrize("points", ["abc", "49", None, True, [49], float("nan"), float("inf")])
def test_points_of_the_wrong_type(points):
    assert refused(BASE, points=points).field == "points"


def test_petit_au_bout_for_the_side_that_took_no_trick():
    deal = dict(BASE, points=91, oudlers=3, chelem="attack", petit_au_bout="defense")
    assert refused(deal).field == "petit_au_bout"


def test_points_as_integral_float_are_accepted_at_four_players():
    assert score_deal(Deal(**{**BASE, "points": 49.0})).value == 66


def test_message_is_french_template_with_params():
    err = refused(BASE, points=95)
    assert err.template == "Points : %(value)s n'est pas entre 0 et 91."
    assert err.params == {"value": 95}
    assert str(err) == "Points : 95 n'est pas entre 0 et 91."
    assert isinstance(err, ValueError)


def test_from_dict_names_missing_and_unknown_fields():
    with pytest.raises(DealError) as missing:
        Deal.from_dict({"players": 4, "taker": 0, "contract": "garde", "oudlers": 2})
    assert missing.value.field == "points"
    with pytest.raises(DealError) as unknown:
        Deal.from_dict({**BASE, "dealer": 2})
    assert unknown.value.field == "dealer"


def test_deal_error_survives_pickling():
    import pickle

    err = pickle.loads(pickle.dumps(refused(BASE, oudlers=7)))
    assert (err.field, err.params, str(err)) == (
        "oudlers",
        {"value": 7},
        "Bouts : 7 n'est pas entre 0 et 3.",
    )
