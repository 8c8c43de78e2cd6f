"""On a 390 px phone and at the desk: half-played standings say they are provisional, on screen
from the first glance, without sideways scrolling."""

import pytest

from tests.conftest import browser_login
from tests.scoring.live.test_standings_provisional import PROVISIONAL, half_played  # noqa: F401 (fixture)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def tournament(half_played):  # noqa: F811 (the fixture imported above)
    return half_played[0]


def test_the_phone_standings_say_provisional(phone_page, live_server, tournament):
    phone_page.goto(f"{live_server.url}/public/{tournament.pk}/")
    notice = phone_page.locator("#provisional")
    assert notice.is_visible()
    assert " ".join(notice.inner_text().split()) == PROVISIONAL
    assert phone_page.evaluate("document.documentElement.scrollWidth <= 390")


def test_the_desk_ranking_says_provisional(desk_page, live_server, tournament):
    browser_login(desk_page, live_server, "arbitre-test", "pw-arbitre-1")
    desk_page.goto(f"{live_server.url}/tournois/{tournament.pk}/classement/")
    assert desk_page.locator("#provisional").is_visible()
    assert "P1 (en cours)" in desk_page.inner_text("table")
