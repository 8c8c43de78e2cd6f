"""The arbiter's score has three routes (give, clear, (not) record); a page opened before they
existed posts its choice to the first one, which then writes nothing and says so."""

import pytest
from django.urls import reverse

from tests.desk_helpers import DEALS_004, deal_post


@pytest.mark.django_db
@pytest.mark.parametrize("action", ["clear", "not_recorded", "recorded"])
def test_an_old_page_choice_posted_to_the_score_route_writes_nothing(
    arbiter_client, desk_sheet_004, action
):
    _tournament, sheet = desk_sheet_004
    deal_post(arbiter_client, sheet, DEALS_004[0])
    deal = sheet.deals.get()
    url = reverse("deal-adjust", args=[deal.pk])
    sheet.refresh_from_db()
    arbiter_client.post(url, {"version": sheet.version, "margin": 10, "reason": "Renonce"})
    deal.refresh_from_db()
    sheet.refresh_from_db()
    before = (deal.adjusted, deal.scores, deal.score_not_recorded, sheet.version)
    assert deal.adjusted

    response = arbiter_client.post(
        url, {"version": sheet.version, "action": action, "margin": 20, "reason": "x"}
    )
    assert response.status_code == 302 and response["Location"] == url
    deal.refresh_from_db()
    sheet.refresh_from_db()
    assert (deal.adjusted, deal.scores, deal.score_not_recorded, sheet.version) == before
    page = arbiter_client.get(url).content.decode()
    assert "faites votre choix à nouveau" in page
