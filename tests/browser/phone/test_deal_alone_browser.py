"""On the phone page (390×844 Chromium), "Roi au chien" and "Seul (a appelé son propre roi)" are
recorded as such, and the running sheet on the phone says which."""

import pytest
from django.urls import reverse

from scoring.models import ScoreSheet
from tests.browser.phone.test_table_entry_browser import (  # noqa: F401
    enter,
    identify,
    phone,
    table_of_five,
    tap,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_phone_records_the_king_in_the_chien_and_the_taker_calling_themself(
    browser,
    live_server,
    table_of_five,  # noqa: F811
):
    url = live_server.url + reverse("table-entry", args=[table_of_five["link"].token])
    context, page = phone(browser)
    try:
        page.goto(url)
        identify(page, 0, table_of_five["players"][0].pin)
        enter(page, ("DUVAL", "prise", "dog", "1", "55", "attack", ""))
        page.wait_for_selector("#row-1")
        enter(page, ("DUVAL", "prise", "alone", "1", "55", "attack", ""))
        page.wait_for_selector("#row-2")
        sheet = ScoreSheet.objects.get(table=table_of_five["table"])
        deals = list(sheet.deals.order_by("number"))
        assert [(d.partner, d.alone) for d in deals] == [(None, "dog"), (None, "self")]
        assert deals[0].scores == deals[1].scores  # both alone against four
        assert "seul (roi au chien)" in page.inner_text("#row-1")
        assert "seul (appelé soi-même)" in page.inner_text("#row-2")
    finally:
        context.close()
