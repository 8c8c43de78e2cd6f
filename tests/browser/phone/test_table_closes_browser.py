"""A table's phone page open when the arbiter closes the position: its periodic refresh of the
sheet is answered 404, and the phone switches by itself to the page saying the position is
closed (before, the page stayed silent and kept offering the form)."""

import pytest
from django.urls import reverse

from tests.browser.phone.test_table_entry_browser import (  # noqa: F401 - table_of_five: fixture
    identify,
    phone,
    table_of_five,
    wait_until_cached,
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
        wait_until_cached(page)
        identify(page, 0, table_of_five["players"][0].pin)
        assert page.locator("#deal-entry").is_visible()
        # Closed between two requests the live server serves (the test's writes and the
        # server's reads share one in-memory SQLite database, which a refresh served meanwhile
        # would find locked). The Wi-Fi stays on: cut and back around the close, the reload once
        # opened the stored copy of the open page (its fetch still offline, it seems), which
        # logged a second 404 and its own refused copy before the closed page came.
        with one_request_at_a_time.between_requests:
            position_close(position=table_of_five["table"].position)
        # The next periodic refresh (every 5 s) finds the sheet gone.
        page.wait_for_selector("h1:has-text('La position 1 est close')", timeout=30_000)
        assert page.url == url
        assert page.locator("#deal-entry").count() == 0
        # The refresh's own 404 is the only error the browser logged (the closed page's 404 is
        # the page made to say so, not counted).
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
