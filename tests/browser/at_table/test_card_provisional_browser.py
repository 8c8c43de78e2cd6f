"""The player's card while a position is in play (issue 38): it says "provisoire" as the public
standings do, with the same rank and total (one counting rule, scoring/counting.py), at
390×844, 320×640 and with a 32 px default font."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from scoring.live.standings import standings_for
from tests.browser.at_table.conftest import SCREENS, open_phone

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ROW = """(name) => {
  const row = [...document.querySelectorAll('table.ranking tbody tr:not(.details)')]
    .find((tr) => tr.querySelector('td.name').textContent.includes(name));
  return {rank: row.querySelector('td:first-child').textContent.trim(),
          total: row.querySelector('td.total').textContent.trim()};
}"""


@pytest.mark.parametrize("screen", [0, 1, 3], ids=["390x844", "320x640", "320x640-font-32"])
def test_the_card_is_provisional_with_the_standings_figures(
    browser, live_server, long_names, screen
):
    name, options, font_px, _root = SCREENS[screen]
    tournament = long_names["tournament"]
    woman = long_names["four"]["players"][2]
    context, page = open_phone(browser, options, font_px)
    page.goto(f"{live_server.url}/public/{tournament.pk}/")
    notice = page.locator("#provisional")
    expect(notice).to_contain_text("Classement provisoire")
    public = page.evaluate(ROW, woman.player.last_name)
    standings_notice = notice.inner_text()
    page.goto(f"{live_server.url}/public/{tournament.pk}/joueur/{woman.pk}/")
    card_notice = page.locator("#me-provisional").inner_text()
    assert card_notice == standings_notice, name
    assert card_notice.startswith("Classement provisoire — position 1 en cours"), name
    expect(page.locator(".me-rank .label")).to_have_text("Classement provisoire")
    assert page.locator("#me-rank").inner_text() == public["rank"]
    total = page.locator("#me-total").inner_text()
    assert int(total.replace("+", "").replace("−", "-")) == int(public["total"].replace("+", ""))
    # And the one counting rule's figure: only deal 1, confirmed, counts.
    ranked = standings_for(tournament, public=True).rank_of(woman.pk)
    assert int(total.replace("+", "")) == ranked.row.total
    context.close()
