"""A player the rules bar from bidding is never recorded as taker of that deal without a word.

FFT (004): after a fausse donne the culprit may not bid on that deal (dealt again by the same
dealer); after a renonce consommée en défense the culprit may not bid on the next deal. The
refusal is in the service, so the desk, the JSON API and the phones all meet it; an incident
recorded after its deal was typed warns the arbiter and marks the deal's line.
"""

import json

import pytest
from django.urls import reverse

from scoring.core.deal import DealError
from scoring.sheets.services import deal_record
from tests.desk_helpers import (
    DEALS_004,
    deal_post,
    incident_post,
)

pytestmark = pytest.mark.django_db


def seat_of(sheet, direction: str) -> int:
    return sheet.players.get(direction=direction).seat


def registration(sheet, direction: str):
    return sheet.players.get(direction=direction).registration


def incident(client, tournament, sheet, direction: str, kind: str, deal_number: int):
    """Report an incident without penalty points of the player at `direction` on a deal."""
    culprit = registration(sheet, direction)
    return incident_post(
        client, tournament, sheet, culprit, follow=True, kind=kind, deal_number=deal_number,
        penalty_points=0,
    )  # fmt: skip


def engine_deal(sheet, taker: int) -> dict:
    return {"players": 4, "taker": taker, "contract": "garde", "oudlers": 2, "points": 50}


def test_the_service_refuses_a_fausse_donne_culprit_as_taker_of_that_deal(
    arbiter_client, desk_sheet_004
):
    tournament, sheet = desk_sheet_004
    incident(arbiter_client, tournament, sheet, "E", "fausse_donne", 1)
    with pytest.raises(DealError) as refused:
        deal_record(sheet=sheet, data=engine_deal(sheet, seat_of(sheet, "E")))
    assert refused.value.field == "taker"
    assert "DUBOIS a fait une fausse donne" in str(refused.value)
    assert not sheet.deals.exists()
    # Another player takes the redealt deal.
    deal_record(sheet=sheet, data=engine_deal(sheet, seat_of(sheet, "N")))
    assert sheet.deals.count() == 1


def test_the_json_api_refuses_the_barred_taker_naming_the_field(arbiter_client, desk_sheet_004):
    tournament, sheet = desk_sheet_004
    incident(arbiter_client, tournament, sheet, "S", "fausse_donne", 1)
    sheet.refresh_from_db()
    response = arbiter_client.post(
        reverse("api-deal-create", args=[sheet.pk]),
        json.dumps({"version": sheet.version, "deal": engine_deal(sheet, seat_of(sheet, "S"))}),
        content_type="application/json",
    )
    assert response.status_code == 400
    body = response.json()
    assert body["field"] == "taker" and "ne peut pas enchérir" in body["error"]


def test_a_revoke_bars_only_the_next_deal(arbiter_client, desk_sheet_004):
    tournament, sheet = desk_sheet_004
    deal_post(arbiter_client, sheet, DEALS_004[0])  # deal 1
    incident(arbiter_client, tournament, sheet, "W", "renonce_defence", 1)
    html = deal_post(arbiter_client, sheet, {**DEALS_004[1], "taker": "O"}).content.decode()
    assert sheet.deals.count() == 1
    assert "renonce en défense à la donne 1" in html
    deal_post(arbiter_client, sheet, {**DEALS_004[2], "taker": "N", "poignees": ""})  # deal 2
    deal_post(arbiter_client, sheet, DEALS_004[1])  # deal 3: Ouest takes again
    assert sheet.deals.count() == 3 and sheet.deals.get(number=3).taker == seat_of(sheet, "W")


def test_a_correction_may_not_make_the_barred_player_taker(arbiter_client, desk_sheet_004):
    tournament, sheet = desk_sheet_004
    deal_post(arbiter_client, sheet, DEALS_004[0])  # Est takes deal 1
    incident(arbiter_client, tournament, sheet, "N", "fausse_donne", 1)
    deal = sheet.deals.get()
    sheet.refresh_from_db()
    data = {"version": sheet.version, "dealer": 0, "side": "attack", **DEALS_004[0]}
    data.update(taker="N", poignees="")
    html = arbiter_client.post(reverse("deal-edit", args=[deal.pk]), data).content.decode()
    assert "ne peut pas enchérir" in html
    deal.refresh_from_db()
    assert deal.taker == seat_of(sheet, "E")


def test_an_incident_recorded_after_its_deal_warns_and_marks_the_line(
    arbiter_client, desk_sheet_004
):
    tournament, sheet = desk_sheet_004
    deal_post(arbiter_client, sheet, DEALS_004[0])  # Est takes deal 1
    response = incident(arbiter_client, tournament, sheet, "E", "fausse_donne", 1)
    html = response.content.decode()
    # Said of the player without a gendered word (issue 38: "il ne pouvait pas enchérir").
    assert "Attention : la donne 1 a pour preneur DUBOIS" in html
    assert "à qui cet incident interdisait d&#x27;enchérir" in html
    line = html[html.index('id="deal-1"') : html.index("</tr>", html.index('id="deal-1"'))]
    assert 'class="badge err barred-taker"' in line and "à corriger" in line
    # Nobody barred, no warning.
    response = incident(arbiter_client, tournament, sheet, "N", "fausse_donne", 2)
    assert "Attention" not in response.content.decode()
