"""Two tabs of one table on one phone (its QR code scanned twice), offline, each keeping deals:
no tab erases a deal the other kept, each tab's list follows the other's, and back online every
deal is stored exactly once. A phone updated mid-evening keeps its list-form queue."""

import json

import pytest
from django.urls import reverse

from scoring.models import Deal
from tests.browser.phone.test_table_entry_browser import (  # noqa: F401 (table_of_five is a fixture)
    DEALS,
    PHONE,
    enter,
    identify,
    table_of_five,
    wait_until_cached,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Chromium gives each tab a cached copy of the storage: another tab's write reaches it a moment
# later. A tab that reads in that moment reads a stale value. To make that deterministic, this
# makes the tab read, for every key present when it is called, the value it last saw or wrote
# itself (which keys exist stays live): the worst interleaving, every time.
STALE_STORAGE = """() => {
  const seen = {};
  for (let i = 0; i < localStorage.length; i++) {
    const key = localStorage.key(i);
    seen[key] = localStorage.getItem(key);
  }
  const get = Storage.prototype.getItem, set = Storage.prototype.setItem;
  const remove = Storage.prototype.removeItem;
  Storage.prototype.getItem = function (key) {
    return this === localStorage && key in seen ? seen[key] : get.call(this, key);
  };
  Storage.prototype.setItem = function (key, value) {
    if (this === localStorage && key in seen) seen[key] = String(value);
    return set.call(this, key, value);
  };
  Storage.prototype.removeItem = function (key) {
    if (this === localStorage && key in seen) seen[key] = null;
    return remove.call(this, key);
  };
}"""

LISTED = "() => Array.from(document.querySelectorAll('#queue-list li'), (li) => li.textContent)"


def listed_numbers(page) -> list[str]:
    return [line.split(" · ")[0] for line in page.evaluate(LISTED)]


def wait_listed(page, count: int) -> None:
    # Looked at (brought to the front) only now: its list followed the other tab's writes while
    # it was behind (the page listens to storage events, not to being shown).
    page.bring_to_front()
    page.wait_for_function(
        "(n) => document.querySelectorAll('#queue-list li').length === n", arg=count
    )


def two_tabs(browser, url: str, pin: str):
    """One phone, the table's page open twice, its player identified, the Wi-Fi gone."""
    context = browser.new_context(locale="fr-FR", **PHONE)
    first, second = context.new_page(), context.new_page()
    for page in (first, second):
        page.set_default_timeout(15_000)
        page.goto(url)
    identify(first, 0, pin)
    second.reload()
    second.wait_for_selector("#who-bound", state="visible")
    context.set_offline(True)
    return context, first, second


def test_two_tabs_offline_lose_no_deal_and_store_each_once(
    browser,
    live_server,
    one_request_at_a_time,
    table_of_five,  # noqa: F811
):
    url = live_server.url + reverse("table-entry", args=[table_of_five["link"].token])
    context, first, second = two_tabs(browser, url, table_of_five["players"][0].pin)
    try:
        # Interleaved: the first tab keeps deal 1, the second deal 2, the first deal 3, the
        # second deal 4; the second tab reads stale values from the moment deal 1 is kept.
        enter(first, DEALS[0], online=False)
        second.evaluate(STALE_STORAGE)
        enter(second, DEALS[1], online=False)
        enter(first, DEALS[2], online=False)
        enter(second, DEALS[3], online=False)
        assert Deal.objects.count() == 0

        # Back online, both tabs send: each deal once, none lost.
        context.set_offline(False)
        for tab in (first, second):
            tab.wait_for_selector("#queue-status", state="hidden", timeout=30_000)
        assert [deal.number for deal in Deal.objects.order_by("number")] == [1, 2, 3, 4]
        first.wait_for_selector("#row-4")
    finally:
        context.close()


def test_each_tab_lists_the_deals_the_other_keeps(
    browser,
    live_server,
    one_request_at_a_time,
    table_of_five,  # noqa: F811
):
    url = live_server.url + reverse("table-entry", args=[table_of_five["link"].token])
    context, first, second = two_tabs(browser, url, table_of_five["players"][0].pin)
    try:
        for index, deal in enumerate(DEALS[:4]):
            enter(first if index % 2 == 0 else second, deal, online=False)
            # The other tab's list and next deal number follow, without a reload.
            for tab in (first, second):
                wait_listed(tab, index + 1)
                tab.wait_for_selector(f"#deal-number:text-is('{index + 2}')")
        assert listed_numbers(first) == ["Donne 1", "Donne 2", "Donne 3", "Donne 4"]
        assert listed_numbers(second) == listed_numbers(first)
    finally:
        context.close()


def test_a_list_form_queue_from_an_older_page_is_kept_and_sent_once(
    browser,
    live_server,
    one_request_at_a_time,
    table_of_five,  # noqa: F811
    console_errors,
):
    link = table_of_five["link"]
    url = live_server.url + reverse("table-entry", args=[link.token])
    context = browser.new_context(locale="fr-FR", **PHONE)
    try:
        page = context.new_page()
        page.set_default_timeout(15_000)
        page.goto(url)
        # The page is kept on the phone (service worker cache): it reopens without Wi-Fi.
        wait_until_cached(page)
        identify(page, 0, table_of_five["players"][0].pin)
        context.set_offline(True)
        # What the page before this change kept: one list under the table's key.
        page.evaluate(
            "([key, value]) => localStorage.setItem(key, value)",
            [f"tarot-queue-{link.token}", json.dumps(OLD_QUEUE)],
        )
        console_errors.allow("net::ERR_INTERNET_DISCONNECTED")  # the reload's own, expected
        page.reload()
        wait_listed(page, 2)
        assert listed_numbers(page) == ["Donne 1", "Donne 2"]
        # One key per deal now, the list itself gone.
        keys = page.evaluate("() => Object.keys(localStorage)")
        assert f"tarot-queue-{link.token}" not in keys
        assert sorted(key.rsplit(":", 1)[-1] for key in keys if key.startswith("tarot-deal-")) == [
            "a" * 32,
            "b" * 32,
        ]
        assert console_errors.found == []  # nothing else: the page sent nothing offline

        context.set_offline(False)
        page.wait_for_selector("#row-2", timeout=30_000)
        page.wait_for_selector("#queue-status", state="hidden")
        assert sorted(Deal.objects.values_list("client_id", flat=True)) == ["a" * 32, "b" * 32]
        assert (
            page.evaluate("() => Object.keys(localStorage).filter((k) => k.startsWith('tarot-'))")
            == []
        )
    finally:
        context.close()


# Two passed deals as the page before this change queued them (dealer 0, then 4 at five).
OLD_QUEUE = [
    {"client_id": "a" * 32, "number": 1, "version": 0, "deal": {"passed": True, "dealer": 0}},
    {"client_id": "b" * 32, "number": 2, "version": 0, "deal": {"passed": True, "dealer": 4}},
]
