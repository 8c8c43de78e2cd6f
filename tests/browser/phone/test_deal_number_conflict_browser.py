"""One deal, one copy, whatever the network did (issue 35), on 390×844 phones over a plain-http LAN.

A phone goes offline, its player types deal 2 and closes the tab; a tablemate enters deal 2 on
her own phone; the Wi-Fi comes back and the first phone reopens the page. Before, the queued
deal was stored again as deal 3 (identical, no warning). Now the sheet keeps one copy and the
reopened phone shows both versions side by side for the table to choose. And the phone never
offers a deal beyond the table's count.
"""

import pytest
from django.urls import reverse

from scoring.models import Deal
from tests.browser.phone.test_table_entry_browser import (  # noqa: F401 (table_of_five is a fixture)
    DEALS,
    PHONE,
    enter,
    identify,
    table_of_five,
)
from tests.browser.phone.test_table_entry_lan_browser import queued
from tests.browser_helpers import csp_violations
from tournament.models import ChangeLog

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# BERGER (seat 1) takes a garde with CARON: not the deal ARNAUD typed as deal 3.
OTHER = ("BERGER", "garde", "CARON", "2", "60", "attack", "")


def watched_phone(browser):
    """A phone (its own browser context) and the list that fills with what went wrong in its
    pages: a script error, a console error, a blocked inline style or script. The browser's own
    line for an answer that is not a 2xx (the 409 expected here, a request without Wi-Fi) is
    not a page's error, nor its warning that plain http ignores the Cross-Origin-Opener-Policy
    header (the LAN's http origin is not a trustworthy one)."""
    context = browser.new_context(locale="fr-FR", **PHONE)
    context.set_default_timeout(15_000)
    errors = csp_violations(context)

    def on_console(message) -> None:
        text = message.text
        if message.type != "error" or text.startswith("Failed to load resource"):
            return
        if "Cross-Origin-Opener-Policy header has been ignored" in text:
            return
        errors.append(text)

    context.on("console", on_console)
    context.on("weberror", lambda error: errors.append(str(error.error)))
    return context, errors


def numbers() -> list[tuple[int, str]]:
    return [
        (d.number, d.entered_by_player.player.last_name)
        for d in Deal.objects.order_by("number").select_related("entered_by_player__player")
    ]


def test_a_deal_typed_offline_and_entered_by_a_tablemate_is_one_copy_and_a_choice(
    lan_browser,
    lan_server,
    one_request_at_a_time,
    table_of_five,  # noqa: F811 (the fixture)
):
    players = table_of_five["players"]
    link = table_of_five["link"]
    url = lan_server + reverse("table-entry", args=[link.token])
    first, errors = watched_phone(lan_browser)
    second, errors_b = watched_phone(lan_browser)
    try:
        a = first.new_page()
        a.goto(url)
        identify(a, 0, players[0].pin)
        enter(a, DEALS[0])
        a.wait_for_selector("#row-1")

        # ARNAUD's phone loses the Wi-Fi: he types deal 2, then closes the tab.
        first.set_offline(True)
        a.wait_for_selector("#offline-banner", state="visible")
        enter(a, DEALS[1], online=False)
        a.wait_for_selector("#queue-status:has-text('1 donne en attente')")
        assert len(queued(first, lan_server, link.token)) == 1
        a.close()

        # BERGER enters the same deal 2 on her own phone.
        b = second.new_page()
        b.goto(url)
        identify(b, 1, players[1].pin)
        b.wait_for_selector("#deal-number:text-is('2')")
        enter(b, DEALS[1])
        b.wait_for_selector("#row-2")

        # The Wi-Fi is back; ARNAUD reopens the page as its banner asked: one copy on the sheet,
        # and his phone shows both versions side by side.
        first.set_offline(False)
        a = first.new_page()
        a.goto(url)
        # (Before: the queued deal went in as deal 3, the same deal twice, and no conflict.)
        a.wait_for_selector("#conflict-versions:visible, #row-3")
        assert numbers() == [(1, "ARNAUD"), (2, "BERGER")]
        a.wait_for_selector("#conflict-versions", state="visible")
        assert "La donne 2 est déjà sur la feuille" in a.inner_text("#conflict-text")
        assert "BERGER" in a.inner_text("#conflict-stored .who")
        assert "ARNAUD" in a.inner_text("#conflict-mine .who")
        stored_scores = a.inner_text("#conflict-stored .scores")
        assert stored_scores == a.inner_text("#conflict-mine .scores") and "+" in stored_scores
        assert "Prise" in a.inner_text("#conflict-stored .deal-words")
        waiting = queued(first, lan_server, link.token)
        assert [(item["number"], item["version"]) for item in waiting] == [(2, 1)]
        assert a.inner_text("#deal-number") == "3"  # the next deal, not a second deal 2
        # Side by side at 390 px, and the page still fits the phone.
        stored_box = a.locator("#conflict-stored").bounding_box()
        mine_box = a.locator("#conflict-mine").bounding_box()
        assert stored_box["y"] == mine_box["y"] and stored_box["x"] < mine_box["x"]
        assert a.evaluate("document.documentElement.scrollWidth") <= 390

        # Reopened again before anyone chooses: the same conflict, still one copy.
        a.reload()
        a.wait_for_selector("#conflict-versions", state="visible")
        assert len(queued(first, lan_server, link.token)) == 1
        assert numbers() == [(1, "ARNAUD"), (2, "BERGER")]

        # The table keeps the stored deal: ARNAUD's copy leaves his phone, nothing is stored.
        a.click("#conflict-keep")
        a.wait_for_selector("#conflict-box", state="hidden")
        a.wait_for_selector("#queue-status", state="hidden")
        assert queued(first, lan_server, link.token) == []
        assert numbers() == [(1, "ARNAUD"), (2, "BERGER")]
        assert a.inner_text("#deal-number") == "3"

        # Again for deal 3, on an open page this time, and the table takes ARNAUD's version:
        # BERGER, who entered the stored one, types her code on his phone to replace it.
        first.set_offline(True)
        a.wait_for_selector("#offline-banner", state="visible")
        enter(a, DEALS[2], online=False)  # tous passent
        b.wait_for_selector("#deal-number:text-is('3')")
        enter(b, OTHER)
        b.wait_for_selector("#row-3")
        first.set_offline(False)
        a.wait_for_selector("#conflict-versions", state="visible")
        assert "Tous passent" in a.inner_text("#conflict-mine .deal-words")
        assert "Garde" in a.inner_text("#conflict-stored .deal-words")
        assert "60 points" in a.inner_text("#conflict-stored .deal-words")
        assert a.input_value("#replace-seat") == "1"
        # Meanwhile BERGER corrects her deal 3: ARNAUD's phone, asked to replace the version it
        # showed, is refused and shows the stored deal as it now is.
        b.click("#row-3 .fix-deal")
        b.fill("#points", "70")
        b.wait_for_selector("#preview.ok")
        b.click("#save")
        b.wait_for_selector("#entry-error:has-text('Donne 3 corrigée')")
        a.fill("#replace-pin", players[1].pin)
        a.click("#conflict-replace")
        a.wait_for_selector("#conflict-stored .deal-words:has-text('70 points')")
        assert "La feuille a changé" in a.inner_text("#conflict-message")
        assert Deal.objects.get(number=3).contract == "garde"
        a.fill("#replace-pin", players[1].pin)
        a.click("#conflict-replace")
        a.wait_for_selector("#conflict-box", state="hidden")
        a.wait_for_selector("#entry-error:has-text('Donne 3 remplacée')")
        replaced = Deal.objects.get(number=3)
        assert replaced.passed and replaced.pending
        assert Deal.objects.count() == 3 and queued(first, lan_server, link.token) == []
        assert ChangeLog.objects.filter(
            action=ChangeLog.Action.UPDATE, object_id=replaced.pk
        ).exists()
        assert errors == [] and errors_b == []
    finally:
        first.close()
        second.close()


def test_the_phone_never_offers_a_deal_beyond_the_tables_count(
    lan_browser,
    lan_server,
    one_request_at_a_time,
    table_of_five,  # noqa: F811 (the fixture)
):
    tournament = table_of_five["tournament"]
    tournament.deals_per_table_5 = 2
    tournament.save()
    url = lan_server + reverse("table-entry", args=[table_of_five["link"].token])
    context, errors = watched_phone(lan_browser)
    try:
        page = context.new_page()
        page.goto(url)
        identify(page, 0, table_of_five["players"][0].pin)
        page.wait_for_selector("#deal-entry", state="visible")
        assert page.locator("#sheet-full").is_hidden()
        # Offline, the deals waiting on the phone count too: after deal 2 of 2, no deal 3.
        context.set_offline(True)
        page.wait_for_selector("#offline-banner", state="visible")
        enter(page, DEALS[0], online=False)
        enter(page, DEALS[2], online=False)
        page.wait_for_selector("#sheet-full:has-text('Feuille complète : les 2 donnes')")
        assert page.locator("#deal-entry").is_hidden()
        context.set_offline(False)
        page.wait_for_selector("#row-2")
        page.wait_for_selector("#queue-status", state="hidden")
        assert [d.number for d in Deal.objects.order_by("number")] == [1, 2]
        # A reopened page says it too, and a waiting deal's correction still opens the form.
        page.reload()
        page.wait_for_selector("#sheet-full", state="visible")
        assert page.locator("#deal-entry").is_hidden()
        page.click("#row-1 .fix-deal")
        page.wait_for_selector("#deal-entry", state="visible")
        assert page.locator("#sheet-full").is_hidden()
        page.click("#fix-cancel")
        page.wait_for_selector("#sheet-full", state="visible")
        assert errors == []
    finally:
        context.close()
