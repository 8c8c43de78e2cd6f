"""A phone's deal keeps the number it was typed under: one deal, one copy, whatever the network did.

Issue 35: a phone offline typed deal 2, a tablemate entered deal 2 meanwhile; back online, the
queued deal was stored again as deal 3 (identical, no warning), then blocked the table's real
last deal. Now a number taken meanwhile (another phone, the desk) answers a conflict with both
versions and stores nothing; nothing is renumbered; a number beyond the table's count is
refused; a resend of the same client id is still stored once.
"""

import pytest
from django.urls import reverse

from scoring.models import Deal, ScoreSheet
from scoring.sheets.services import deal_record, sheet_for_table
from tests.scoring.live.test_phone_trust import GARDE_CONTRE, build, phone, send
from tournament.models import ChangeLog

pytestmark = pytest.mark.django_db

# EST (seat 1) takes a garde alone and wins: another deal than NORD's garde contre.
GARDE_EST = {"taker": 1, "contract": "garde", "oudlers": 2, "points": 50, "dealer": 0}


def bound_phone(link, players, seat: int):
    client = phone(f"device-{seat}")
    who = {"seat": seat, "pin": players[seat].pin}
    assert send(client, "table-identify", link, who).status_code == 200
    return client


def deal(client, link, client_id: str, number, version, inputs=GARDE_CONTRE):
    body = {"client_id": client_id, "number": number, "version": version, "deal": inputs}
    return send(client, "table-deal-create", link, body)


def test_a_number_another_phone_took_answers_both_versions_and_stores_nothing():
    world = build()
    link, players = world["link"], world["players"]
    north, east = bound_phone(link, players, 0), bound_phone(link, players, 1)
    # NORD typed deal 1 offline against version 0; EST entered deal 1 meanwhile.
    assert deal(east, link, "east-deal-1", 1, 0, GARDE_EST).status_code == 201
    before = ScoreSheet.objects.get().version
    answer = deal(north, link, "north-deal-1", 1, 0)
    assert answer.status_code == 409
    body = answer.json()
    assert body["field"] == "number" and "La donne 1 est déjà sur la feuille" in body["error"]
    assert body["number"] == 1 and body["next_number"] == 2 and body["version"] == before
    stored, mine = body["stored"], body["mine"]
    assert stored["entered_by"] == "EST" and stored["entered_by_seat"] == 1
    assert stored["inputs"]["taker"] == 1 and stored["inputs"]["contract"] == "garde"
    assert stored["scores"] == Deal.objects.get().scores and stored["pending"]
    assert mine["entered_by"] == "NORD" and mine["typed_version"] == 0
    assert mine["inputs"]["contract"] == "garde_contre" and mine["scores"][0] > 0
    assert mine["scores"] != stored["scores"]
    # Nothing stored, nothing renumbered, the sheet untouched.
    assert list(Deal.objects.values_list("number", "client_id")) == [(1, "east-deal-1")]
    assert ScoreSheet.objects.get().version == before


def test_the_same_deal_on_both_phones_is_one_copy_not_two():
    """The reproduction: both phones typed the same deal 1; the second one is a conflict."""
    world = build()
    link, players = world["link"], world["players"]
    north, east = bound_phone(link, players, 0), bound_phone(link, players, 1)
    assert deal(east, link, "east-deal-1", 1, 0).status_code == 201
    answer = deal(north, link, "north-deal-1", 1, 0)
    assert answer.status_code == 409
    assert answer.json()["stored"]["scores"] == answer.json()["mine"]["scores"]
    # Resent as it is (a reopened page resends its queue): still the conflict, still one copy.
    assert deal(north, link, "north-deal-1", 1, 0).status_code == 409
    assert Deal.objects.count() == 1


def test_a_number_the_desk_took_answers_a_conflict_naming_the_desk(arbiter):
    world = build()
    link, players = world["link"], world["players"]
    north = bound_phone(link, players, 0)
    sheet = sheet_for_table(table=link.table)
    deal_record(sheet=sheet, data=GARDE_EST, user=arbiter)
    answer = deal(north, link, "north-deal-1", 1, 0)
    assert answer.status_code == 409
    stored = answer.json()["stored"]
    assert stored["by_desk"] and stored["entered_by"] == "" and not stored["pending"]
    assert Deal.objects.count() == 1 and Deal.objects.get().entered_by_player is None


def test_the_next_number_is_recorded_whatever_else_moved_the_sheet():
    """The number is the check: a confirmation meanwhile (a new version) is no conflict."""
    world = build()
    link, players = world["link"], world["players"]
    north, east = bound_phone(link, players, 0), bound_phone(link, players, 1)
    assert deal(north, link, "north-deal-1", 1, 0).status_code == 201
    shown = {"version": 1, "deals": list(Deal.objects.values_list("pk", flat=True))}
    confirmed = send(east, "table-confirm", link, {"seat": 1, "pin": players[1].pin, **shown})
    assert confirmed.status_code == 200
    # NORD's deal 2 was typed against the sheet before the confirmation (version 1).
    answer = deal(north, link, "north-deal-2", 2, 1, GARDE_EST)
    assert answer.status_code == 201 and answer.json()["number"] == 2
    assert list(Deal.objects.order_by("number").values_list("number", flat=True)) == [1, 2]


def test_a_number_after_a_missing_deal_is_a_conflict_not_a_renumbering():
    world = build()
    link, players = world["link"], world["players"]
    north = bound_phone(link, players, 0)
    answer = deal(north, link, "north-deal-3", 3, 0)
    assert answer.status_code == 409
    body = answer.json()
    assert body["field"] == "number" and body["stored"] is None and body["next_number"] == 1
    assert "La feuille n'a que 0 donnes" in body["error"]
    assert Deal.objects.count() == 0


def test_a_deal_beyond_the_tables_count_is_refused_in_french():
    world = build()
    tournament = world["tournament"]
    tournament.deals_per_table_4 = 2
    tournament.save()
    link, players = world["link"], world["players"]
    north = bound_phone(link, players, 0)
    assert deal(north, link, "north-deal-1", 1, 0).status_code == 201
    assert deal(north, link, "north-deal-2", 2, 1).status_code == 201
    answer = deal(north, link, "north-deal-3", 3, 2)
    assert answer.status_code == 400
    body = answer.json()
    assert body["field"] == "number"
    assert body["error"].startswith("La feuille est complète : la table a déjà ses 2 donnes")
    assert Deal.objects.count() == 2


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("number", 0),
        ("number", 100),
        ("number", "2"),
        ("number", True),
        ("number", 1.5),
        ("number", 10**6),
        ("version", -1),
        ("version", 2**31),
        ("version", 2**40),
        ("version", "0"),
    ],
)
def test_number_and_version_are_bounded_integers_named_when_wrong(field, value):
    world = build()
    link, players = world["link"], world["players"]
    north = bound_phone(link, players, 0)
    body = {"client_id": "north-deal-1", "number": 1, "version": 0, "deal": GARDE_CONTRE}
    answer = send(north, "table-deal-create", link, {**body, field: value})
    assert answer.status_code == 400
    assert answer.json()["field"] == field
    assert Deal.objects.count() == 0


def test_a_resend_with_the_same_client_id_is_stored_once_even_after_its_number_moved_on():
    world = build()
    link, players = world["link"], world["players"]
    north, east = bound_phone(link, players, 0), bound_phone(link, players, 1)
    first = deal(north, link, "north-deal-1", 1, 0)
    assert first.status_code == 201
    # The answer was lost; EST entered deal 2 before NORD's phone resent deal 1.
    assert deal(east, link, "east-deal-2", 2, 1, GARDE_EST).status_code == 201
    again = deal(north, link, "north-deal-1", 1, 0)
    assert again.status_code == 200 and again.json()["replayed"]
    assert again.json()["deal"] == first.json()["deal"]
    assert Deal.objects.filter(client_id="north-deal-1").count() == 1
    assert Deal.objects.count() == 2


def test_replacing_the_stored_deal_goes_through_its_enterers_correction():
    """The table chose the phone's version: the stored deal's enterer corrects it with her own
    code (the correction's rights and history); anybody else is refused."""
    world = build()
    link, players = world["link"], world["players"]
    north, east = bound_phone(link, players, 0), bound_phone(link, players, 1)
    assert deal(east, link, "east-deal-1", 1, 0, GARDE_EST).status_code == 201
    conflict = deal(north, link, "north-deal-1", 1, 0).json()
    url_args = {"number": 1}
    # NORD's own right does not reach EST's deal.
    refused = send(
        north,
        "table-deal-correct",
        link,
        {"version": conflict["version"], "deal": conflict["mine"]["inputs"]},
        **url_args,
    )
    assert refused.status_code == 403 and Deal.objects.get().contract == "garde"
    # With EST's code typed on NORD's phone, the correction goes through and is in the history.
    replaced = send(
        north,
        "table-deal-correct",
        link,
        {
            "version": conflict["version"],
            "deal": conflict["mine"]["inputs"],
            "entered_by": 1,
            "pin": players[1].pin,
        },
        **url_args,
    )
    assert replaced.status_code == 200
    stored = Deal.objects.get()
    assert stored.contract == "garde_contre" and stored.pending and stored.number == 1
    assert ChangeLog.objects.filter(action=ChangeLog.Action.UPDATE, object_id=stored.pk).exists()


def test_the_phone_page_knows_the_tables_count():
    world = build()
    link = world["link"]
    html = phone("x").get(reverse("table-entry", args=[link.token])).content.decode()
    count = world["tournament"].deals_for_table_size(4)
    assert f'data-deal-count="{count}"' in html
