"""In Chromium: the cockpit's clock ticks, a deal typed elsewhere shows on its table's tile without
a reload, the clock is paused with a click, and typing a table's number opens its sheet."""

import datetime
import re

import pytest

from scoring.models import ScoreSheet
from scoring.sheets.services import deal_record, sheet_for_table
from tests.browser_helpers import log_in_by_cookie
from tests.desk_helpers import make_tournament
from tournament.evening import clock

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def seconds(text: str) -> int:
    minutes, secs = text.strip().split(":")
    return int(minutes) * 60 + int(secs)


def test_the_cockpit_lives_and_jumps_to_a_table(page, live_server, one_request_at_a_time, arbiter):
    tournament, position = make_tournament(tables=3)
    clock.clock_start(position=position)
    log_in_by_cookie(page, live_server, arbiter)
    # The page's timers run on Playwright's clock, paused: the test moves it by the seconds it
    # checks (the clock's ticks, a poll of 5 s) instead of waiting for them in real time.
    page.clock.install(time=datetime.datetime(2026, 11, 21, 20, 0))
    page.clock.pause_at(datetime.datetime(2026, 11, 21, 20, 1))
    page.goto(f"{live_server.url}/tournois/{tournament.pk}/")
    page.evaluate("window.__not_reloaded = true")

    first = seconds(page.inner_text("#position-clock"))
    assert 2990 <= first <= 3000
    page.clock.run_for(2000)  # no poll in between to re-sync it: exactly two seconds less
    assert first - seconds(page.inner_text("#position-clock")) == 2

    # A deal typed at the desk for table 3: its tile turns "in progress" by itself.
    assert "state-missing" in page.get_attribute("#tile-3", "class")
    sheet = sheet_for_table(table=position.tables.get(number=3))
    deal_record(
        sheet=sheet,
        data={"players": 4, "taker": 0, "contract": "garde", "oudlers": 2, "points": 50},
    )
    page.evaluate("document.addEventListener('htmx:afterSwap', () => { window.__swapped = true; })")
    page.clock.run_for(5000)  # a poll
    page.wait_for_function("() => window.__swapped === true")
    page.clock.run_for(100)  # htmx settles the swapped tiles' classes 20 ms later
    assert "state-in_progress" in page.get_attribute("#tile-3", "class")
    assert page.evaluate("window.__not_reloaded") is True
    # The clock kept ticking through the refresh (re-synced from the server's count, which
    # real time only lowers, then a second of the page's clock).
    page.clock.run_for(1000)
    assert seconds(page.inner_text("#position-clock")) < first

    # Pause: the clock stops where it was.
    page.click("#clock-controls button[value=pause]")
    page.wait_for_selector("#position-clock.paused")
    paused = page.inner_text("#position-clock")
    page.clock.run_for(3000)
    assert page.inner_text("#position-clock") == paused

    # Typing "2" then Enter anywhere on the page opens table 2's sheet.
    page.locator("h1").click()
    page.keyboard.type("2")
    assert page.input_value("#cockpit-jump input[name=table]") == "2"
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(r"/feuilles/\d+/$"))
    table2 = ScoreSheet.objects.get(table__position=position, table__number=2)
    assert page.url.endswith(f"/feuilles/{table2.pk}/")
