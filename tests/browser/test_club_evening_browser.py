"""A club evening rehearsed in Chromium on the club's LAN (http://club.lan:<port>, plain http,
PUBLIC_URL set to it as `make club` does).

The arbiter publishes position 1 and prints the blank sheets: each sheet's QR code, read back
from the PDF with zbar, leads to its table's page on the LAN address. Four phones at two tables
enter and confirm the deals (one phone loses the Wi-Fi, reloads into the browser's error page,
comes back); the desk validates both sheets; the hall screen shows the standings; a player
finds their rank on their phone.
"""

import base64
import re

import pytest
from django.urls import reverse

from scoring.live.standings import standings_for
from scoring.models import Deal, ScoreSheet
from tests.browser.phone.test_table_entry_lan_browser import BANNER
from tests.browser_helpers import csp_violations
from tests.scoring.documents.printing.qr_reading import qr_codes
from tournament.models import Player, Position, Registration, Table, Tournament

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
NAMES = ["AUBERT", "BLANC", "CHEVALIER", "DENIS", "ETIENNE", "FAURE", "GIRARD", "HUBERT"]
# (contract, bouts, points of the attack): seat 0 takes every deal, so that seat 1 (a defender)
# confirms them all; table 1's taker ends first.
DEALS = {
    1: [("garde", "2", "50"), ("prise", "2", "45")],
    2: [("prise", "1", "55"), ("prise", "2", "45")],
}


FETCH_PDF = """async (url) => {
  const response = await fetch(url, {credentials: "same-origin"});
  if (response.headers.get("content-type") !== "application/pdf") return "";
  const bytes = new Uint8Array(await response.arrayBuffer());
  let text = "";
  for (const byte of bytes) text += String.fromCharCode(byte);
  return btoa(text);
}"""


def fetch_pdf(page, url: str) -> bytes:
    """The PDF as the arbiter's browser gets it (Playwright's own requests run outside the
    browser, where club.lan resolves nowhere)."""
    data = base64.b64decode(page.evaluate(FETCH_PDF, url))
    assert data[:5] == b"%PDF-"
    return data


def phone(browser, watched: list[list[str]]):
    """A phone of its own (cookies, storage); what the CSP blocks on it goes to `watched`."""
    context = browser.new_context(locale="fr-FR", **PHONE)
    watched.append(csp_violations(context))
    page = context.new_page()
    page.set_default_timeout(15_000)
    return context, page


def tap(page, name: str, value: str) -> None:
    page.click(f"#deal-entry input[name={name}][value='{value}']")


def enter(page, deal, *, online: bool = True) -> None:
    contract, oudlers, points = deal
    tap(page, "taker", "0")
    tap(page, "contract", contract)
    tap(page, "oudlers", oudlers)
    tap(page, "side", "attack")
    page.fill("#points", points)
    if online:
        page.wait_for_selector("#preview.ok")
    page.click("#save")
    if not online:
        page.wait_for_function("() => document.querySelector('#preview').textContent === ''")


@pytest.fixture
def club_tournament(arbiter):
    """Eight players, present, deals typed on phones, standings public; nothing drawn yet."""
    tournament = Tournament.objects.create(
        name="Soirée du club",
        date="2026-11-27",
        is_public=True,
        entry_mode=Tournament.EntryMode.PHONES,
        positions_count=1,
        deals_per_table_4=2,
    )
    for number, name in enumerate(NAMES, start=1):
        Registration.objects.create(
            tournament=tournament,
            player=Player.objects.create(last_name=name, first_name="Test"),
            number=number,
        )
    return tournament


def test_a_club_evening_on_the_lan(
    lan_browser, lan_server, one_request_at_a_time, club_tournament, tmp_path
):
    tournament = club_tournament
    lan = lan_server
    desk_context = lan_browser.new_context(locale="fr-FR", viewport={"width": 1366, "height": 768})
    watched = [csp_violations(desk_context)]
    desk = desk_context.new_page()
    desk.set_default_timeout(15_000)
    contexts = [desk_context]
    try:
        # --- the arbiter, on the laptop, at the LAN address: position 1 drawn and published --
        desk.goto(f"{lan}/connexion/")
        desk.fill("input[name=username]", "arbitre-test")
        desk.fill("input[name=password]", "pw-arbitre-1")
        desk.click("button[type=submit]")  # a plain-http LAN: the CSRF check passes
        desk.wait_for_load_state()
        desk.goto(f"{lan}/tournois/{tournament.pk}/")
        assert f"{lan}/table/" in desk.inner_text("#phone-address")
        assert desk.locator("#phones-unreachable").count() == 0
        desk.click("nav.tabs >> text=Positions")
        desk.fill("#id_seed", "2026")
        desk.click("section.generate button[type=submit]")
        desk.locator("table.positions tbody tr").first.locator("button:has-text('Publier')").click()
        desk.wait_for_selector(".messages >> text=Position 1 publiée.")
        position = Position.objects.get(tournament=tournament, number=1)
        tables = list(Table.objects.filter(position=position).order_by("number"))
        assert len(tables) == 2

        # --- the blank sheets: each QR code leads to its table's page on the LAN -------------
        desk.click("nav.tabs >> text=Impressions")
        href = (
            desk.locator("table.print-positions tbody tr")
            .first.locator("a:has-text('feuilles de marque vierges')")
            .get_attribute("href")
        )
        pages = qr_codes(fetch_pdf(desk, lan + href), tmp_path, dpi=110)
        expected = [lan + reverse("table-entry", args=[table.link.token]) for table in tables]
        assert pages == [[url] for url in expected]  # one code per sheet, its table's page
        codes = expected

        # --- four phones at two tables: seat 0 enters, seat 1 (the other side) confirms ------
        seats = {
            table.number: sorted(table.seats.select_related("registration"), key=lambda s: s.index)
            for table in tables
        }
        enterers, confirmers = {}, {}
        for table, url in zip(tables, codes, strict=True):
            context, page = phone(lan_browser, watched)
            contexts.append(context)
            page.goto(url)
            page.select_option("#who-seat", "0")
            page.fill("#who-pin", seats[table.number][0].registration.pin)
            page.click("#who-button")
            page.wait_for_selector("#who-bound", state="visible")
            enter(page, DEALS[table.number][0])
            page.wait_for_selector("#row-1")
            enterers[table.number] = (context, page)
        # Table 1's second deal online; table 2's phone loses the Wi-Fi first.
        enter(enterers[1][1], DEALS[1][1])
        enterers[1][1].wait_for_selector("#row-2")
        context, page = enterers[2]
        context.set_offline(True)
        page.wait_for_selector(f"#offline-banner:has-text('{BANNER}')")
        enter(page, DEALS[2][1], online=False)
        page.wait_for_selector("#queue-status:has-text('1 donne en attente')")
        with pytest.raises(Exception, match="ERR_INTERNET_DISCONNECTED"):
            page.reload()
        context.set_offline(False)
        page.goto(codes[1])
        page.wait_for_selector("#row-2", timeout=20_000)
        assert Deal.objects.filter(sheet__table=tables[1]).count() == 2

        for table, url in zip(tables, codes, strict=True):
            context, page = phone(lan_browser, watched)
            contexts.append(context)
            page.goto(url)
            pin = seats[table.number][1].registration.pin
            page.select_option("#confirm-seat", "1")
            page.fill("#confirm-pin", pin)
            page.click("#confirm-button")
            page.wait_for_selector("#confirm-message:has-text('Donnes 1, 2 confirmées')")
            # Each player vouches for the sheet with their code: the last one finishes it.
            for index, seat in enumerate(seats[table.number]):
                page.select_option("#confirm-seat", str(index))
                page.fill("#confirm-pin", seat.registration.pin)
                page.click("#finish-button")
                page.wait_for_selector(f"#signers [data-seat='{index}']:has-text('a visé')")
            page.wait_for_selector("#confirm-message:has-text('Feuille terminée')")
            confirmers[table.number] = page
        assert not Deal.objects.filter(pending=True).exists()
        assert Deal.objects.count() == 4

        # --- the desk validates both sheets ---------------------------------------------------
        for sheet in ScoreSheet.objects.filter(table__position=position):
            desk.goto(f"{lan}/feuilles/{sheet.pk}/")
            desk.click("#validate-form button[type=submit]")
            desk.wait_for_selector("#sheet-validated")
        assert ScoreSheet.objects.filter(status=ScoreSheet.Status.VALIDATED).count() == 2

        # --- the hall screen, opened from the cockpit's link, shows the standings -------------
        desk.goto(f"{lan}/tournois/{tournament.pk}/")
        desk.click("#hall-create button[type=submit]")
        hall_url = desk.locator("input.hall-url").input_value()
        assert hall_url.startswith(f"{lan}/salle/")
        standings = standings_for(Tournament.objects.get(pk=tournament.pk), public=True)
        leader = standings.players[0].row.name
        hall = desk_context.new_page()
        # Its slides turn on Playwright's clock, 3 s each, moved by the test (never waited for):
        # 12 slides are more than a cycle.
        hall.clock.install()
        hall.goto(hall_url + "?duree=3")
        hall.wait_for_function("() => document.body.dataset.kind !== undefined")
        for _slide in range(12):
            if hall.evaluate("() => document.body.dataset.kind") == "standings":
                break
            hall.clock.run_for(3000)
        hall.wait_for_function("() => document.body.dataset.kind === 'standings'")
        assert leader in hall.inner_text("section[data-kind=standings]")

        # --- a player checks their rank on their phone ----------------------------------------
        player = seats[2][2].registration
        ranked = next(r for r in standings.players if r.row.name == player.player.full_name)
        context, page = phone(lan_browser, watched)
        contexts.append(context)
        page.goto(f"{lan}/public/{tournament.pk}/moi/")
        page.tap("#who")
        page.keyboard.type(player.player.last_name.lower())
        page.get_by_role("link", name=re.compile(player.player.last_name)).first.tap()
        page.wait_for_url("**/joueur/*/")
        assert page.locator("#me-rank").inner_text().rstrip("=") == str(ranked.rank)
        assert page.locator("#me-total").inner_text() == str(ranked.row.total)
        assert [v for found in watched for v in found] == []  # nothing the CSP blocked
    finally:
        for context in contexts:
            context.close()
