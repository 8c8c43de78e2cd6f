"""A deal entered on a phone counts only when two real people, one of each side, vouched for it
with their own personal codes; codes can't be guessed in an evening; a disputed deal goes back
to its enterer; a table can call the arbiter.

Each reproduction of issue 21 (the enterer declared by the body, the confirmer's own code, the
counter that another player's success reset) is a test here that failed before.
"""

import json

import pytest
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from scoring.live.standings import standings_for
from scoring.models import Deal, ScoreSheet, TableCall
from scoring.sheets.table_entry import code_alerts, links_for_position
from scoring.sheets.table_entry.code_desk import ALERT_FAILURES
from scoring.sheets.table_entry.guessing import CLIENT_ALLOWANCE
from tournament.models import (
    ChangeLog,
    Counter,
    Player,
    Position,
    Registration,
    Seat,
    Table,
    Tournament,
)

pytestmark = pytest.mark.django_db

# Seat 0 (NORD) takes a garde contre alone at a table of four: seats 1, 2, 3 defend.
GARDE_CONTRE = {"taker": 0, "contract": "garde_contre", "oudlers": 3, "points": 91, "dealer": 0}


def build() -> dict:
    tournament = Tournament.objects.create(
        name="Open",
        date="2026-11-21",
        entry_mode="phones",
        is_public=True,
        status="running",
    )
    players = [
        Registration.objects.create(
            tournament=tournament,
            player=Player.objects.create(last_name=name),
            number=n + 1,
        )
        for n, name in enumerate(["NORD", "EST", "SUD", "OUEST"])
    ]
    position = Position.objects.create(tournament=tournament, number=1, status="published")
    table = Table.objects.create(position=position, number=7)
    for seat, direction in enumerate("NESW"):
        Seat.objects.create(table=table, registration=players[seat], direction=direction)
    link = links_for_position(position)[0]
    return {"tournament": tournament, "link": link, "players": players}


def phone(device: str) -> Client:
    """A phone: its own device cookie (what the locks tie a client to)."""
    client = Client()
    client.cookies["tarot_device"] = device
    return client


def send(client, name, link, body, **kwargs):
    return client.post(
        reverse(name, args=[link.token, *kwargs.values()]),
        json.dumps(body),
        content_type="application/json",
    )


def shown(link, **code) -> dict:
    """A confirmation as the phone posts it: the code, the deals its list shows (those waiting
    for a confirmation) and the sheet's version it read."""
    sheet = ScoreSheet.objects.filter(table=link.table).first()
    deals = Deal.objects.filter(sheet=sheet, pending=True, disputed=False)
    version = sheet.version if sheet else 0
    return {"deals": list(deals.values_list("pk", flat=True)), "version": version, **code}


def public_total(tournament, registration) -> int:
    rows = standings_for(Tournament.objects.get(pk=tournament.pk), public=True).players
    return next(r.row.total for r in rows if r.row.key == registration.pk)


def test_a_taker_cannot_declare_a_defender_entered_her_deal_then_confirm_it_herself():
    """Before: the body's entered_by was stored as is, and the taker confirmed her own deal."""
    world = build()
    link, players = world["link"], world["players"]
    taker = phone("taker-phone")
    # Declaring a defender as the enterer with the taker's own code: refused, nothing stored.
    body = {"client_id": "cheat-000001", "version": 0, "deal": GARDE_CONTRE}
    forged = send(
        taker, "table-deal-create", link, {**body, "entered_by": 1, "pin": players[0].pin}
    )
    assert forged.status_code == 403 and Deal.objects.count() == 0
    # A seat alone proves nothing either.
    assert send(taker, "table-deal-create", link, {**body, "entered_by": 1}).status_code == 403
    # Bound to her phone with her code, the taker enters it: the enterer is she, whatever the
    # body says.
    assert (
        send(taker, "table-identify", link, {"seat": 0, "pin": players[0].pin}).status_code == 200
    )
    created = send(taker, "table-deal-create", link, {**body, "entered_by": 1})
    assert created.status_code == 201
    deal = Deal.objects.get()
    assert deal.entered_by_player == players[0] and deal.pending
    # Her own code can't confirm it.
    own = send(taker, "table-confirm", link, shown(link, seat=0, pin=players[0].pin))
    assert own.status_code == 403
    deal.refresh_from_db()
    assert deal.pending and deal.confirmed_by_player is None
    assert public_total(world["tournament"], players[0]) == 0


def test_a_guessed_code_stays_locked_whatever_the_guesser_succeeds_with_meanwhile():
    """Before: four guesses, then one's own right code reset the table's counter, forever."""
    world = build()
    link, players = world["link"], world["players"]
    send(phone("enterer"), "table-identify", link, {"seat": 0, "pin": players[0].pin})
    thief = phone("thief")
    victim_pin = players[2].pin
    wrong = [f"{n:06d}" for n in range(40) if f"{n:06d}" != victim_pin][:20]
    answers = []
    for guess in wrong:
        answers.append(send(thief, "table-identify", link, {"seat": 2, "pin": guess}).status_code)
        # The thief's own right code, in between: it resets nothing of the victim's.
        own = send(thief, "table-identify", link, {"seat": 1, "pin": players[1].pin})
        assert own.status_code == 200
    assert answers[:CLIENT_ALLOWANCE] == [403] * CLIENT_ALLOWANCE
    assert set(answers[CLIENT_ALLOWANCE:]) == {429}
    # Even the right code is not checked any more from that client.
    right = send(thief, "table-identify", link, {"seat": 2, "pin": victim_pin})
    assert right.status_code == 429
    # The victim's own phone is not blocked by a stranger's guesses.
    assert (
        send(phone("victim"), "table-identify", link, {"seat": 2, "pin": victim_pin}).status_code
        == 200
    )


def test_wrong_codes_from_many_phones_alert_the_desk_which_unlocks_and_renews(arbiter_client):
    world = build()
    link, players = world["link"], world["players"]
    tournament = world["tournament"]
    for n in range(ALERT_FAILURES):
        response = send(phone(f"p{n}"), "table-identify", link, {"seat": 3, "pin": "999999x"})
        assert response.status_code == 403
    alerts = code_alerts(tournament)
    assert [(a.registration, a.table_number, a.failures) for a in alerts] == [
        (players[3], 7, ALERT_FAILURES)
    ]
    page = arbiter_client.get(reverse("tournament-detail", args=[tournament.pk])).content.decode()
    assert f"{ALERT_FAILURES} codes erronés pour OUEST à la table 7" in page
    old_pin = players[3].pin
    renewed = arbiter_client.post(
        reverse("code-unlock", args=[tournament.pk, players[3].pk]), {"new_code": "1"}
    )
    assert renewed.status_code == 302
    players[3].refresh_from_db()
    assert players[3].pin != old_pin and len(players[3].pin) == 6
    # What is left are the guessing phones' own counts (their next tries undo nothing), and the
    # unlock's grant to the player's next new phone (guessing.granted).
    left = set(Counter.objects.filter(registration=players[3]).values_list("key", flat=True))
    assert f"pin-grant:{players[3].pk}" in left
    left.discard(f"pin-grant:{players[3].pk}")
    assert left and all(key.startswith(f"pin:{players[3].pk}:d:p") for key in left)
    assert code_alerts(tournament) == []
    assert ChangeLog.objects.filter(object_type="player_code", object_id=players[3].pk).exists()
    # The old code is dead.
    old = send(phone("p9"), "table-identify", link, {"seat": 3, "pin": old_pin})
    assert old.status_code == 403


def test_a_new_code_ends_the_phone_binding():
    world = build()
    link, players = world["link"], world["players"]
    taker = phone("t")
    send(taker, "table-identify", link, {"seat": 0, "pin": players[0].pin})
    from scoring.sheets.table_entry import code_unlock

    code_unlock(registration=players[0], user=None, new_code=True)
    body = {"client_id": "after-new-code", "version": 0, "deal": GARDE_CONTRE}
    response = send(taker, "table-deal-create", link, body)
    assert response.status_code == 403 and response.json()["field"] == "entered_by"


def test_a_contested_deal_waits_for_its_enterers_correction_then_a_new_confirmation(arbiter):
    world = build()
    link, players = world["link"], world["players"]
    tournament = world["tournament"]
    enterer, defender, partner_side = phone("n"), phone("s"), phone("e")
    send(enterer, "table-identify", link, {"seat": 0, "pin": players[0].pin})
    body = {"client_id": "contested-01", "version": 0, "deal": GARDE_CONTRE}
    assert send(enterer, "table-deal-create", link, body).status_code == 201
    # The enterer can't contest his own deal; a defender can, with a word.
    own = send(enterer, "table-contest", link, {"seat": 0, "pin": players[0].pin, "number": 1})
    assert own.status_code == 403
    contest = {"seat": 2, "pin": players[2].pin, "number": 1, "note": "91 ? non : 51\u202e"}
    assert send(defender, "table-contest", link, contest).status_code == 200
    deal = Deal.objects.get()
    assert deal.disputed and deal.pending and deal.dispute_note == "91 ? non : 51"
    # The desk sees it contested, with the word.
    client = Client()
    client.force_login(arbiter)
    desk = client.get(reverse("sheet-detail", args=[deal.sheet_id])).content.decode()
    assert "contestée" in desk and "91 ? non : 51" in desk
    assert deal.disputed_by_player == players[2]
    # A contested deal can't be confirmed until corrected; nothing of it is public.
    listed = shown(link, seat=1, pin=players[1].pin)
    refused = send(partner_side, "table-confirm", link, {**listed, "deals": [deal.pk]})
    assert refused.status_code == 403
    assert public_total(tournament, players[0]) == 0
    # Only its enterer corrects it (another player of the table can't).
    # The contest moved no version (the desk's decision goes through): the sheet is at 1.
    fixed = {"version": 1, "deal": {**GARDE_CONTRE, "contract": "garde", "points": 51}}
    send(defender, "table-identify", link, {"seat": 2, "pin": players[2].pin})
    assert send(defender, "table-deal-correct", link, fixed, number=1).status_code == 403
    answer = send(enterer, "table-deal-correct", link, fixed, number=1)
    assert answer.status_code == 200, answer.content
    deal.refresh_from_db()
    assert deal.contract == "garde" and deal.pending and not deal.disputed
    correction = ChangeLog.objects.filter(object_type="deal", object_id=deal.pk, action="update")
    assert correction.get().username == "NORD"
    # A defender confirms the corrected deal: it counts.
    ok = send(partner_side, "table-confirm", link, shown(link, seat=1, pin=players[1].pin))
    assert ok.status_code == 200 and ok.json() == {"confirmed": [1], "left": ""}
    deal.refresh_from_db()
    assert not deal.pending and deal.confirmed_by_player == players[1]
    assert public_total(tournament, players[0]) == deal.scores[0] > 0


def test_a_table_calls_the_arbiter_once_until_taken(arbiter_client):
    world = build()
    link, tournament = world["link"], world["tournament"]
    first = send(phone("a"), "table-call", link, {"number": 3, "note": "renonce ?"})
    again = send(phone("b"), "table-call", link, {})
    assert first.status_code == again.status_code == 200
    assert first.json()["call"] == again.json()["call"]
    call = TableCall.objects.get()
    assert call.deal_number == 3 and call.note == "renonce ?"
    page = arbiter_client.get(reverse("tournament-detail", args=[tournament.pk])).content.decode()
    assert "Table 7 appelle l'arbitre" in page and "donne 3" in page
    desk = arbiter_client.get(reverse("entry-overview", args=[tournament.pk, 1]))
    assert "Table 7 appelle l'arbitre" in desk.content.decode()
    taken = arbiter_client.post(reverse("call-take", args=[tournament.pk, call.pk]))
    assert taken.status_code == 302
    call.refresh_from_db()
    assert call.taken_at is not None and call.taken_by.username == "arbitre-test"
    page = arbiter_client.get(reverse("tournament-detail", args=[tournament.pk])).content.decode()
    assert "appelle l'arbitre" not in page


# --- the property: no deal confirmed without two proofs from both sides ---------------------

ACTIONS = st.lists(
    st.tuples(
        st.sampled_from(
            ["identify", "identify", "enter", "enter", "confirm", "confirm", "contest", "correct"]
            + ["forget"]
        ),
        st.sampled_from([0, 1, 2, 3, 0, 1, 2, 3, -1, 4]),  # a seat (some out of range)
        st.sampled_from([True, True, True, False]),  # the seat's own code, or a wrong one
        st.sampled_from(["a", "a", "b", "c"]),  # which phone
        st.sampled_from(["id-00000001", "id-00000002", "id-00000003"]),  # client ids
        st.sampled_from(["current", "current", "current", 0, "x", None]),  # the version sent
        st.sampled_from([0, 0, 1, 2]),  # the taker of an entered or corrected deal
    ),
    min_size=3,
    max_size=16,
)


# The honest evening, and a cheat's tries around it: identified, entered, confirmed by the other
# side; a self-confirmation; a contest, a correction and a new confirmation.
STORIES = [
    [("identify", 0, "a", 1, 0), ("enter", 1, "a", 1, 0), ("confirm", 0, "a", 1, 0),
     ("confirm", 2, "b", 1, 0), ("enter", 2, "a", 2, 0)],
    [("identify", 2, "b", 1, 0), ("enter", 2, "b", 3, 0), ("contest", 0, "a", 1, 0),
     ("correct", 2, "b", 1, 1), ("confirm", 3, "c", 1, 0), ("confirm", 1, "c", 1, 0)],
]  # fmt: skip


def story(steps):
    """(what, seat, device, request id, taker) steps as the property's actions."""
    return [
        (what, seat, True, device, f"id-{rid:08d}", "current", taker)
        for what, seat, device, rid, taker in steps
    ]


def with_stories(test):
    for steps in reversed(STORIES):
        test = example(actions=story(steps))(test)
    return given(actions=ACTIONS)(test)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@with_stories
def test_no_deal_is_confirmed_unless_two_players_of_both_sides_proved_it(actions):
    Counter.objects.all().delete()
    Deal.objects.all().delete()
    Tournament.objects.all().delete()
    world = build()
    link, players = world["link"], world["players"]
    phones = {name: phone(name) for name in "abc"}
    proved: list[tuple[int, str]] = []  # (seat, action) of every right code accepted
    for action, seat, right, who, client_id, version, taker in actions:
        client = phones[who]
        pin = players[seat].pin if right and 0 <= seat < 4 else "000000x"
        code = {"seat": seat, "pin": pin}
        deal = {**GARDE_CONTRE, "taker": taker}
        if version == "current":
            sheet = ScoreSheet.objects.filter(table=link.table).first()
            version = sheet.version if sheet else 0
        if action == "identify":
            answer = send(client, "table-identify", link, code)
        elif action == "enter":
            answer = send(
                client,
                "table-deal-create",
                link,
                {"client_id": client_id, "version": version, "entered_by": seat, "deal": deal},
            )
        elif action == "confirm":
            answer = send(client, "table-confirm", link, shown(link, **code))
        elif action == "contest":
            answer = send(client, "table-contest", link, {**code, "number": 1})
        elif action == "correct":
            answer = send(
                client, "table-deal-correct", link, {"version": version, "deal": deal}, number=1
            )
        else:
            answer = send(client, "table-forget", link, {})
        assert answer.status_code < 500
        if answer.status_code == 200 and action in ("identify", "confirm", "contest"):
            proved.append((seat, action))
    assert Deal.objects.values("client_id").distinct().count() == Deal.objects.count()
    for deal in Deal.objects.all():
        assert deal.entered_by_player is not None  # always someone who proved it
        if deal.pending:
            continue
        enterer = players.index(deal.entered_by_player)
        confirmer = players.index(deal.confirmed_by_player)
        assert enterer != confirmer
        attack = {deal.taker} | ({deal.partner} if deal.partner is not None else set())
        assert (enterer in attack) != (confirmer in attack)  # one of each side
        assert (confirmer, "confirm") in proved  # with their own code, checked
        assert deal.disputed is False


def test_a_deal_corrected_after_the_confirmer_read_the_sheet_is_not_confirmed_blind():
    world = build()
    link, players = world["link"], world["players"]
    enterer = phone("n")
    send(enterer, "table-identify", link, {"seat": 0, "pin": players[0].pin})
    send(
        enterer,
        "table-deal-create",
        link,
        {"client_id": "bait-000001", "version": 0, "deal": GARDE_CONTRE},
    )
    seen = Deal.objects.get().sheet.version  # what the defender's phone shows
    # The enterer switches the deal before the defender types their code.
    switched = {"version": seen, "deal": {**GARDE_CONTRE, "contract": "prise", "points": 91}}
    assert send(enterer, "table-deal-correct", link, switched, number=1).status_code == 200
    late = {**shown(link, seat=1, pin=players[1].pin), "version": seen}
    answer = send(phone("e"), "table-confirm", link, late)
    assert answer.status_code == 409 and answer.json()["field"] == "version"
    assert Deal.objects.get().pending
