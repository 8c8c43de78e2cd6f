"""Players enter their table's deals on phones (390×844 Chromium), an opponent confirms them.

Two phone contexts on one table of five: one player enters a full 5-deal sheet (a called
partner, a king in the dog, a passed deal, a petit au bout), the other confirms with their code;
the desk shows the table complete; the public standings count it only after confirmation. And
offline: three deals typed without Wi-Fi, a reload, Wi-Fi back: stored exactly once.
"""

import json
import re

import pytest
from django.test import Client
from django.urls import reverse
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from scoring.live.standings import standings_for
from scoring.models import Deal, ScoreSheet
from scoring.sheets.table_entry import links_for_position
from tests.conftest import browser_login
from tournament.models import Player, Position, Registration, Seat, Table, Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = ["ARNAUD", "BERGER", "CARON", "DUVAL", "EVRARD"]
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
# The table page refreshes its sheet every 5 s (static/js/table_entry.js), the cockpit at
# settings.LIVE_POLL_SECONDS (5): a test on Playwright's clock moves it by that much.
REFRESH_MS = 5000

# (taker, contract, partner, oudlers, points, side, petit au bout); seat 0 enters every deal and
# seat 3 is always on the other side, so that seat 3 alone confirms them all.
DEALS = [
    ("ARNAUD", "garde", "CARON", "2", "50", "attack", "attack"),
    ("DUVAL", "prise", "dog", "1", "55", "attack", ""),
    None,  # tous passent
    ("DUVAL", "garde_sans", "EVRARD", "3", "40", "defense", ""),
    ("BERGER", "prise", "ARNAUD", "1", "49", "attack", ""),
]


@pytest.fixture
def table_of_five(arbiter):
    tournament = Tournament.objects.create(
        name="Open des téléphones",
        date="2026-11-21",
        is_public=True,
        entry_mode=Tournament.EntryMode.PHONES,
        status=Tournament.Status.RUNNING,
    )
    position = Position.objects.create(tournament=tournament, number=1, status="published")
    table = Table.objects.create(position=position, number=1, game=Table.Game.FIVE)
    registrations = []
    for index, name in enumerate(NAMES):
        registration = Registration.objects.create(
            tournament=tournament,
            player=Player.objects.create(last_name=name, first_name="Test"),
            number=index + 1,
        )
        Seat.objects.create(table=table, registration=registration, direction="NESWX"[index])
        registrations.append(registration)
    link = links_for_position(position)[0]
    return {"tournament": tournament, "table": table, "link": link, "players": registrations}


# The page is in the service worker's cache: the page watches for it and says so (Playwright's
# wait_for_function does not await a promise).
_WATCH_PAGE_CACHED = """() => {
  const cached = () => caches.open("tarot-table-v1").then((c) => c.match(location.href));
  (async () => {
    while (!(await cached())) await new Promise((resolve) => setTimeout(resolve, 50));
    window.pageCached = true;
  })();
}"""


def wait_until_cached(page) -> None:
    """Until the page's own copy is in the cache (a state), however long a loaded machine takes."""
    page.evaluate(_WATCH_PAGE_CACHED)
    page.wait_for_function("() => window.pageCached === true")


def phone(browser):
    context = browser.new_context(locale="fr-FR", **PHONE)
    page = context.new_page()
    page.set_default_timeout(15_000)
    return context, page


def tap(page, name: str, value: str, scope: str = "#deal-entry") -> None:
    # The radio covers its label's button (what a finger taps).
    page.click(f"{scope} input[name={name}][value='{value}']")


def identify(page, seat: int, pin: str) -> None:
    """The player says who they are once, with their personal code: this phone then enters
    the table's deals in their name."""
    page.bring_to_front()  # the tab the player looks at (see enter)
    page.select_option("#who-seat", str(seat))
    page.fill("#who-pin", pin)
    page.click("#who-button")
    page.wait_for_selector("#who-bound", state="visible")


def seat_of(name: str) -> str:
    return str(NAMES.index(name))


def enter(page, deal, *, online: bool = True) -> None:
    """Tap a deal in and save it; online, the computed row shows first (offline there is none).
    The tab is brought to the front first, as a player looks at the tab they type in: Chromium
    paints a tab behind another about once a second, and each tap waits for a painted frame."""
    page.bring_to_front()
    if deal is None:
        tap(page, "taker", "passed")
    else:
        taker, contract, partner, oudlers, points, side, petit = deal
        tap(page, "taker", seat_of(taker))
        tap(page, "contract", contract)
        tap(page, "partner", partner if partner in ("alone", "dog") else seat_of(partner))
        tap(page, "oudlers", oudlers)
        tap(page, "side", side)
        page.fill("#points", points)
        if petit:
            page.click("#bonuses summary")
            tap(page, "petit_au_bout", petit)
        if online:
            page.wait_for_selector("#preview.ok")  # the computed row shows before saving
    if online:
        page.click("#save")
        return
    # Offline there is no computed row: the deal is kept when the next deal's number moves on
    # (it counts the deals waiting on the phone); a refusal says why in #entry-error.
    before = page.text_content("#deal-number")
    page.click("#save")
    try:
        page.wait_for_function(
            "(n) => document.querySelector('#deal-number').textContent !== n", arg=before
        )
    except PlaywrightTimeout as timeout:
        refused = page.text_content("#entry-error")
        raise AssertionError(f"deal not kept on the phone: {refused!r}") from timeout


def public_total(tournament) -> int:
    standings = standings_for(Tournament.objects.get(pk=tournament.pk), public=True)
    return sum(abs(ranked.row.total) for ranked in standings.players)


def test_a_table_enters_its_sheet_and_an_opponent_confirms_it(
    browser, live_server, one_request_at_a_time, table_of_five, page
):
    url = live_server.url + reverse("table-entry", args=[table_of_five["link"].token])
    entering_context, entering = phone(browser)
    confirming_context, confirming = phone(browser)
    try:
        entering.goto(url)
        # A seat alone proves nothing: without a code the deal is not sent.
        enter(entering, DEALS[0])
        entering.wait_for_selector("#entry-error:has-text('Identifiez-vous')")
        assert Deal.objects.count() == 0
        entering.reload()
        identify(entering, 0, table_of_five["players"][0].pin)
        for number, deal in enumerate(DEALS, start=1):
            enter(entering, deal)
            entering.wait_for_selector(f"#row-{number}")
        sheet = ScoreSheet.objects.get(table=table_of_five["table"])
        deals = list(sheet.deals.order_by("number"))
        assert [d.number for d in deals] == [1, 2, 3, 4, 5]
        assert all(d.pending and d.entered_by_player.player.last_name == "ARNAUD" for d in deals)
        assert deals[0].partner == 2 and deals[0].petit_au_bout == "attack"
        assert deals[1].partner is None and deals[4].partner == 0 and deals[2].passed
        assert all(sum(d.scores) == 0 for d in deals)
        assert public_total(table_of_five["tournament"]) == 0  # nothing counts yet
        assert "à confirmer" in entering.inner_text("#row-1")

        # The desk sees the table waiting for confirmation.
        browser_login(page, live_server, "arbitre-test", "pw-arbitre-1")
        tournament = table_of_five["tournament"]
        page.clock.install()  # its refresh runs when the test moves the clock (see below)
        page.goto(live_server.url + reverse("entry-overview", args=[tournament.pk, 1]))
        assert "À confirmer" in page.inner_text("#table-1")

        # A wrong code is refused; the right one confirms all five deals.
        confirming.goto(url)
        confirming.select_option("#confirm-seat", "3")
        right = table_of_five["players"][3].pin
        confirming.fill("#confirm-pin", "000000" if right != "000000" else "111111")
        confirming.click("#confirm-button")
        confirming.wait_for_selector("#confirm-message:has-text('Code personnel erroné')")
        assert sheet.deals.filter(pending=True).count() == 5
        confirming.select_option("#confirm-seat", "3")
        confirming.fill("#confirm-pin", right)
        confirming.click("#confirm-button")
        confirming.wait_for_selector("#confirm-message:has-text('Donnes 1, 2, 3, 4, 5 confirmées')")
        assert sheet.deals.filter(pending=True).count() == 0
        assert {d.confirmed_by_player.player.last_name for d in sheet.deals.all()} == {"DUVAL"}
        total = public_total(tournament)
        assert total > 0
        public = confirming.context.new_page()
        public.goto(live_server.url + reverse("public-tournament", args=[tournament.pk]))
        best = max(sheet.deals.values_list("scores", flat=True), key=lambda s: max(s))
        assert str(max(best)) in public.inner_text("body") or total > 0
        confirming.bring_to_front()  # back to the confirming tab (see enter)

        # Each player vouches for the sheet: ARNAUD from his bound phone, the others with their
        # codes on one phone; the last one finishes it, and the desk shows it complete without a
        # reload.
        entering.click("#finish-button")
        entering.wait_for_selector("#confirm-message:has-text('Doivent encore la viser')")
        assert ScoreSheet.objects.get(pk=sheet.pk).status == ScoreSheet.Status.IN_PROGRESS
        for seat in range(1, 5):
            confirming.select_option("#confirm-seat", str(seat))
            confirming.fill("#confirm-pin", table_of_five["players"][seat].pin)
            confirming.click("#finish-button")
            confirming.wait_for_selector(f"#signers [data-seat='{seat}']:has-text('a visé')")
        confirming.wait_for_selector("#confirm-message:has-text('Feuille terminée')")
        # Finished: confirming and signing are gone from the page, which says what follows.
        confirming.wait_for_selector("#sheet-done:has-text('Feuille terminée')")
        assert confirming.locator("#confirm-section").is_hidden()
        page.clock.run_for(REFRESH_MS)  # the overview's next refresh (every 5 s)
        page.wait_for_function(
            "() => document.querySelector('#table-1') && "
            "document.querySelector('#table-1').innerText.includes('Complète')",
            timeout=15_000,
        )
        assert ScoreSheet.objects.get(pk=sheet.pk).status == ScoreSheet.Status.COMPLETE
    finally:
        entering_context.close()
        confirming_context.close()


def test_deals_typed_offline_are_stored_exactly_once(
    browser, live_server, one_request_at_a_time, table_of_five, console_errors
):
    url = live_server.url + reverse("table-entry", args=[table_of_five["link"].token])
    context, page = phone(browser)
    try:
        page.goto(url)
        # The page is kept on the phone (service worker cache) before the Wi-Fi drops.
        page.wait_for_function(
            "() => navigator.serviceWorker && navigator.serviceWorker.controller !== undefined"
        )
        wait_until_cached(page)
        identify(page, 0, table_of_five["players"][0].pin)
        context.set_offline(True)
        for kept, deal in enumerate(DEALS[:3], start=1):
            enter(page, deal, online=False)
            assert page.inner_text("#entry-error") == ""  # kept, not refused
            page.wait_for_selector(f"#queue-status:has-text('{kept} donne')")
        page.wait_for_selector("#queue-status:has-text('3 donnes en attente')")
        assert Deal.objects.count() == 0
        console_errors.allow("net::ERR_INTERNET_DISCONNECTED")
        page.reload()
        page.wait_for_selector("#queue-status:has-text('3 donnes en attente')")
        # The page itself sent nothing offline, so it logged nothing (the reload's own network
        # error, the service worker trying the network first, is allowed above).
        assert console_errors.found == []
        context.set_offline(False)
        page.wait_for_selector("#row-3", timeout=20_000)
        page.wait_for_selector("#queue-status", state="hidden")
        deals = list(Deal.objects.order_by("number"))
        assert [d.number for d in deals] == [1, 2, 3]
        assert len({d.client_id for d in deals}) == 3

        # Replaying the same requests by hand changes nothing: the server answers the original.
        client = Client()
        for deal in deals:
            body = {
                "client_id": deal.client_id,
                "version": 0,
                "entered_by": 0,
                "deal": {"passed": True, "dealer": 0},
            }
            response = client.post(
                reverse("table-deal-create", args=[table_of_five["link"].token]),
                json.dumps(body),
                content_type="application/json",
            )
            assert response.status_code == 200
            assert response.json()["replayed"] is True
            assert response.json()["number"] == deal.number
        assert Deal.objects.count() == 3
    finally:
        context.close()


def test_the_phone_page_fits_a_phone(browser, live_server, one_request_at_a_time, table_of_five):
    context, page = phone(browser)
    try:
        page.goto(live_server.url + reverse("table-entry", args=[table_of_five["link"].token]))
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 390
        assert re.search(r"Donne\s+1", page.inner_text("#deal-title"))
    finally:
        context.close()


def test_a_contested_deal_is_corrected_by_its_enterer_and_confirmed_by_the_other_side(
    browser, live_server, one_request_at_a_time, table_of_five, page
):
    """Two phones at one table: ARNAUD enters a deal, DUVAL (the other side) contests it with a
    word, ARNAUD corrects it, DUVAL confirms; DUVAL calls the arbiter, whose open cockpit shows
    the call within its refresh."""
    tournament = table_of_five["tournament"]
    players = table_of_five["players"]
    url = live_server.url + reverse("table-entry", args=[table_of_five["link"].token])
    browser_login(page, live_server, "arbitre-test", "pw-arbitre-1")
    # Every page's refreshes (the phones' sheet, the cockpit's) run on Playwright's clock: the
    # test moves it by a refresh period where it awaits one, instead of waiting in real time.
    page.clock.install()
    page.goto(live_server.url + reverse("tournament-detail", args=[tournament.pk]))
    entering_context, entering = phone(browser)
    other_context, other = phone(browser)
    entering.clock.install()
    other.clock.install()
    refreshes: list[int] = []
    other.on(
        "response",
        lambda response: response.url.endswith("/feuille/") and refreshes.append(response.status),
    )
    try:
        entering.goto(url)
        identify(entering, 0, players[0].pin)
        enter(entering, ("ARNAUD", "garde", "CARON", "2", "50", "attack", ""))
        entering.wait_for_selector("#row-1")

        other.goto(url)
        other.select_option("#confirm-seat", "3")
        other.fill("#confirm-pin", players[3].pin)
        other.click("#contest-box summary")
        other.fill("#contest-number", "1")
        other.fill("#contest-note", "L'attaque avait 45")
        other.click("#contest-button")
        other.wait_for_selector("#confirm-message:has-text('Donne 1 contestée')")
        deal = Deal.objects.get()
        assert deal.pending and deal.disputed and deal.dispute_note == "L'attaque avait 45"
        assert public_total(tournament) == 0

        # The enterer's phone shows it contested, with the word, and corrects it.
        entering.clock.run_for(REFRESH_MS)
        entering.wait_for_selector("#row-1.disputed", timeout=15_000)
        assert "L'attaque avait 45" in entering.inner_text("#row-1")
        entering.click("#row-1 .fix-deal")
        assert entering.input_value("#points") == "50"
        entering.fill("#points", "45")
        entering.wait_for_selector("#preview.ok")
        entering.click("#save")
        entering.wait_for_selector("#entry-error:has-text('corrigée')")
        deal.refresh_from_db()
        assert deal.pending and not deal.disputed and float(deal.points) == 45
        assert public_total(tournament) == 0

        # The other side sees the corrected deal (its sheet refreshes by itself), then confirms
        # it: a confirmation is for the sheet the phone shows.
        other.clock.run_for(REFRESH_MS)
        other.wait_for_selector("#row-1.pending:not(.disputed)", timeout=15_000)
        other.select_option("#confirm-seat", "3")
        other.fill("#confirm-pin", players[3].pin)
        other.click("#confirm-button")
        other.wait_for_selector("#confirm-message:has-text('Donne 1 confirmée')")
        deal.refresh_from_db()
        assert not deal.pending and deal.confirmed_by_player == players[3]
        assert public_total(tournament) > 0

        # A call for the arbiter reaches the open cockpit by itself.
        other.click("#call-button")
        other.wait_for_selector("#call-banner:has-text('Appel envoyé, l\\'arbitre va venir')")
        page.clock.run_for(REFRESH_MS)
        page.wait_for_selector("#cockpit-alerts:has-text('Table 1 appelle')", timeout=20_000)
        # Meanwhile the sheet did not change: its refreshes were bodiless 304s, and each change
        # above came as a new sheet (200).
        if 304 not in refreshes:  # the next refresh (every 5 s) of an unchanged sheet
            other.clock.run_for(REFRESH_MS)
            other.wait_for_event(
                "response",
                lambda response: response.url.endswith("/feuille/") and response.status == 304,
            )
        assert 200 in refreshes and 304 in refreshes, refreshes
        assert "L'attaque avait 45" not in other.inner_text("#row-1")
        page.click("#cockpit-alerts button:has-text('J\\'y vais')")
        page.wait_for_selector("#cockpit-alerts", state="detached")
        other.clock.run_for(REFRESH_MS)
        other.wait_for_selector("#call-banner:has-text('L\\'arbitre arrive')", timeout=20_000)
    finally:
        entering_context.close()
        other_context.close()
