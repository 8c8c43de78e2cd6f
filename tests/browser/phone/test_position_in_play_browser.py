"""One answer to "which position is in play": the cockpit at the desk and the player's card on a
390 px phone name the same position, table and seat, even while an earlier one is still open."""

import pytest

from tests.conftest import browser_login, open_page
from tests.report_builders import build_tournament
from tournament.models import Position, Registration, Seat, Table, Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def two_open_positions(arbiter):
    """Positions 1 and 2 published (1 never closed), position 3 published: A sits West at 7."""
    built = build_tournament(is_public=True, status=Tournament.Status.RUNNING)
    tournament = built["tournament"]
    position = Position.objects.create(
        tournament=tournament, number=3, status=Position.Status.PUBLISHED
    )
    table = Table.objects.create(position=position, number=7)
    players: list[Registration] = [built["registrations"][letter] for letter in "BCDA"]
    for registration, direction in zip(players, "NESW", strict=True):
        Seat.objects.create(table=table, registration=registration, direction=direction)
    return built


def test_cockpit_and_card_agree_on_the_position_in_play(
    browser, page, live_server, one_request_at_a_time, two_open_positions
):
    tournament = two_open_positions["tournament"]
    browser_login(page, live_server, "arbitre-test", "pw-arbitre-1")
    page.goto(f"{live_server.url}/tournois/{tournament.pk}/")
    assert "Position 3 en cours" in page.inner_text("#cockpit-now-title")

    a = two_open_positions["registrations"]["A"]
    for phone in open_page(browser, {"width": 390, "height": 844}, is_mobile=True, has_touch=True):
        phone.goto(f"{live_server.url}/public/{tournament.pk}/joueur/{a.pk}/")
        card = phone.locator("#me-current")
        assert card.is_visible()
        text = card.inner_text()
        assert "position 3" in text and "Table 7" in text and "Ouest" in text
        assert "position 1" not in phone.inner_text(".me-seats")
        assert "suivante" not in phone.inner_text(".me-seats")
