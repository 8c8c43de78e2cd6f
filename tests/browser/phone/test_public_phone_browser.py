"""On a 390×844 phone: a player finds their next table in two taps, sees their rank and total
without scrolling sideways, and the phone remembers them; the standings fit the screen."""

import datetime

import pytest
from django.conf import settings

from scoring.sheets.generate import GenerateOptions, tournament_generate
from tests.report_builders import build_tournament
from tournament.models import Player, Position, Registration, Seat, Table, Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Compared with the phone's 390 px: a page wider than the screen is zoomed out, so its
# innerWidth grows with it and scrollWidth <= innerWidth would always hold.
NO_SIDEWAYS_SCROLL = "document.documentElement.scrollWidth <= 390"


def inside_viewport(page, selector: str) -> bool:
    box = page.locator(selector).bounding_box()
    viewport = page.viewport_size
    return (
        box is not None
        and box["width"] > 0
        and box["x"] >= 0
        and box["y"] >= 0
        and box["x"] + box["width"] <= viewport["width"]
        and box["y"] + box["height"] <= viewport["height"]
    )


@pytest.fixture
def evening():
    """The small tournament, François Côté registered, and position 3 published: he sits
    North at table 3."""
    built = build_tournament(is_public=True, status=Tournament.Status.RUNNING)
    tournament = built["tournament"]
    cote = Registration.objects.create(
        tournament=tournament,
        player=Player.objects.create(last_name="Côté", first_name="François"),
        number=10,
    )
    position = Position.objects.create(
        tournament=tournament, number=3, status=Position.Status.PUBLISHED
    )
    table = Table.objects.create(position=position, number=3)
    players = [cote, *(built["registrations"][letter] for letter in "ABC")]
    for registration, direction in zip(players, "NESW", strict=True):
        Seat.objects.create(table=table, registration=registration, direction=direction)
    return {"tournament": tournament, "cote": cote}


def test_a_player_finds_their_next_table_in_two_taps(phone_page, live_server, evening):
    page = phone_page
    taps = 0
    page.goto(f"{live_server.url}/public/{evening['tournament'].pk}/moi/")

    page.tap("#who")
    taps += 1
    page.keyboard.type("cote")
    result = page.get_by_role("link", name="CÔTÉ François")
    result.wait_for()
    result.tap()
    taps += 1
    page.wait_for_url("**/joueur/*/")

    assert taps == 2
    next_table = page.locator("#me-current")
    assert "Table 3" in next_table.inner_text() and "Nord" in next_table.inner_text()
    assert next_table.is_visible()
    # Rank and total: on screen as the page opens, nothing off to the side.
    assert inside_viewport(page, "#me-rank") and inside_viewport(page, "#me-total")
    assert page.locator("#me-rank").inner_text() == "5"  # 0 points: behind A, E, H and F
    assert page.locator("#me-total").inner_text() == "0"
    assert page.evaluate(NO_SIDEWAYS_SCROLL)


def test_the_phone_remembers_me_and_opens_on_my_card(phone_page, live_server, evening):
    page = phone_page
    pk = evening["tournament"].pk
    page.goto(f"{live_server.url}/public/{pk}/joueur/{evening['cote'].pk}/")
    page.get_by_role("button", name="C'est moi : retenir sur ce téléphone").tap()
    assert page.locator(".me-known").is_visible()

    # Next time, from the standings' button, the page opens on him: no search, no tap.
    page.goto(f"{live_server.url}/public/{pk}/")
    me_link = page.locator("[data-me-link]")
    assert me_link.inner_text() == "Moi : CÔTÉ François"
    me_link.tap()
    page.locator("#me-card #me-current").wait_for()
    assert "Table 3" in page.locator("#me-current").inner_text()
    assert page.locator("#finder").is_hidden()
    assert inside_viewport(page, "#me-rank") and inside_viewport(page, "#me-total")
    assert page.evaluate(NO_SIDEWAYS_SCROLL)

    # "Ce n'est pas moi": forgotten, the search comes back.
    page.get_by_role("button", name="Ce n'est pas moi").tap()
    assert page.locator("#who").is_visible()
    page.reload()
    assert page.locator("#who").is_visible() and page.locator("#me-card").is_hidden()


def test_the_standings_fit_a_phone_and_refreshes_send_nothing_new(phone_page, live_server):
    tournament = tournament_generate(
        options=GenerateOptions(players=200, positions=6, deals=5, played=4, finished=False)
    )
    page = phone_page
    statuses = []
    page.on(
        "response",
        lambda response: statuses.append(response.status) if "/classement/" in response.url else 0,
    )
    # The page's clock is paused: its refresh runs when the test moves it, never by
    # itself while a slow machine runs the steps before.
    page.clock.install(time=datetime.datetime(2026, 11, 21, 20, 0))
    page.clock.pause_at(datetime.datetime(2026, 11, 21, 20, 1))
    page.goto(f"{live_server.url}/public/{tournament.pk}/")
    first = page.locator("table.ranking tbody tr").first
    assert page.evaluate(NO_SIDEWAYS_SCROLL)
    # Rank, name, total and the details toggle; the thirteen other columns wait behind it.
    visible = first.locator("td:visible")
    assert visible.count() == 4
    assert page.locator("table.ranking tbody tr").count() == 50
    first.locator("td.more button").tap()
    details = page.locator("table.ranking tr.details").first
    assert "P1" in details.inner_text() and "Donnes" in details.inner_text()
    assert page.evaluate(NO_SIDEWAYS_SCROLL)

    # The refresh (every LIVE_POLL_SECONDS): the standings have not changed, the server answers
    # 304, no body, and the open details stay open.
    with page.expect_response(lambda response: "/classement/" in response.url):
        page.clock.run_for(settings.LIVE_POLL_SECONDS * 1000)
    assert statuses == [304]
    assert page.locator("table.ranking tr.details").count() == 1
