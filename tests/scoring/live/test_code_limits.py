"""Wrong personal codes lock the phone that typed them, never the player they were typed for
(issue 35, "Limits turned against the victim").

Each reproduction is a test that failed before: from one address (a club network), ten wrong
codes with fresh cookies locked a tablemate's right code on their own phone; the arbiter's
unlock was undone by the next ten; twenty wrong table codes locked `/table/` for every phone of
the address. Now a phone typing wrong codes is locked alone, a phone vouched for its player
(their right code typed on it, or unlocked by the arbiter by its number) is never refused by
anyone else's tries, and the address's budgets are sized for a room.
"""

import html
import re
import time

import pytest
from django.test import Client
from django.urls import reverse

from scoring.models import Deal, ScoreSheet
from scoring.sheets.table_entry import code_alerts, guessing
from scoring.sheets.table_entry.guessing import CLIENT_ALLOWANCE, PLAYER_BUDGET
from scoring.sheets.views.table.page import DEVICE_CODE_ATTEMPTS
from tests.scoring.live.test_phone_trust import GARDE_CONTRE, build, phone, send
from tournament.models import Counter

pytestmark = pytest.mark.django_db

VICTIM = 2  # SUD, a defender of seat 0's garde contre


def wrong_pins(right: str, count: int) -> list[str]:
    return [pin for pin in (f"{n:06d}" for n in range(count + 1)) if pin != right][:count]


def fresh_cookie_attack(link, seat: int, right: str, count: int, start: int = 0) -> list[int]:
    """`count` wrong codes for `seat`, each from a new device cookie (one address: the test
    client's)."""
    return [
        send(
            phone(f"fresh{start + n}"), "table-identify", link, {"seat": seat, "pin": pin}
        ).status_code
        for n, pin in enumerate(wrong_pins(right, count))
    ]


def a_waiting_deal(world) -> None:
    taker = phone("taker")
    link, players = world["link"], world["players"]
    assert (
        send(taker, "table-identify", link, {"seat": 0, "pin": players[0].pin}).status_code == 200
    )
    body = {"client_id": "garde-contre-1", "version": 0, "deal": GARDE_CONTRE}
    assert send(taker, "table-deal-create", link, body).status_code == 201


def listed() -> dict:
    """What a phone's confirmation list shows: the sheet's version and its waiting deals."""
    deals = list(Deal.objects.filter(pending=True).values_list("pk", flat=True))
    return {"version": ScoreSheet.objects.get().version, "deals": deals}


def test_fresh_cookies_from_the_victims_address_do_not_lock_her_right_code():
    world = build()
    link, players = world["link"], world["players"]
    pin = players[VICTIM].pin
    own = phone("sudphone")
    assert send(own, "table-identify", link, {"seat": VICTIM, "pin": pin}).status_code == 200
    a_waiting_deal(world)
    answers = fresh_cookie_attack(link, VICTIM, pin, 3 * PLAYER_BUDGET)
    # The address's budget for her is bounded: a new cookie does not buy new guesses.
    assert answers == [403] * PLAYER_BUDGET + [429] * (2 * PLAYER_BUDGET)
    assert (
        send(phone("freshright"), "table-identify", link, {"seat": VICTIM, "pin": pin}).status_code
        == 429
    )
    # Her own phone still proves her code and confirms.
    assert send(own, "table-identify", link, {"seat": VICTIM, "pin": pin}).status_code == 200
    confirmed = send(own, "table-confirm", link, {"seat": VICTIM, "pin": pin, **listed()})
    assert confirmed.status_code == 200 and confirmed.json()["confirmed"] == [1]


def test_her_bound_phone_keeps_working_while_others_type_wrong_codes_for_her():
    world = build()
    link, players = world["link"], world["players"]
    pin = players[VICTIM].pin
    own = phone("sudphone")
    assert send(own, "table-identify", link, {"seat": VICTIM, "pin": pin}).status_code == 200
    a_waiting_deal(world)
    attacker = phone("attacker")
    for guess in wrong_pins(pin, 30):
        send(attacker, "table-identify", link, {"seat": VICTIM, "pin": guess})
    fresh_cookie_attack(link, VICTIM, pin, 3 * PLAYER_BUDGET)
    contested = send(
        own,
        "table-contest",
        link,
        {"seat": VICTIM, "pin": pin, "number": 1, "note": "Pas de poignée"},
    )
    assert contested.status_code == 200, contested.json()
    assert Deal.objects.get().disputed


def test_the_guessing_phone_is_locked_even_for_the_right_code():
    world = build()
    link, players = world["link"], world["players"]
    pin = players[VICTIM].pin
    attacker = phone("attacker")
    answers = [
        send(attacker, "table-identify", link, {"seat": VICTIM, "pin": guess})
        for guess in wrong_pins(pin, CLIENT_ALLOWANCE + 2)
    ]
    assert [a.status_code for a in answers] == [403] * CLIENT_ALLOWANCE + [429] * 2
    tag = guessing.device_tag("attacker")
    assert f"téléphone {tag}" in answers[-1].json()["error"]
    right = send(attacker, "table-identify", link, {"seat": VICTIM, "pin": pin})
    assert right.status_code == 429


def _unlock(arbiter_client, world, registration, **form):
    url = reverse("code-unlock", args=[world["tournament"].pk, registration.pk])
    return arbiter_client.post(url, form, follow=True)


def test_after_the_arbiters_unlock_her_new_phone_works_while_the_attacker_goes_on(
    arbiter_client,
):
    world = build()
    link, players = world["link"], world["players"]
    victim, pin = players[VICTIM], players[VICTIM].pin
    a_waiting_deal(world)
    attacker = phone("attacker")
    for guess in wrong_pins(pin, 5):
        send(attacker, "table-identify", link, {"seat": VICTIM, "pin": guess})
    fresh_cookie_attack(link, VICTIM, pin, 2 * PLAYER_BUDGET)
    # Her new phone is refused by the address's spent budget, and says its number.
    new_phone = phone("sudnewphone")
    refused = send(new_phone, "table-identify", link, {"seat": VICTIM, "pin": pin})
    assert refused.status_code == 429
    tag = re.search(r"téléphone ([0-9A-F]{6})", refused.json()["error"]).group(1)
    # The attacker's phone spent 3 of her budget, 7 fresh cookies the rest; 13 were refused.
    (alert,) = code_alerts(world["tournament"])
    assert alert.failures == PLAYER_BUDGET and alert.locked
    assert alert.refused == 2 * PLAYER_BUDGET - (PLAYER_BUDGET - CLIENT_ALLOWANCE) + 1
    # The arbiter unlocks her with that number.
    page = _unlock(arbiter_client, world, victim, device=tag.lower())
    assert "Code de SUD débloqué" in page.content.decode()
    # The attacker goes on, with the same phone and with fresh cookies: nothing refuses her.
    for guess in wrong_pins(pin, 5):
        assert (
            send(attacker, "table-identify", link, {"seat": VICTIM, "pin": guess}).status_code
            == 429
        )
    fresh_cookie_attack(link, VICTIM, pin, 2 * PLAYER_BUDGET, start=100)
    assert send(new_phone, "table-identify", link, {"seat": VICTIM, "pin": pin}).status_code == 200
    confirmed = send(new_phone, "table-confirm", link, {"seat": VICTIM, "pin": pin, **listed()})
    assert confirmed.status_code == 200 and confirmed.json()["confirmed"] == [1]
    # An unknown number unlocks nothing, and says so.
    unknown = _unlock(arbiter_client, world, victim, device="ZZZZZZ")
    assert "Aucun téléphone n° ZZZZZZ" in html.unescape(unknown.content.decode())


def test_a_plain_unlock_frees_her_next_new_phone_while_the_attacker_goes_on(arbiter_client):
    """Before: the arbiter's plain Débloquer (without the phone's number) cleared her budget,
    which the attacker's fresh cookies spent again in 10 tries: her new phone was refused."""
    world = build()
    link, players = world["link"], world["players"]
    victim, pin = players[VICTIM], players[VICTIM].pin
    a_waiting_deal(world)
    attacker = phone("attacker")
    for guess in wrong_pins(pin, CLIENT_ALLOWANCE):
        send(attacker, "table-identify", link, {"seat": VICTIM, "pin": guess})
    fresh_cookie_attack(link, VICTIM, pin, 2 * PLAYER_BUDGET)
    page = _unlock(arbiter_client, world, victim)
    assert "Code de SUD débloqué" in page.content.decode()
    # The attacker's loop goes on between the unlock and her try: its old phone, the cookies
    # it already used, and new cookies (one try each).
    assert send(attacker, "table-identify", link, {"seat": VICTIM, "pin": "000000"}).status_code
    fresh_cookie_attack(link, VICTIM, pin, 2 * PLAYER_BUDGET, start=100)
    again = fresh_cookie_attack(link, VICTIM, pin, 3, start=100)
    assert again == [429] * 3  # a phone that typed a wrong code for her stays refused
    right = {"seat": VICTIM, "pin": pin}
    assert send(attacker, "table-identify", link, right).status_code == 429  # still locked
    # Her new phone, never used: her own code goes through and she confirms.
    new_phone = phone("sudnewphone")
    assert send(new_phone, "table-identify", link, right).status_code == 200
    confirmed = send(new_phone, "table-confirm", link, {**right, **listed()})
    assert confirmed.status_code == 200 and confirmed.json()["confirmed"] == [1]
    # Her right code closed the arbiter's grant, and the script's tries during it were counted
    # in her budget: its next new cookies are refused; her bound phone never is.
    answers = fresh_cookie_attack(link, VICTIM, pin, 3, start=200)
    assert answers == [429] * 3
    assert send(new_phone, "table-identify", link, right).status_code == 200


def test_the_unlock_keeps_the_attacking_phones_lock(arbiter_client):
    world = build()
    link, players = world["link"], world["players"]
    victim, pin = players[VICTIM], players[VICTIM].pin
    attacker = phone("attacker")
    for guess in wrong_pins(pin, CLIENT_ALLOWANCE):
        send(attacker, "table-identify", link, {"seat": VICTIM, "pin": guess})
    _unlock(arbiter_client, world, victim)
    assert (
        send(attacker, "table-identify", link, {"seat": VICTIM, "pin": "000000"}).status_code == 429
    )
    assert (
        send(phone("sudnew"), "table-identify", link, {"seat": VICTIM, "pin": pin}).status_code
        == 200
    )


def test_the_cockpit_shows_which_phone_types_wrong_codes_for_whom(arbiter_client):
    world = build()
    link, players = world["link"], world["players"]
    pin = players[VICTIM].pin
    attacker = phone("attacker")
    for guess in wrong_pins(pin, CLIENT_ALLOWANCE + 4):
        send(attacker, "table-identify", link, {"seat": VICTIM, "pin": guess})
    fresh_cookie_attack(link, VICTIM, pin, 3)
    (alert,) = code_alerts(world["tournament"])
    tag = guessing.device_tag("attacker")
    failures = CLIENT_ALLOWANCE + 3  # the locked phone's, then the three fresh cookies'
    assert (alert.registration, alert.table_number) == (players[VICTIM], 7)
    assert alert.failures == failures
    assert alert.devices[0].tag == tag and alert.devices[0].failures == CLIENT_ALLOWANCE
    assert alert.devices[0].locked and alert.locked
    page = arbiter_client.get(reverse("tournament-detail", args=[world["tournament"].pk]))
    text = html.unescape(page.content.decode())
    assert f"{failures} codes erronés pour SUD à la table 7" in text
    assert f"{tag} ({CLIENT_ALLOWANCE}, bloqué)" in text


def test_wrong_table_codes_lock_the_phone_not_the_address():
    world = build()
    link = world["link"]
    guesser = phone("guesser")
    for _attempt in range(DEVICE_CODE_ATTEMPTS + 15):
        guesser.post(reverse("table-code"), {"code": "ZZZZZZ"})
    refused = guesser.post(reverse("table-code"), {"code": link.code})
    assert refused.status_code == 400
    assert "Trop d'essais depuis ce téléphone" in html.unescape(refused.content.decode())
    # Another phone behind the same address gets in, with or without its cookie yet.
    other = phone("tablemate")
    found = other.post(reverse("table-code"), {"code": link.code})
    assert found.status_code == 302 and found["Location"] == reverse(
        "table-entry", args=[link.token]
    )
    first_visit = Client()
    page = first_visit.get(reverse("table-code"))
    assert page.cookies["tarot_device"].value  # the phone gets its own id on its first visit


def test_the_room_budget_bounds_guesses_spread_over_players(monkeypatch):
    monkeypatch.setattr(guessing, "ROOM_BUDGET", 12)
    world = build()
    link, players = world["link"], world["players"]
    answers = []
    for seat in range(4):
        answers += fresh_cookie_attack(link, seat, players[seat].pin, 5, start=10 * seat)
    assert answers.count(403) == 12 and answers.count(429) == 8
    # A right code is given back: it does not use the room's budget.
    monkeypatch.setattr(guessing, "ROOM_BUDGET", 13)
    for n in range(3):
        ok = send(phone(f"right{n}"), "table-identify", link, {"seat": 1, "pin": players[1].pin})
        assert ok.status_code == 200


def test_counts_written_before_this_change_are_read_without_error(arbiter_client):
    """The cockpit's count per player and table had no phone in its key: still shown."""
    world = build()
    players, link = world["players"], world["link"]
    Counter.objects.create(
        key=f"pin-fail:{players[VICTIM].pk}:{link.table_id}",
        hits=6,
        window_end=time.time() + 600,
        tournament=world["tournament"],
        registration=players[VICTIM],
        table_id=link.table_id,
    )
    (alert,) = code_alerts(world["tournament"])
    assert alert.failures == 6 and alert.table_number == 7
    unknown = _unlock(arbiter_client, world, players[VICTIM], device="ABCDEF")
    assert "Aucun téléphone n° ABCDEF" in html.unescape(unknown.content.decode())
    assert len(code_alerts(world["tournament"])) == 1  # nothing cleared on an unknown number
    _unlock(arbiter_client, world, players[VICTIM])
    assert code_alerts(world["tournament"]) == []
