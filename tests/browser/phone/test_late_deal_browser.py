"""Issue 35 on a phone (390×844 Chromium): a deal typed without Wi-Fi while the arbiter closes
the position is sent when the Wi-Fi comes back, kept as a late deal for the arbiter, and the
phone says so (before, it was refused and stayed in the phone's storage for ever)."""

import pytest
from django.urls import reverse

from scoring.late import LateDeal
from scoring.models import Deal
from tests.browser.phone.test_table_entry_browser import (  # noqa: F401 - table_of_five: fixture
    DEALS,
    enter,
    identify,
    phone,
    table_of_five,
)
from tournament.access.lifecycle import position_close

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_deal_typed_offline_during_the_close_reaches_the_arbiter_as_a_late_deal(
    browser,
    live_server,
    one_request_at_a_time,
    table_of_five,  # noqa: F811 - the fixture
):
    url = live_server.url + reverse("table-entry", args=[table_of_five["link"].token])
    context, page = phone(browser)
    try:
        page.goto(url)
        identify(page, 0, table_of_five["players"][0].pin)
        context.set_offline(True)
        enter(page, DEALS[0], online=False)
        page.wait_for_selector("#queue-status:has-text('1 donne en attente')")
        with one_request_at_a_time.between_requests:  # not while a refresh is being served
            position_close(position=table_of_five["table"].position)
        context.set_offline(False)
        page.wait_for_selector("#entry-error:has-text('Donne reçue après la clôture')")
        page.wait_for_selector("#queue-status", state="hidden")
        # Nothing left in the phone's storage for this table (one key per waiting deal), read
        # from the browser: the page may already be switching to the closed position's page.
        held = [
            item["name"]
            for origin in context.storage_state()["origins"]
            for item in origin["localStorage"]
            if item["name"].startswith("tarot-")
        ]
        assert held == []
        late = LateDeal.objects.get()
        assert late.status == LateDeal.Status.WAITING and late.entered_by_player.number == 1
        assert not Deal.objects.exists()
        # Reopened, the page says the position is closed instead of asking for a new code.
        page.reload()
        page.wait_for_selector("h1:has-text('La position 1 est close')")
        assert "Demandez le nouveau code" not in page.content()
    finally:
        context.close()
