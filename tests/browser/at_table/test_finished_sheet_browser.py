"""A table's phone on which the last player signs (issue 38): the page kept
asking "Qui saisit sur ce téléphone ?" and offering to confirm, sign and contest. It now hides
them and says what follows."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from scoring.models import ScoreSheet
from tests.browser.at_table.conftest import PHONE, open_phone
from tests.browser.at_table.test_entry_flow_browser import identify, seat_player, url
from tournament.models import Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_open_page_drops_what_a_finished_sheet_no_longer_takes(
    browser, live_server, one_request_at_a_time, long_names
):
    four = long_names["four"]
    Tournament.objects.filter(pk=long_names["tournament"].pk).update(deals_per_table_4=3)
    taker = seat_player(four, 1)
    context, page = open_phone(browser, PHONE)
    page.goto(url(live_server, four))
    identify(page, taker)
    page.click("#confirm-button")
    expect(page.locator("#confirm-message")).to_contain_text("Donnes 2, 3 confirmées")
    for part in ("#who-section", "#confirm-section"):
        expect(page.locator(part)).to_be_visible()
    # The whole table signs on this phone: its own player, then the others with their codes.
    page.click("#finish-button")
    expect(page.locator("#confirm-message")).to_contain_text("Doivent encore la viser")
    for seat in (0, 2, 3):
        page.select_option("#confirm-seat", str(seat))
        page.fill("#confirm-pin", seat_player(four, seat).pin)
        page.click("#finish-button")
        expect(page.locator(f"#signers [data-seat='{seat}']")).to_contain_text("a visé")
    assert ScoreSheet.objects.get(table=four["table"]).status == ScoreSheet.Status.COMPLETE
    expect(page.locator("#sheet-done")).to_be_visible(timeout=20_000)
    expect(page.locator("#sheet-done")).to_contain_text("L'arbitre la valide")
    for part in ("#who-section", "#deal-entry", "#confirm-section", "#finish-button"):
        expect(page.locator(part)).to_be_hidden()
    expect(page.locator("#call-button")).to_be_visible()
    context.close()
