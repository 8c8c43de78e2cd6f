"""The wronged player contests on his phone (390×844 Chromium): MOREAU types CÔTÉ as taker of a
garde sans LEFÈVRE took; CÔTÉ's phone lists the deal with each player's figure and confirms it;
LEFÈVRE, on MOREAU's side, contests it; the deal goes to the arbiter, whose desk confirms or
deletes it on the page it read, without a conflict."""

import pytest
from django.urls import reverse

from scoring.models import Deal, ScoreSheet
from scoring.sheets.table_entry import links_for_position
from tests.browser.phone.test_table_entry_browser import identify, phone, tap
from tests.conftest import browser_login
from tournament.models import Player, Position, Registration, Seat, Table, Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = ["MOREAU", "CÔTÉ", "LEFÈVRE", "DURAND"]


@pytest.fixture
def table_of_four(arbiter):
    tournament = Tournament.objects.create(
        name="Open des contestations",
        date="2026-11-21",
        is_public=True,
        entry_mode=Tournament.EntryMode.PHONES,
        status=Tournament.Status.RUNNING,
    )
    position = Position.objects.create(tournament=tournament, number=1, status="published")
    table = Table.objects.create(position=position, number=3)
    players = []
    for index, name in enumerate(NAMES):
        registration = Registration.objects.create(
            tournament=tournament,
            player=Player.objects.create(last_name=name),
            number=index + 1,
        )
        Seat.objects.create(table=table, registration=registration, direction="NESW"[index])
        players.append(registration)
    return {"tournament": tournament, "link": links_for_position(position)[0], "players": players}


def test_the_wronged_player_contests_a_confirmed_deal_and_the_arbiter_decides_it(
    browser, live_server, one_request_at_a_time, table_of_four, page
):
    players = table_of_four["players"]
    url = live_server.url + reverse("table-entry", args=[table_of_four["link"].token])
    contexts = []
    try:
        moreau_context, moreau = phone(browser)
        cote_context, cote = phone(browser)
        lefevre_context, lefevre = phone(browser)
        contexts = [moreau_context, cote_context, lefevre_context]
        moreau.goto(url)
        identify(moreau, 0, players[0].pin)
        tap(moreau, "taker", "1")  # CÔTÉ, where LEFÈVRE took
        tap(moreau, "contract", "garde_sans")
        tap(moreau, "oudlers", "2")
        moreau.fill("#points", "52")
        moreau.wait_for_selector("#preview.ok")
        moreau.click("#save")
        moreau.wait_for_selector("#row-1")

        # CÔTÉ's phone lists the deal with what it gives each player, and who confirms it.
        cote.goto(url)
        item = cote.locator("#confirm-list li").first
        assert "CÔTÉ +432" in item.inner_text() and "LEFÈVRE -144" in item.inner_text()
        assert "À confirmer par CÔTÉ" in item.inner_text()
        cote.select_option("#confirm-seat", "1")
        cote.fill("#confirm-pin", players[1].pin)
        cote.click("#confirm-button")
        cote.wait_for_selector("#confirm-message:has-text('Donne 1 confirmée')")

        # LEFÈVRE, on MOREAU's side, contests it: it goes to the arbiter.
        lefevre.goto(url)
        assert lefevre.evaluate("document.documentElement.scrollWidth") <= 390
        lefevre.select_option("#confirm-seat", "2")
        lefevre.fill("#confirm-pin", players[2].pin)
        lefevre.click("#contest-box summary")
        lefevre.fill("#contest-number", "1")
        lefevre.fill("#contest-note", "J'ai pris, pas CÔTÉ")
        lefevre.click("#contest-button")
        lefevre.wait_for_selector('#confirm-message:has-text("l\'arbitre décide")')
        lefevre.wait_for_selector("#row-1 .referred")
        deal = Deal.objects.get()
        assert deal.pending and deal.disputed

        # The desk's page, read after the contest, confirms... and another contest (refused)
        # changes nothing the desk's page was based on.
        browser_login(page, live_server, "arbitre-test", "pw-arbitre-1")
        page.goto(live_server.url + reverse("sheet-detail", args=[deal.sheet_id]))
        assert "à décider" in page.inner_text("#deal-1")
        lefevre.fill("#confirm-pin", players[2].pin)
        lefevre.click("#contest-button")
        lefevre.wait_for_selector("#confirm-message:has-text('déjà contestée')")
        page.click("#deal-1 .confirm-deal")
        page.wait_for_selector("#deal-1:not(:has(.pending-deal))")
        assert "Conflit" not in page.inner_text("#sheet-body")
        deal.refresh_from_db()
        assert not deal.pending and deal.confirmed_by is not None
        assert ScoreSheet.objects.get().status == ScoreSheet.Status.IN_PROGRESS
    finally:
        for context in contexts:
            context.close()
