"""The entry page: the 004 example typed through the real form gives the printed sheet."""

import pytest
from django.urls import reverse

from tests.desk_helpers import (
    DEALS_004,
    bilans_by_name,
    deal_post,
    make_tournament,
    table_sheet,
)
from tests.examples_004 import BILANS, BILANS_BY_NAME

pytestmark = pytest.mark.django_db


@pytest.fixture
def sheet(desk_sheet_004):
    return desk_sheet_004[1]


def test_the_004_example_typed_through_the_form_gives_the_printed_bilans(arbiter_client, sheet):
    for fields in DEALS_004:
        response = deal_post(arbiter_client, sheet, fields)
        assert response.status_code == 200
        assert "errorlist" not in response.content.decode()
    assert bilans_by_name(sheet) == BILANS_BY_NAME
    html = arbiter_client.get(reverse("sheet-detail", args=[sheet.pk])).content.decode()
    assert "Somme nulle" in html and "Complète" in html
    # The paper prints Nord, Sud, Est, Ouest: the bilans line reads like the sheet.
    bilans_row = html[html.index('id="bilans"') : html.index("</tr>", html.index('id="bilans"'))]
    assert [int(v) for v in _cells(bilans_row)] == BILANS


def _cells(row_html):
    import re

    return re.findall(r'data-seat="\d">([+-]?\d+)<', row_html)


def test_dealers_turn_to_the_right_of_the_previous_one(arbiter_client, sheet):
    for fields in DEALS_004[:4]:
        deal_post(arbiter_client, sheet, fields)
    # N → O → S → E (seats 0, 3, 2, 1): the next dealer sits to the right of the previous.
    assert list(sheet.deals.order_by("number").values_list("dealer", flat=True)) == [0, 3, 2, 1]
    html = arbiter_client.get(reverse("sheet-detail", args=[sheet.pk])).content.decode()
    assert 'name="dealer"' in html
    assert '<option value="0" selected>' in html  # deal 5 dealt by Nord again


def test_htmx_save_returns_the_sheet_and_a_fresh_form(arbiter_client, sheet):
    response = deal_post(arbiter_client, sheet, DEALS_004[0])
    html = response.content.decode()
    assert html.lstrip().startswith('<div id="sheet-body"')
    assert "Donne 2" in html  # the next row is ready
    assert 'name="taker" id="id_taker" value=""' in html
    assert "318" in html


def test_a_plain_post_redirects_to_the_sheet(arbiter_client, sheet):
    response = deal_post(arbiter_client, sheet, DEALS_004[0], htmx=False)
    assert response.status_code == 302
    assert response["Location"] == reverse("sheet-detail", args=[sheet.pk])


def test_passed_deal_is_one_key(arbiter_client, sheet):
    response = deal_post(arbiter_client, sheet, {"taker": "T"})
    assert response.status_code == 200
    deal = sheet.deals.get()
    assert deal.passed and deal.scores == [0, 0, 0, 0]
    assert "Tous passent" in response.content.decode()


def test_points_typed_for_the_defence_are_turned_into_the_attack_s(arbiter_client, sheet):
    deal_post(arbiter_client, sheet, {"taker": "N", "contract": "P", "oudlers": "1",
                                      "points": "40", "side": "defense"})  # fmt: skip
    deal_post(arbiter_client, sheet, {"taker": "N", "contract": "P", "oudlers": "1",
                                      "points": "d40"})  # fmt: skip
    assert [float(d.points) for d in sheet.deals.order_by("number")] == [51, 51]


def test_preview_shows_the_computed_row_before_saving(arbiter_client, sheet):
    url = reverse("deal-preview", args=[sheet.pk])
    data = {"version": 0, "dealer": 0, "side": "attack", **DEALS_004[0]}
    html = arbiter_client.post(url, data, HTTP_HX_REQUEST="true").content.decode()
    assert "318" in html and "106" in html
    assert sheet.deals.count() == 0


def test_preview_of_an_impossible_deal_shows_the_engine_message(arbiter_client, sheet):
    url = reverse("deal-preview", args=[sheet.pk])
    data = {"version": 0, "dealer": 0, "taker": "N", "contract": "G", "oudlers": "3",
            "points": "10"}  # fmt: skip
    html = arbiter_client.post(url, data).content.decode()
    assert "impossible avec ce nombre de bouts (3)" in html


def test_five_player_table_asks_for_the_called_king(arbiter_client):
    _t, position = make_tournament(size=5, game="five")
    sheet = table_sheet(arbiter_client, position)
    fields = {"taker": "N", "contract": "G", "oudlers": "2", "points": "51"}
    html = deal_post(arbiter_client, sheet, fields).content.decode()
    assert "roi appelé" in html and sheet.deals.count() == 0
    deal_post(arbiter_client, sheet, {**fields, "partner": "S"})
    deal_post(arbiter_client, sheet, {**fields, "partner": "C"})
    first, second = sheet.deals.order_by("number")
    # Garde won by 10: V = 70; taker 2V, partner V; alone (king in the chien): 4V.
    assert first.scores == [140, -70, 70, -70, -70]
    assert second.scores[0] == 280 and second.partner is None


def test_five_with_a_mort_the_dealer_sits_out(arbiter_client):
    _t, position = make_tournament(size=5, game="five_dead")
    sheet = table_sheet(arbiter_client, position)
    deal_post(arbiter_client, sheet, {"taker": "E", "contract": "P", "oudlers": "1",
                                      "points": "56"})  # fmt: skip
    deal = sheet.deals.get()
    assert deal.dead == deal.dealer == 0
    assert deal.scores == [0, 90, -30, -30, -30]
    html = arbiter_client.get(reverse("sheet-detail", args=[sheet.pk])).content.decode()
    assert "mort" in html
