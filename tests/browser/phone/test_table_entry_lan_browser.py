"""Phones on a club's plain-http Wi-Fi: no secure context, so no service worker. The page says
how to find it again, warns when offline that the deals are kept on the phone, and its queue
survives a reload without Wi-Fi (the browser's own error page) and a closed tab: reopened
online, each deal is stored exactly once."""

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
from tests.browser_helpers import csp_violations

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

BANNER = "Pas de Wi-Fi : continuez de saisir."


def queued(context, origin: str, token: str) -> list:
    """The deals waiting in the phone's storage for this table, read from the browser itself
    (in the open page, or in a blank page of the origin Playwright opens when no tab is)."""
    import json

    held = []
    for entry in context.storage_state()["origins"]:
        if entry["origin"] == origin:
            # One key per waiting deal (static/js/table_queue.js), in the order it was typed.
            for item in entry["localStorage"]:
                if item["name"].startswith(f"tarot-deal-{token}:"):
                    held.append(json.loads(item["value"]))
    held.sort(key=lambda entry: (entry["item"]["number"], entry["at"]))
    return [entry["item"] for entry in held]


def test_deals_typed_offline_on_a_plain_http_lan_survive_a_reload_and_a_closed_tab(
    lan_browser,
    lan_server,
    one_request_at_a_time,
    table_of_five,  # noqa: F811 (the fixture)
):
    link = table_of_five["link"]
    url = lan_server + reverse("table-entry", args=[link.token])
    context = lan_browser.new_context(locale="fr-FR", **PHONE)
    violations = csp_violations(context)
    page = context.new_page()
    page.set_default_timeout(15_000)
    try:
        page.goto(url)
        assert page.evaluate("window.isSecureContext") is False
        assert page.evaluate("'serviceWorker' in navigator") is False
        # Before the Wi-Fi drops: how to find this page again (its code on the short address).
        hint = page.locator("#keep-hint")
        hint.wait_for(state="visible")
        assert f"{link.code} sur {lan_server}/table/" in hint.inner_text()
        # What works over plain HTTP (no offline copy of the page): the open tab keeps the
        # deals; no home-screen or bookmark promise a reload without Wi-Fi can't keep.
        assert "Gardez cet onglet ouvert" in hint.inner_text()
        assert "écran d'accueil" not in hint.inner_text() and "favoris" not in hint.inner_text()
        assert page.locator("#offline-banner").is_hidden()
        identify(page, 0, table_of_five["players"][0].pin)

        context.set_offline(True)
        page.wait_for_selector(f"#offline-banner:has-text('{BANNER}')")
        for deal in DEALS[:3]:
            enter(page, deal, online=False)
        page.wait_for_selector("#queue-status:has-text('3 donnes en attente')")
        # Each waiting deal is listed under the number it was typed with: a missing one is named.
        listed = page.locator("#queue-list li").all_inner_texts()
        assert [line.split(" · ")[0] for line in listed] == ["Donne 1", "Donne 2", "Donne 3"]
        assert Deal.objects.count() == 0
        typed = queued(context, lan_server, link.token)  # read in the open page
        assert [item["number"] for item in typed] == [1, 2, 3]

        # A reload without Wi-Fi and without a service worker: the browser's error page; then
        # the tab closed. The deals are still in the phone's storage, read by a new page of the
        # origin (the storage is read once the tab is gone: while the error page commits,
        # Playwright may read a page between two documents).
        with pytest.raises(Exception, match="ERR_INTERNET_DISCONNECTED"):
            page.reload()
        page.close()
        waiting = queued(context, lan_server, link.token)
        assert waiting == typed
        assert len({item["client_id"] for item in waiting}) == 3

        # The Wi-Fi is back; the player reopens the page: every deal is sent, once.
        context.set_offline(False)
        page = context.new_page()
        page.set_default_timeout(15_000)
        page.goto(url)
        page.wait_for_selector("#row-3", timeout=20_000)
        page.wait_for_selector("#queue-status", state="hidden")
        assert page.locator("#offline-banner").is_hidden()
        deals = list(Deal.objects.order_by("number"))
        assert [d.number for d in deals] == [1, 2, 3]
        assert {d.client_id for d in deals} == {item["client_id"] for item in waiting}
        assert queued(context, lan_server, link.token) == []
        # A second visit sends nothing more.
        page.reload()
        page.wait_for_selector("#row-3")
        assert Deal.objects.count() == 3
        assert violations == []  # nothing the Content-Security-Policy blocked
    finally:
        context.close()
