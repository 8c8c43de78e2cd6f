"""Corrections at the desk: edit or delete any deal, totals recompute, every change is logged."""

import pytest
from django.urls import reverse

from tests.desk_helpers import DEALS_004
from tournament.models import ChangeLog

pytestmark = pytest.mark.django_db


@pytest.fixture
def sheet(arbiter_client, sheet_004):
    return sheet_004


def edit(client, deal, fields, version):
    data = {"version": version, "dealer": deal.dealer, "side": "attack", **fields}
    return client.post(reverse("deal-edit", args=[deal.pk]), data, HTTP_HX_REQUEST="true")


def test_the_edit_form_comes_with_the_deal_s_values(arbiter_client, sheet):
    deal = sheet.deals.get(number=1)
    html = arbiter_client.get(
        reverse("deal-edit", args=[deal.pk]), HTTP_HX_REQUEST="true"
    ).content.decode()
    assert "Correction de la donne 1" in html
    assert 'name="taker" id="id_taker" value="E"' in html
    assert 'name="poignees" id="id_poignees" value="E1"' in html
    assert 'name="points" id="id_points" value="49"' in html


def test_editing_a_deal_recomputes_the_totals_and_logs_before_and_after(arbiter, arbiter_client,
                                                                         sheet):  # fmt: skip
    sheet.refresh_from_db()
    deal = sheet.deals.get(number=3)
    # Deal 3 was a prise lost by 7 (Sud −126); make it won by 5 with 56 points:
    # 25 + 5 + 20 (poignée) + 10 (petit au bout) = 60.
    fields = {**DEALS_004[2], "points": "56"}
    response = edit(arbiter_client, deal, fields, sheet.version)
    assert response.status_code == 200
    deal.refresh_from_db()
    assert deal.scores == [-60, -60, 180, -60]
    html = response.content.decode()
    assert 'id="sheet-full"' in html  # the sheet has its five deals: no sixth row offered
    change = ChangeLog.objects.filter(object_id=deal.pk, action="update").get()
    assert change.user == arbiter
    assert change.before["points"] == 44 and change.after["points"] == 56
    assert change.before["scores"] == [42, 42, -126, 42]
    history = arbiter_client.get(reverse("sheet-history", args=[sheet.pk])).content.decode()
    assert "Modification" in history and "arbitre-test" in history


def test_deleting_a_deal_renumbers_the_rest_and_keeps_a_record(arbiter_client, sheet):
    sheet.refresh_from_db()
    deal = sheet.deals.get(number=2)
    response = arbiter_client.post(
        reverse("deal-delete", args=[deal.pk]), {"version": sheet.version}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 200
    assert list(sheet.deals.values_list("number", flat=True)) == [1, 2, 3, 4]
    deleted = ChangeLog.objects.get(action="delete")
    assert deleted.before["contract"] == "garde_sans" and deleted.after is None
    assert (
        "Suppression"
        in arbiter_client.get(reverse("sheet-history", args=[sheet.pk])).content.decode()
    )


def test_an_impossible_correction_is_refused_and_the_deal_kept(arbiter_client, sheet):
    sheet.refresh_from_db()
    deal = sheet.deals.get(number=1)
    html = edit(arbiter_client, deal, {**DEALS_004[0], "oudlers": "5"}, sheet.version)
    html = html.content.decode()
    assert "Correction de la donne 1" in html and "errorlist" in html
    deal.refresh_from_db()
    assert deal.oudlers == 2 and deal.scores == [-106, 318, -106, -106]


def test_a_deal_can_become_passed(arbiter_client, sheet):
    sheet.refresh_from_db()
    deal = sheet.deals.get(number=5)
    edit(arbiter_client, deal, {"taker": "T"}, sheet.version)
    deal.refresh_from_db()
    assert deal.passed and deal.scores == [0, 0, 0, 0]
