"""A refusal at the table is an answer the phone shows in French, not an error (issue 38): a
wrong code, a phone locked after its slips, a sheet changed since it was read, a confirmation
by the deal's own enterer. Each shows its French message and the browser console stays empty
(tests/browser/conftest.py fails the test on any console error of a player's page)."""

import pytest

from scoring.models import Deal
from tests.browser.phone.test_table_entry_browser import (  # noqa: F401 (table_of_five is a fixture)
    DEALS,
    enter,
    identify,
    phone,
    table_of_five,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def confirm_says(page, words: str) -> None:
    page.click("#confirm-button")
    page.wait_for_selector(f'#confirm-message:has-text("{words}")')


def test_refusals_show_in_french_without_a_console_error(
    browser,
    live_server,
    one_request_at_a_time,
    table_of_five,  # noqa: F811 (the fixture)
    console_errors,
):
    url = f"{live_server.url}/table/{table_of_five['link'].token}/"
    players = table_of_five["players"]
    enterer, enterer_page = phone(browser)
    confirmer, confirmer_page = phone(browser)
    stranger, stranger_page = phone(browser)
    try:
        enterer_page.goto(url)
        identify(enterer_page, 0, players[0].pin)
        enter(enterer_page, DEALS[0])
        enterer_page.wait_for_selector("#row-1")
        # The enterer may not confirm their own deal: the page says who may.
        confirm_says(enterer_page, "vous l'avez saisie : un adversaire la confirme")

        # A wrong code: the page says where the right one is.
        confirmer_page.clock.install()  # its own refreshes wait: it keeps the sheet it read
        confirmer_page.goto(url)
        confirmer_page.select_option("#who-seat", "3")
        confirmer_page.fill("#who-pin", "000000" if players[3].pin != "000000" else "111111")
        confirmer_page.click("#who-button")
        confirmer_page.wait_for_selector("#who-message:has-text('Code personnel erroné')")
        identify(confirmer_page, 3, players[3].pin)
        confirmer_page.wait_for_selector("#confirm-list [data-deal]")

        # The sheet moves on another phone after this one read it: confirming is refused.
        enter(enterer_page, DEALS[1])
        enterer_page.wait_for_selector("#row-2")
        confirm_says(confirmer_page, "La feuille a changé")
        assert Deal.objects.filter(pending=False).count() == 0

        # A phone that keeps guessing is paused, and told so.
        stranger_page.goto(url)
        wrong = next(pin for pin in ("111111", "222222", "333333") if pin != players[1].pin)
        for _ in range(10):
            stranger_page.select_option("#who-seat", "1")
            stranger_page.fill("#who-pin", wrong)
            stranger_page.click("#who-button")
            stranger_page.wait_for_function(
                "() => document.querySelector('#who-message').textContent !== ''"
            )
            if "pause" in stranger_page.text_content("#who-message"):
                break
            stranger_page.evaluate(
                "() => { document.querySelector('#who-message').textContent = ''; }"
            )
        assert "pause" in stranger_page.text_content("#who-message")
    finally:
        for context in (enterer, confirmer, stranger):
            context.close()
    assert console_errors.found == []
