"""A phone bound to its player acts as that player without the code typed again (issue 38):
it confirms, contests and signs; a phone bound to nobody still needs a code, and a binding
never lets it act for someone else (the cookie names the player, the body can't)."""

from __future__ import annotations

from scoring.models import Deal
from tests.scoring.sheets.table_entry.conftest import COTE, DURAND, LEFEVRE, MOREAU, Table4

PRISE = {"taker": MOREAU, "contract": "prise", "oudlers": 1, "points": 50}


def test_a_bound_phone_confirms_without_typing_the_code(table4: Table4):
    moreau = table4.phone("phone-moreau", bound_to=MOREAU)
    deal = table4.enter(moreau, PRISE, "c" * 32)
    cote = table4.phone("phone-cote", bound_to=COTE)
    body = {"deals": [deal.pk], "version": table4.sheet().version}
    answer = table4.post(cote, "table-confirm", body)
    assert answer.status_code == 200, answer.content
    assert answer.json()["confirmed"] == [deal.number]
    deal.refresh_from_db()
    assert not deal.pending and deal.confirmed_by_player == table4.players[COTE]


def test_the_bound_player_cannot_confirm_their_own_deal(table4: Table4):
    moreau = table4.phone("phone-moreau", bound_to=MOREAU)
    deal = table4.enter(moreau, PRISE, "d" * 32)
    # The body's seat is ignored without a pin: the phone is MOREAU's.
    body = {"deals": [deal.pk], "version": table4.sheet().version, "seat": COTE}
    answer = table4.post(moreau, "table-confirm", body)
    assert answer.status_code == 403
    assert Deal.objects.get(pk=deal.pk).pending


def test_a_bound_phone_contests_without_typing_the_code(table4: Table4):
    moreau = table4.phone("phone-moreau", bound_to=MOREAU)
    deal = table4.enter(moreau, PRISE, "e" * 32)
    durand = table4.phone("phone-durand", bound_to=DURAND)
    answer = table4.post(durand, "table-contest", {"number": deal.number, "note": "20 points"})
    assert answer.status_code == 200, answer.content
    deal.refresh_from_db()
    assert deal.disputed and deal.disputed_by_player == table4.players[DURAND]


def test_a_phone_bound_to_nobody_still_needs_a_code(table4: Table4):
    moreau = table4.phone("phone-moreau", bound_to=MOREAU)
    deal = table4.enter(moreau, PRISE, "f" * 32)
    passed_around = table4.phone("phone-table")
    body = {"deals": [deal.pk], "version": table4.sheet().version}
    answer = table4.post(passed_around, "table-confirm", body)
    assert answer.status_code == 403 and answer.json()["field"] == "seat"
    contest = table4.post(passed_around, "table-contest", {"number": deal.number})
    assert contest.status_code == 403 and contest.json()["field"] == "seat"
    # With a code typed, the same phone confirms for that player.
    answer = table4.confirm(passed_around, LEFEVRE, [deal])
    assert answer.status_code == 200, answer.content


def test_four_slips_on_a_passed_around_phone_leave_a_fifth_try(table4: Table4):
    """An older player mistypes their code four times: the phone is not locked, the right code
    goes through (a guesser's phone is still locked after CLIENT_ALLOWANCE tries:
    tests/scoring/live/test_code_limits.py)."""
    moreau = table4.phone("phone-moreau", bound_to=MOREAU)
    deal = table4.enter(moreau, PRISE, "g" * 32)
    passed_around = table4.phone("phone-table")
    right = table4.players[COTE].pin
    wrong = "9" * len(right) if right != "9" * len(right) else "8" * len(right)
    body = {"deals": [deal.pk], "version": table4.sheet().version, "seat": COTE}
    for _slip in range(4):
        answer = table4.post(passed_around, "table-confirm", {**body, "pin": wrong})
        assert answer.status_code == 403, answer.content
    answer = table4.post(passed_around, "table-confirm", {**body, "pin": right})
    assert answer.status_code == 200, answer.content
