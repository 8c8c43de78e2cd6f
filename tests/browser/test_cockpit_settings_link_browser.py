"""Issue 38: once every position is closed, the cockpit's "Terminer le tournoi (dans les
réglages)" opens the settings box it points to (it scrolled to a closed box)."""

import pytest
from playwright.sync_api import expect

from tests.browser_helpers import log_in_by_cookie
from tests.desk_helpers import make_tournament
from tournament.access.lifecycle import position_close

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_finish_the_tournament_opens_the_settings_box(desk_page, live_server, arbiter):
    tournament, position = make_tournament(positions_count=1, status="running")
    position_close(position=position)
    log_in_by_cookie(desk_page, live_server, arbiter)
    desk_page.goto(f"{live_server.url}/tournois/{tournament.pk}/")
    settings = desk_page.locator("details#settings")
    assert settings.get_attribute("open") is None
    desk_page.get_by_role("link", name="Terminer le tournoi (dans les réglages)").click()
    desk_page.wait_for_function("() => document.getElementById('settings').open")
    # The right place: the button that finishes it is on the screen, not below the fold.
    finish = desk_page.get_by_role("button", name="Terminer le tournoi (verrouille les résultats)")
    expect(finish).to_be_in_viewport(ratio=1)
    desk_page.evaluate("() => window.scrollTo(0, 0)")
    settings.locator("summary").click()  # closed again by hand, then the link once more
    desk_page.wait_for_function("() => !document.getElementById('settings').open")
    desk_page.get_by_role("link", name="Terminer le tournoi (dans les réglages)").click()
    desk_page.wait_for_function("() => document.getElementById('settings').open")
    expect(finish).to_be_in_viewport(ratio=1)


def test_an_address_to_the_finish_button_opens_on_it(desk_page, live_server, arbiter):
    """The cut page of a session in play sends to the cockpit's address with #tournament-finish:
    the page opens with the settings box open and that button on the screen."""
    tournament, position = make_tournament(positions_count=1, status="running")
    position_close(position=position)
    log_in_by_cookie(desk_page, live_server, arbiter)
    desk_page.goto(f"{live_server.url}/tournois/{tournament.pk}/#tournament-finish")
    desk_page.wait_for_function("() => document.getElementById('settings').open")
    finish = desk_page.get_by_role("button", name="Terminer le tournoi (verrouille les résultats)")
    expect(finish).to_be_in_viewport(ratio=1)
