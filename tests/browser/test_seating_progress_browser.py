"""Issue 25 in the browser, at the desk: a generation that may take more than 2 s shows a
progress bar following the budget the server announced, while the POST runs; accessible
(role="progressbar", aria-valuenow, its French label), under the strict CSP, no axe problem."""

import pytest
from django.urls import reverse

from tests.browser.accessibility_helpers import axe_violations
from tests.conftest import browser_login
from tests.tournament.evening.positions_helpers import make_tournament
from tournament.evening.positions import generation_seconds
from tournament.evening.selectors import tournament_plan

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_long_generation_shows_its_progress(desk_page, live_server, arbiter, real_seating_budget):
    # 12 players x 4 positions: the exact solver's turn, several seconds at the site's budgets
    # (the tests' smaller ones could answer before the bar moves: tests/conftest.py).
    tournament = make_tournament(players=12, positions=4)
    seconds = generation_seconds(tournament, 0)
    assert seconds > 2
    browser_login(desk_page, live_server, "arbitre-test", "pw-arbitre-1")
    desk_page.goto(live_server.url + reverse("position-list", args=[tournament.pk]))
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
    desk_page.get_by_role("button", name="Générer", exact=True).click(no_wait_after=True)
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
    assert values == sorted(values) and values[-1] >= 5  # it moved while the server computed


def test_a_quick_generation_shows_no_progress_bar(desk_page, live_server, arbiter):
    tournament = make_tournament(players=21, positions=2)
    assert generation_seconds(tournament, 0) <= 2
    browser_login(desk_page, live_server, "arbitre-test", "pw-arbitre-1")
    desk_page.goto(live_server.url + reverse("position-list", args=[tournament.pk]))
    assert desk_page.locator("#generate-progress").count() == 0
