"""On a 390 px phone and at the desk: half-played standings say they are provisional, on screen
from the first glance, without sideways scrolling."""

import pytest

from scoring.models import ScoreSheet
from scoring.sheets.services import deal_record, sheet_for_table
from tests.conftest import browser_login
from tests.desk_helpers import make_tournament
from tests.test_standings_provisional import DEAL, PROVISIONAL
from tournament.models import Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def half_played(arbiter):
    tournament, position = make_tournament(tables=3, is_public=True)
    tournament.status = Tournament.Status.RUNNING
    tournament.save()
    for number, deals in ((1, 5), (2, 1)):
        sheet = sheet_for_table(table=position.tables.get(number=number))
        for _ in range(deals):
            deal_record(sheet=ScoreSheet.objects.get(pk=sheet.pk), data=DEAL)
    return tournament


def test_the_phone_standings_say_provisional(phone_page, live_server, half_played):
    phone_page.goto(f"{live_server.url}/public/{half_played.pk}/")
    notice = phone_page.locator("#provisional")
    assert notice.is_visible()
    assert " ".join(notice.inner_text().split()) == PROVISIONAL
    assert phone_page.evaluate("document.documentElement.scrollWidth <= 390")


def test_the_desk_ranking_says_provisional(desk_page, live_server, half_played):
    browser_login(desk_page, live_server, "arbitre-test", "pw-arbitre-1")
    desk_page.goto(f"{live_server.url}/tournois/{half_played.pk}/classement/")
    assert desk_page.locator("#provisional").is_visible()
    assert "P1 (en cours)" in desk_page.inner_text("table")
