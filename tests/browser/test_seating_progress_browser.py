"""Issue 25 in the browser, at the desk: a generation that may take more than 2 s shows a
progress bar following the budget the server announced, while the POST runs; accessible
(role="progressbar", aria-valuenow, its French label), under the strict CSP, no axe problem."""

import threading

import pytest
from django.urls import reverse

from tests.browser.accessibility_helpers import axe_violations
from tests.browser_helpers import log_in_by_cookie
from tests.conftest import TEST_SEARCH_STEPS, TEST_SEATING_BUDGET
from tests.tournament.evening.positions_helpers import make_tournament
from tournament.evening.positions import generation_seconds
from tournament.evening.selectors import tournament_plan

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def held_generation(live_server):
    """The live server holds the generation's POST until the test releases it: the bar moves
    while the request is in flight, however fast or slow the solver."""
    release = threading.Event()
    httpd = live_server.thread.httpd
    app = httpd.get_app()

    def holding(environ, start_response):
        if environ["REQUEST_METHOD"] == "POST" and environ["PATH_INFO"].endswith("/generer/"):
            release.wait(timeout=120)
        return app(environ, start_response)

    httpd.set_app(holding)
    yield release
    release.set()
    httpd.set_app(app)


def moved_to(percent: int):
    def moved(message) -> bool:
        words = message.text.split(" ")
        return words[0] == "progress" and int(words[2]) >= percent

    return moved


def test_a_long_generation_shows_its_progress(
    desk_page, live_server, arbiter, real_seating_budget, held_generation, settings
):
    # 12 players x 4 positions at the site's budgets: the exact solver's turn, announced as
    # several seconds. The server holds the POST until the bar has moved, then generates at
    # the tests' budgets (tests/conftest.py): the bar follows the announced time, whatever
    # the solver takes.
    tournament = make_tournament(players=12, positions=4)
    seconds = generation_seconds(tournament, 0)
    assert seconds > 2
    log_in_by_cookie(desk_page, live_server, arbiter)
    desk_page.goto(live_server.url + reverse("position-list", args=[tournament.pk]))
    settings.SEATING_EXACT_BUDGET = TEST_SEATING_BUDGET
    settings.SEATING_SEARCH_STEPS = TEST_SEARCH_STEPS
    box = desk_page.locator("#generate-progress")
    assert box.is_hidden()
    assert (
        desk_page.get_by_role("progressbar", include_hidden=True).get_attribute("aria-valuenow")
        == "0"
    )
    # While the POST runs the browser waits for the next page and Playwright reads nothing:
    # the old page reports each step of the bar on its console instead.
    steps: list[str] = []
    desk_page.on("console", lambda message: steps.append(message.text))
    desk_page.evaluate(
        """() => {
          const box = document.getElementById('generate-progress');
          const bar = box.querySelector('[role="progressbar"]');
          const label = document.getElementById(bar.getAttribute('aria-labelledby'));
          new MutationObserver(() => console.log(
            `progress ${box.hidden ? 'hidden' : 'shown'} ${bar.getAttribute('aria-valuenow')}`
            + ` ${label.textContent}`
          )).observe(bar, {attributes: true, attributeFilter: ['aria-valuenow']});
        }"""
    )
    # The server holds the POST until the bar, shown, has reached 5 (its console says so).
    with desk_page.expect_console_message(moved_to(5), timeout=60_000):
        desk_page.get_by_role("button", name="Générer", exact=True).click(no_wait_after=True)
    held_generation.set()
    desk_page.get_by_text("Positions 1 à 4 planifiées").wait_for(timeout=60_000)
    assert desk_page.locator("#generate-progress").is_hidden()
    # The page as the arbiter left it, the bar shown, has no accessibility problem.
    desk_page.evaluate("() => { document.getElementById('generate-progress').hidden = false; }")
    assert axe_violations(desk_page) == []
    assert len(tournament_plan(tournament)) == 4
    label = f"Calcul du placement… (jusqu'à {seconds} s)"
    shown = [step.split(" ", 3) for step in steps if step.startswith("progress ")]
    assert shown and all(state == "shown" and text == label for _, state, _, text in shown)
    values = [int(value) for _, _, value, _ in shown]
    assert values == sorted(values) and values[-1] >= 5  # it moved while the POST was in flight


def test_a_quick_generation_shows_no_progress_bar(desk_page, live_server, arbiter):
    tournament = make_tournament(players=21, positions=2)
    assert generation_seconds(tournament, 0) <= 2
    log_in_by_cookie(desk_page, live_server, arbiter)
    desk_page.goto(live_server.url + reverse("position-list", args=[tournament.pk]))
    assert desk_page.locator("#generate-progress").count() == 0
