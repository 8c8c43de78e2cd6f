"""The phone's conflict buttons say what they do and to which deal (issue 38: "Renvoyer quand
même" named neither): a deal typed offline that now follows a deal the sheet lacks offers to
send deal N again, or to erase deal N from this phone."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from scoring.models import ScoreSheet
from scoring.sheets.services import deal_delete
from tests.browser.at_table.conftest import PHONE, open_phone
from tests.browser.at_table.test_entry_flow_browser import identify, type_deal, url

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_resend_and_erase_buttons_name_their_deal(browser, live_server, long_names):
    four = long_names["four"]
    context, page = open_phone(browser, PHONE)
    page.goto(url(live_server, four))
    identify(page, four["players"][0])
    sheet = ScoreSheet.objects.get(table=four["table"])
    last = sheet.deals.count()
    context.set_offline(True)
    type_deal(page, 0)
    page.click("#save")
    expect(page.locator("#queue-status")).to_contain_text("1 donne en attente")
    # Meanwhile the desk deletes the sheet's last deal: the queued one now follows a gap.
    deal_delete(deal=sheet.deals.get(number=last))
    context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    number = last + 1
    expect(page.locator("#conflict-text")).to_contain_text(f"Donne {number} (", timeout=20_000)
    expect(page.locator("#conflict-resend")).to_have_text(
        f"Envoyer de nouveau la donne {number} à la feuille"
    )
    expect(page.locator("#conflict-drop")).to_have_text(
        f"Effacer la donne {number} de ce téléphone"
    )
    expect(page.locator("#conflict-resend")).to_be_visible()
    expect(page.locator("#conflict-drop")).to_be_visible()
    context.close()
