"""A malformed field of a deal's body answers 400 naming it, never a 500, on every path that
takes one (the phone's preview and entry, the desk's JSON API); integers that would reach the
database are bounded first. Run on SQLite and PostgreSQL (DATABASE_URL)."""

import json

import pytest
from django.test import Client
from django.urls import reverse

from scoring.core.bodies import DEAL
from scoring.models import Deal
from scoring.sheets.services import ENGINE_FIELDS, ENTRY_FIELDS, deal_record, sheet_for_table
from scoring.sheets.table_entry import links_for_position
from tests.desk_helpers import deal_post, make_tournament
from tournament.models import ChangeLog

pytestmark = pytest.mark.django_db

GARDE = {"taker": 0, "contract": "garde", "oudlers": 2, "points": 50, "dealer": 0}
# Each crashed compute_scores (a 500) on today's main: a bool, an int, a float, a list of a
# seat alone, a list of null, where a list of [seat, size] pairs is expected.
BAD_POIGNEES = [True, 7, 1.5, [1], [None], [[0]], [[0, "simple", 1]], {"0": "simple"}]


def phone_table():
    tournament, position = make_tournament(entry_mode="phones", status="running")
    return tournament, links_for_position(position)[0]


def post_json(client, url, body):
    return client.post(url, json.dumps(body), content_type="application/json")


def pin_at(link, seat: int) -> str:
    seats = sorted(link.table.seats.select_related("registration"), key=lambda s: s.index)
    return seats[seat].registration.pin


def test_the_deal_schema_names_every_field_a_deal_body_may_have():
    assert set(DEAL.fields) == {*ENGINE_FIELDS, *ENTRY_FIELDS, "figure"}


@pytest.mark.parametrize("poignees", BAD_POIGNEES, ids=repr)
def test_a_malformed_poignee_on_the_phone_preview_is_a_400(poignees):
    _tournament, link = phone_table()
    response = post_json(
        Client(),
        reverse("table-preview", args=[link.token]),
        {"deal": {**GARDE, "poignees": poignees}},
    )
    assert response.status_code == 400
    assert response.json()["field"] == "poignees"
    assert "poignees" in response.json()["error"]


@pytest.mark.parametrize("poignees", BAD_POIGNEES, ids=repr)
def test_a_malformed_poignee_on_phone_entry_is_a_400_and_records_nothing(poignees):
    _tournament, link = phone_table()
    body = {
        "client_id": "phone-deal-0001",
        "version": 0,
        "entered_by": 0,
        "pin": pin_at(link, 0),
        "deal": {**GARDE, "poignees": poignees},
    }
    response = post_json(Client(), reverse("table-deal-create", args=[link.token]), body)
    assert response.status_code == 400
    assert response.json()["field"] == "poignees"
    assert Deal.objects.count() == 0


@pytest.mark.parametrize("poignees", BAD_POIGNEES, ids=repr)
def test_a_malformed_poignee_on_the_api_is_a_400_and_records_nothing(arbiter_client, poignees):
    _tournament, position = make_tournament()
    sheet = sheet_for_table(table=position.tables.get())
    response = post_json(
        arbiter_client,
        f"/api/feuilles/{sheet.pk}/donnes/",
        {"version": sheet.version, "deal": {**GARDE, "poignees": poignees}},
    )
    assert response.status_code == 400
    assert response.json()["field"] == "poignees"
    assert sheet.deals.count() == 0


def test_a_sound_poignee_still_scores_on_every_path(arbiter_client):
    _tournament, link = phone_table()
    deal = {**GARDE, "poignees": [[0, "simple"]]}
    preview = post_json(Client(), reverse("table-preview", args=[link.token]), {"deal": deal})
    assert preview.status_code == 200
    assert sum(preview.json()["scores"]) == 0
    sheet = sheet_for_table(table=link.table)
    api = post_json(
        arbiter_client, f"/api/feuilles/{sheet.pk}/donnes/", {"version": 0, "deal": deal}
    )
    assert api.status_code == 201
    assert api.json()["scores"] == preview.json()["scores"]


@pytest.mark.parametrize(
    ("name", "body", "field"),
    [
        ("table-preview", {"deal": {**GARDE, "taker": 2**63}}, "taker"),
        ("table-preview", {"deal": {**GARDE, "dealer": -(2**40)}}, "dealer"),
        ("table-preview", {"deal": {**GARDE, "figure": 10**15}}, "figure"),
        ("table-preview", {"deal": {**GARDE, "points": 1e300}}, "points"),
        ("table-preview", {"deal": {**GARDE, "passed": "oui"}}, "passed"),
        ("table-preview", {"deal": GARDE, "extra": 1}, "extra"),
        ("table-deal-create", {"client_id": "p-000001", "version": 2**31, "deal": {}}, "version"),
        ("table-deal-create", {"client_id": "p-000001", "number": 10**18, "deal": GARDE}, "number"),
        ("table-deal-create", {"client_id": 12345678, "deal": GARDE}, "client_id"),
        ("table-identify", {"seat": 2**63 - 1, "pin": "1234"}, "seat"),
        ("table-identify", {"seat": 0, "pin": 1234}, "pin"),
        ("table-confirm", {"seat": 0, "pin": "1234", "version": -1}, "version"),
        ("table-confirm", {"seat": 0, "pin": "1234", "version": 0, "deals": [2**63]}, "deals"),
        ("table-confirm", {"seat": 0, "pin": "1234", "version": 0, "deals": [[1]]}, "deals"),
        ("table-contest", {"seat": 0, "pin": "1234", "number": 2**40}, "number"),
        ("table-contest", {"seat": 0, "pin": "1234", "number": 1, "note": ["x"]}, "note"),
        ("table-call", {"number": 2**15}, "number"),
        ("table-finish", {"seat": True, "pin": "1234"}, "seat"),
    ],
)  # fmt: skip
def test_out_of_range_and_mistyped_phone_fields_are_a_400_naming_them(name, body, field):
    _tournament, link = phone_table()
    response = post_json(Client(), reverse(name, args=[link.token]), body)
    assert response.status_code == 400, response.content
    assert response.json()["field"] == field
    assert Deal.objects.count() == 0


@pytest.mark.parametrize("version", [2**31, 2**63 - 1, -1, 4.0, "0", None])
def test_the_api_bounds_the_version_it_is_sent(arbiter_client, version):
    _tournament, position = make_tournament()
    sheet = sheet_for_table(table=position.tables.get())
    response = post_json(
        arbiter_client, f"/api/feuilles/{sheet.pk}/donnes/", {"version": version, "deal": GARDE}
    )
    assert response.status_code == 400
    assert response.json()["field"] == "version"
    assert not ChangeLog.objects.filter(action=ChangeLog.Action.CONFLICT).exists()


def test_a_desk_post_with_a_huge_version_is_refused_and_kept_nowhere(arbiter_client):
    _tournament, position = make_tournament()
    sheet = sheet_for_table(table=position.tables.get())
    deal_record(sheet=sheet, data={"passed": True, "dealer": 0})
    huge = "1" * 40
    response = deal_post(arbiter_client, sheet, {"taker": "T"}, version=huge)
    assert response.status_code == 200
    assert sheet.deals.count() == 1
    history = json.dumps([row.after for row in ChangeLog.objects.all()])
    assert huge not in history
    # A version the sheet could hold but not its own is still a conflict kept in the history.
    response = deal_post(arbiter_client, sheet, {"taker": "T"}, version=str(2**31 - 1))
    assert "Conflit" in response.text
    assert ChangeLog.objects.filter(action=ChangeLog.Action.CONFLICT).count() == 1


HUGE = "1" + "0" * 24  # 25 digits: past any column, and past the JSON reader's 19 digits


@pytest.mark.parametrize(
    ("name", "body", "field"),
    [
        ("table-preview", '{"deal": {"taker": 0, "contract": "garde", "points": %s}}', "points"),
        ("table-preview", '{"deal": {"taker": -%s, "contract": "garde"}}', "taker"),
        ("table-deal-create", '{"client_id": "p-000001", "version": %s, "deal": {}}', "version"),
        ("table-deal-create", '{"client_id": "p-000001", "number": %s, "deal": {}}', "number"),
        ("table-confirm", '{"seat": 0, "pin": "1", "version": 0, "deals": [%s]}', "deals"),
        ("table-contest", '{"seat": %s, "pin": "1234", "number": 1}', "seat"),
    ],
)  # fmt: skip
def test_an_integer_of_twenty_digits_or_more_is_refused_naming_its_field(name, body, field):
    """Such an integer answered 400 naming `body` (the JSON reader refused the whole text)."""
    _tournament, link = phone_table()
    response = Client().post(
        reverse(name, args=[link.token]), body % HUGE, content_type="application/json"
    )
    assert response.status_code == 400, response.content
    answer = response.json()
    assert answer["field"] == field
    # The French message names the field (a list's item by its index).
    assert answer["error"].startswith(field) and " : un " in answer["error"]
    assert Deal.objects.count() == 0


def test_an_integer_of_twenty_digits_in_the_api_names_the_version(arbiter_client):
    _tournament, position = make_tournament()
    sheet = sheet_for_table(table=position.tables.get())
    response = arbiter_client.post(
        f"/api/feuilles/{sheet.pk}/donnes/",
        '{"version": HUGE, "deal": {"taker": 0}}'.replace("HUGE", HUGE),
        content_type="application/json",
    )
    assert response.status_code == 400
    assert response.json()["field"] == "version"
    assert "entier entre 0 et 2147483647" in response.json()["error"]


def test_a_phone_deal_number_past_a_sheet_is_refused_by_the_body_schema():
    """The number's bound lives in the phone's body schema (no second copy in the service)."""
    _tournament, link = phone_table()
    body = {"client_id": "p-000001", "number": 100, "version": 0, "deal": GARDE}
    response = post_json(Client(), reverse("table-deal-create", args=[link.token]), body)
    assert response.status_code == 400
    assert response.json()["field"] == "number"
    assert response.json()["error"] == "number : un entier entre 1 et 99 est attendu."
