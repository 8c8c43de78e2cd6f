"""Issue 23 in the browser, at the desk: the fairness measures of a swap and of a re-plan, the
positions page's flag with "Replanifier" one click away (point 1); the ranking workbook
downloaded from the ranking page keeps the licences on its position sheets (point 4); the
cockpit lists the itinerary cards to reprint after a new code, and prints them (point 5)."""

import io

import openpyxl
import pytest
from django.urls import reverse

from scoring.sheets.table_entry import code_unlock
from tests.browser_helpers import log_in_by_cookie
from tests.scoring.documents.exports.test_exports_complete import played, rows_of  # noqa: F401 (a fixture)
from tests.tournament.evening.positions_helpers import make_tournament
from tests.tournament.evening.test_positions_fairness import five_every_time
from tournament.evening.positions import position_generate, position_publish

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_swap_preview_flag_and_replan_show_every_measure(desk_page, live_server, arbiter):
    tournament = make_tournament(players=13, positions=3)
    position_generate(tournament=tournament, seed=3)
    log_in_by_cookie(desk_page, live_server, arbiter)
    # The swap preview: every measure, before → after.
    desk_page.goto(live_server.url + reverse("position-detail", args=[tournament.pk, 3]))
    first, second = (
        o.get_attribute("value") for o in desk_page.locator("#id_first option").all()[1:3]
    )
    desk_page.select_option("#id_first", first)
    desk_page.select_option("#id_second", second)
    desk_page.get_by_role("button", name="Voir l'effet").click()
    measures = desk_page.locator("#swap-measures tbody tr")
    measures.first.wait_for()
    assert measures.count() == 5
    # Hand swaps make the plan worse than the generator's: the positions page says so.
    five_every_time(tournament)
    desk_page.goto(live_server.url + reverse("position-list", args=[tournament.pk]))
    flag = desk_page.locator("#plan-drift")
    assert "moins équitable que celui du générateur" in flag.inner_text()
    assert "Écart des tables de 3 ou 5 : 3" in flag.inner_text()
    # The re-plan runs the solver while the browser waits for the next page: the page it
    # shows is awaited as a state, however long a loaded machine takes.
    flag.get_by_role("button", name="Replanifier").click(no_wait_after=True)
    change = desk_page.locator("#plan-change")
    change.wait_for(timeout=60_000)
    assert desk_page.locator("#plan-change-measures tbody tr").count() == 5
    cells = desk_page.locator('#plan-change-measures tr[data-measure="odd"] td').all_inner_texts()
    assert cells[1] == "3" and int(cells[2].split()[0]) < 3  # the re-plan brought it down
    assert desk_page.locator("#plan-drift").count() == 0


def test_the_ranking_workbook_keeps_the_licences(desk_page, live_server, arbiter, played):  # noqa: F811
    log_in_by_cookie(desk_page, live_server, arbiter)
    desk_page.goto(live_server.url + reverse("ranking", args=[played.pk]))
    with desk_page.expect_download() as download:
        desk_page.get_by_role("link", name="Classements (XLSX)").click()
    book = openpyxl.load_workbook(io.BytesIO(open(download.value.path(), "rb").read()))
    licences = sorted(r["Licence"] for r in rows_of(book["Position 1"]))
    assert licences == ["0000001", "0000002", "0000003", "0000004"]


def test_the_cockpit_says_which_cards_to_reprint(desk_page, live_server, arbiter):
    tournament = make_tournament(players=8, positions=2)
    position_generate(tournament=tournament, seed=2)
    position_publish(position=tournament.positions.get(number=1))
    log_in_by_cookie(desk_page, live_server, arbiter)
    # The print page's button POSTs (with its form's CSRF token): the cards are recorded.
    desk_page.goto(live_server.url + reverse("print-index", args=[tournament.pk]))
    cards = live_server.url + reverse("print-itineraries", args=[tournament.pk])
    printed = desk_page.request.post(cards, form={"csrfmiddlewaretoken": csrf_of(desk_page)})
    assert printed.headers["content-type"] == "application/pdf"
    player = tournament.registrations.select_related("player").get(number=5)
    code_unlock(registration=player, user=None, new_code=True)
    desk_page.goto(live_server.url + reverse("tournament-detail", args=[tournament.pk]))
    section = desk_page.locator("#cockpit-reprints")
    assert player.player.full_name in section.inner_text()
    assert "nouveau code personnel" in section.inner_text()
    action = section.locator("form").get_attribute("action")
    assert action.endswith("?numeros=5") and section.locator("#reprint-cards").is_visible()
    token = csrf_of(desk_page)
    assert desk_page.request.post(live_server.url + action, form={"csrfmiddlewaretoken": token}).ok
    desk_page.reload()
    assert desk_page.locator("#cockpit-reprints").count() == 0


def csrf_of(page) -> str:
    """The CSRF token of the page's first POST form."""
    return page.locator("input[name=csrfmiddlewaretoken]").first.get_attribute("value")
