"""On a phone, the public standings show a newly recorded deal without a reload."""

import pytest

from scoring.sheets.services import deal_record
from tests.report_builders import build_tournament
from tournament.models import Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_public_standings_update_themselves_on_a_phone(phone_page, live_server, settings):
    built = build_tournament(is_public=True, status=Tournament.Status.RUNNING)
    page = phone_page
    page.clock.install()  # its refresh runs when the test moves the page's clock (below)
    page.goto(f"{live_server.url}/public/{built['tournament'].pk}/")
    first_row = page.locator("table.ranking tbody tr").first
    assert "JOUEURA A" in first_row.inner_text()
    assert page.locator("table.ranking").is_visible()
    page.evaluate("window.__not_reloaded = true")

    # F takes a garde with 3 bouts and 86 points at position 2: +450, now first with +511.
    sheet = built["sheets"][(2, 1)]
    deal_record(sheet=sheet, data=dict(players=4, taker=2, contract="garde", oudlers=3, points=86))

    page.clock.run_for(settings.LIVE_POLL_SECONDS * 1000)  # the page's next refresh
    page.wait_for_function(
        "() => document.querySelector('table.ranking tbody tr').innerText.includes('JOUEURF F')",
        timeout=15_000,
    )
    assert "+511" in first_row.inner_text()
    assert page.evaluate("window.__not_reloaded") is True


def test_search_by_name_on_a_phone(phone_page, live_server):
    built = build_tournament(is_public=True, status=Tournament.Status.RUNNING)
    page = phone_page
    page.goto(f"{live_server.url}/public/{built['tournament'].pk}/")
    page.fill("#q", "joueurh")
    page.wait_for_function("() => document.querySelectorAll('table.ranking tbody tr').length === 1")
    page.click("table.ranking tbody tr a")
    page.wait_for_load_state()
    assert "JOUEURH H" in page.locator("h1").inner_text()
    assert page.locator("table.deals tbody tr").count() == 2
