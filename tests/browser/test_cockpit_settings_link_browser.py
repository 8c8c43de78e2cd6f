"""Issue 38: once every position is closed, the cockpit's "Terminer le tournoi (dans les
réglages)" opens the settings box it points to (it scrolled to a closed box)."""

import pytest

from tests.conftest import browser_login
from tests.desk_helpers import make_tournament
from tournament.access.lifecycle import position_close

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_finish_the_tournament_opens_the_settings_box(desk_page, live_server, arbiter):
    tournament, position = make_tournament(positions_count=1, status="running")
    position_close(position=position)
    browser_login(desk_page, live_server, "arbitre-test", "pw-arbitre-1")
    desk_page.goto(f"{live_server.url}/tournois/{tournament.pk}/")
    settings = desk_page.locator("details#settings")
    assert settings.get_attribute("open") is None
    desk_page.get_by_role("link", name="Terminer le tournoi (dans les réglages)").click()
    desk_page.wait_for_function("() => document.getElementById('settings').open")
    settings.locator("summary").click()  # closed again by hand, then the link once more
    desk_page.wait_for_function("() => !document.getElementById('settings').open")
    desk_page.get_by_role("link", name="Terminer le tournoi (dans les réglages)").click()
    desk_page.wait_for_function("() => document.getElementById('settings').open")
