"""A table's phone page open when the arbiter closes the position: its periodic refresh of the
sheet is answered 404, and the phone switches by itself to the page saying the position is
closed (before, the page stayed silent and kept offering the form)."""

import pytest
from django.urls import reverse

from tests.browser.phone.test_table_entry_browser import (  # noqa: F401 - table_of_five: fixture
    WATCH_PAGE_CACHED,
    identify,
    phone,
    table_of_five,
)
from tournament.access.lifecycle import position_close

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_an_open_table_page_switches_to_the_closed_page_when_the_position_closes(
    browser,
    live_server,
    one_request_at_a_time,
    console_errors,
    table_of_five,  # noqa: F811 - the fixture
):
    token = table_of_five["link"].token
    url = live_server.url + reverse("table-entry", args=[token])
    context, page = phone(browser)
    try:
        page.goto(url)
        # The page keeps its offline copy once, after loading (static/js/table_entry.js): a
        # phone that held the page a while has it. Closed before that, the copy is refused (the
        # page is 404 by then) and Chromium logs the refusal: on a loaded machine the copy
        # could come after the close.
        page.evaluate(WATCH_PAGE_CACHED)
        page.wait_for_function("() => window.pageCached === true")
        identify(page, 0, table_of_five["players"][0].pin)
        assert page.locator("#deal-entry").is_visible()
        # Closed while the phone sends nothing (the test's writes and the live server's reads
        # share one in-memory SQLite database, which a concurrent refresh would find locked).
        context.set_offline(True)
        page.wait_for_selector("#net-status:has-text('Hors ligne')")
        position_close(position=table_of_five["table"].position)
        context.set_offline(False)
        # The next refresh (the Wi-Fi back, or the periodic one) finds the sheet gone.
        page.wait_for_selector("h1:has-text('La position 1 est close')", timeout=30_000)
        assert page.url == url
        assert page.locator("#deal-entry").count() == 0
        # The refreshes' own 404s (one, or two when the Wi-Fi's return and the periodic refresh
        # cross) are the only errors the browser logged (the closed page's 404 is the page
        # made to say so, not counted).
        sheet = live_server.url + reverse("table-sheet", args=[token])
        refresh_404 = (
            f"{sheet}: Failed to load resource: "
            "the server responded with a status of 404 (Not Found)"
        )
        logged = {line.split(" at ", 1)[1] for line in console_errors.found}
        assert logged == {refresh_404}
        console_errors.found.clear()
    finally:
        context.close()
