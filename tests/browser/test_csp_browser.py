"""In Chromium, under the site's Content-Security-Policy: the main pages (the desk's sheet entry,
the cockpit, the hall screen, the public standings, a table's phone page, the sign-up page) raise
no violation and their scripts still work. Every browser test checks the same (the page fixtures,
tests/browser_helpers.open_page); the first test shows that the watch does catch one."""

import re

import pytest
from django.urls import reverse

from scoring.sheets.services import sheet_for_table
from scoring.sheets.table_entry import links_for_position
from tests.browser_helpers import DESK, csp_violations, log_in_by_cookie, type_row
from tests.desk_helpers import NAMES_004, make_tournament
from tests.examples_004 import TYPED_ROWS
from tournament.evening import hall
from tournament.models import Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def evening():
    """A public tournament at position 1 (its sign-up page still shows), phones entering, with a
    hall link."""
    tournament, position = make_tournament(
        names=NAMES_004,
        is_public=True,
        signup_open=True,
        entry_mode=Tournament.EntryMode.BOTH,
        status=Tournament.Status.RUNNING,
    )
    tournament = hall.hall_link_create(tournament=tournament)
    return {
        "tournament": tournament,
        "sheet": sheet_for_table(table=position.tables.get()),
        "link": links_for_position(position)[0],
    }


def test_the_watch_catches_an_inline_handler_and_style(browser, live_server, console_errors):
    context = browser.new_context(locale="fr-FR", viewport=DESK)
    violations = csp_violations(context)
    try:
        page = context.new_page()
        response = page.goto(f"{live_server.url}/connexion/")
        assert "script-src 'self'" in response.headers["content-security-policy"]
        # Each refusal is reported on the console (tests/browser_helpers.py): wait for it.
        with page.expect_console_message(lambda m: "style-src" in m.text):
            page.evaluate(
                """() => {
                  const button = document.createElement("button");
                  button.id = "inline";
                  button.setAttribute("onclick", "document.title = 'ran'");
                  document.body.append(button);
                  document.body.setAttribute("style", "color: red");
                }"""
            )
        with page.expect_console_message(lambda m: "script-src" in m.text):
            page.click("#inline")
        assert page.title() != "ran"  # the inline handler was refused
        assert any("script-src" in v for v in violations), violations
        assert any("style-src" in v for v in violations), violations
        assert any("style-src" in error for error in console_errors.found)
        console_errors.found.clear()  # made on purpose
    finally:
        context.close()


def test_the_desk_sheet_and_the_cockpit_work_under_the_policy(
    desk_page, live_server, one_request_at_a_time, arbiter, evening
):
    page, tournament, sheet = desk_page, evening["tournament"], evening["sheet"]
    log_in_by_cookie(page, live_server, arbiter)

    # The desk: a deal typed with the keyboard, saved through htmx.
    page.goto(f"{live_server.url}/feuilles/{sheet.pk}/")
    page.wait_for_function(
        "() => document.activeElement && document.activeElement.name === 'taker'"
    )
    type_row(page, TYPED_ROWS[0])
    page.wait_for_selector("#deal-1")
    assert sheet.deals.count() == 1

    # The cockpit: the hall link selects itself on a click; a table's number then Enter opens
    # its sheet.
    response = page.goto(f"{live_server.url}/tournois/{tournament.pk}/")
    assert "frame-ancestors 'none'" in response.headers["content-security-policy"]
    page.click("input.hall-url")
    assert page.evaluate("window.getSelection().toString() || document.activeElement.value")
    assert page.evaluate(
        "document.activeElement.selectionEnd - document.activeElement.selectionStart"
    ) == len(page.input_value("input.hall-url"))
    page.locator("h1").click()
    page.keyboard.type("1")
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(rf"/feuilles/{sheet.pk}/$"))


def test_the_public_pages_work_under_the_policy(phone_page, live_server, evening):
    page, tournament = phone_page, evening["tournament"]

    # The public standings: the search filters the rows as one types (public.js).
    page.goto(f"{live_server.url}/public/{tournament.pk}/")
    assert page.locator("table.ranking tbody tr").count() == 4
    page.fill("#q", "durand")
    page.wait_for_function("() => document.querySelectorAll('table.ranking tbody tr').length === 1")

    # The sign-up page.
    response = page.goto(f"{live_server.url}{reverse('signup', args=[tournament.pk])}")
    assert (
        response.status == 200
        and "form-action 'self'" in response.headers["content-security-policy"]
    )
    assert page.inner_text(".signup h1") == tournament.name
    # Its language menu applies a choice at once (site.js, no inline handler).
    page.select_option("select[name=language]", "en")
    page.wait_for_function("() => document.documentElement.lang === 'en'")
    page.select_option("select[name=language]", "fr")
    page.wait_for_function("() => document.documentElement.lang === 'fr'")

    # The hall screen: its script lays out the first slide and starts the clock.
    page.goto(f"{live_server.url}/salle/{tournament.hall_token}/")
    page.wait_for_function("() => document.body.dataset.kind === 'who'")

    # A table's phone page: its script loads the running sheet.
    page.goto(live_server.url + reverse("table-entry", args=[evening["link"].token]))
    page.wait_for_function("() => document.getElementById('sheet-holder').children.length > 0")
