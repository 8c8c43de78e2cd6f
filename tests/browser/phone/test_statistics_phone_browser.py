"""A player's statistics page on a 390×844 phone: every table fits the screen.

A mobile browser widens its layout viewport to whatever the page needs and zooms out, so
`scrollWidth <= innerWidth` always holds there: the checks compare with the phone's 390 px.
"""

import datetime

import pytest

from scoring.sheets.generate import GenerateOptions, tournament_generate
from tournament.models import Registration, Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE_WIDTH = 390


@pytest.fixture
def statistics_url(live_server):
    tournament = tournament_generate(
        options=GenerateOptions(
            players=13, positions=3, deals=4, name="Open de tarot d'Angers (démonstration)"
        )
    )
    Tournament.objects.filter(pk=tournament.pk).update(date=datetime.date(2025, 3, 15))
    entry = Registration.objects.get(tournament=tournament, number=1)
    return f"{live_server.url}/public/{tournament.pk}/joueur/{entry.pk}/statistiques/"


def test_the_statistics_page_fits_a_phone_without_sideways_scroll(phone_page, statistics_url):
    page = phone_page
    page.goto(statistics_url)
    assert page.locator(".stats-tournaments").is_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE_WIDTH
    # The season's table, its points column included (each row a card on a phone, the column's
    # name beside each figure), lies inside the screen.
    for selector in (".stats-tournaments", ".stats-tournaments td:last-child"):
        box = page.locator(selector).bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE_WIDTH
