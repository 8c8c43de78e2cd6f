"""What a table of older players does on its phones (issue 38), at 390×844 unless said: a phone
bound to its player confirms, contests and signs without the code typed again; a phone passed
around asks each player's code with its digits shown and the number pad; "Enregistrer" on the
first screen and the form back at its top after saving (390×844, 320×640, 32 px default font);
a passed deal named; queued deals listed with the Wi-Fi badge in view; a conflict naming its
deal; the call to the arbiter from "sent" to "the arbiter arrives", on every phone of the table
and after a reload, with no deal number left over from the contest box."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from scoring.models import Deal, ScoreSheet, SheetPlayer, TableCall
from scoring.sheets import table_entry
from tests.browser.at_table.conftest import PHONE, SCREENS, open_phone
from tests.browser.phone.test_table_entry_browser import REFRESH_MS
from tests.browser_helpers import csp_violations
from tournament.models import Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def url(live_server, table) -> str:
    return f"{live_server.url}/table/{table['link'].token}/"


def identify(page, registration) -> None:
    seat = SheetPlayer.objects.get(
        sheet__table=registration_table(registration), registration=registration
    ).seat
    page.select_option("#who-seat", str(seat))
    page.fill("#who-pin", registration.pin)
    page.click("#who-button")
    expect(page.locator("#who-bound")).to_be_visible()


def registration_table(registration):
    return (
        SheetPlayer.objects.filter(registration=registration)
        .values_list("sheet__table", flat=True)
        .get()
    )


def seat_player(table, seat: int):
    return (
        SheetPlayer.objects.select_related("registration")
        .get(sheet__table=table["table"], seat=seat)
        .registration
    )


def test_a_bound_phone_confirms_and_signs_without_typing_its_code(browser, live_server, long_names):
    four = long_names["four"]
    enterer = four["players"][0]
    # Deal 3's taker (seat 1) is across from its enterer: they confirm deals 2 and 3.
    taker = seat_player(four, 1)
    assert taker != enterer
    # A short evening: three deals a table, so the sheet is whole once they are confirmed.
    Tournament.objects.filter(pk=long_names["tournament"].pk).update(deals_per_table_4=3)
    context, page = open_phone(browser, PHONE)
    problems = csp_violations(context)
    page.goto(url(live_server, four))
    identify(page, taker)
    expect(page.locator("#confirm-as")).to_contain_text(taker.player.full_name)
    page.click("#confirm-button")  # no name chosen, no code typed
    expect(page.locator("#confirm-message")).to_contain_text("Donnes 2, 3 confirmées")
    deals = Deal.objects.filter(sheet__table=four["table"], number__in=[2, 3])
    assert {d.confirmed_by_player_id for d in deals} == {taker.pk}
    page.click("#finish-button")
    expect(page.locator("#confirm-message")).to_contain_text("Doivent encore la viser")
    sheet = ScoreSheet.objects.get(table=four["table"])
    assert table_entry.signed_seats(sheet) == {1}
    context.close()
    assert problems == []


def test_a_bound_phone_contests_without_typing_its_code(browser, live_server, long_names):
    five = long_names["five"]
    enterer = five["players"][0]
    other = next(p for p in five["players"] if p != enterer)
    context, page = open_phone(browser, PHONE)
    page.goto(url(live_server, five))
    identify(page, other)
    page.click("#contest-box summary")
    page.fill("#contest-number", "1")
    page.fill("#contest-note", "60 points, pas 50")
    page.click("#contest-button")
    expect(page.locator("#confirm-message")).to_contain_text("Donne 1 contestée")
    deal = Deal.objects.get(sheet__table=five["table"], number=1)
    assert deal.disputed and deal.disputed_by_player_id == other.pk
    context.close()


def test_a_passed_around_phone_shows_the_digits_typed_on_the_number_pad(
    browser, live_server, long_names
):
    four = long_names["four"]
    taker = seat_player(four, 1)
    context, page = open_phone(browser, PHONE)
    page.goto(url(live_server, four))
    for field in ("#who-pin", "#confirm-pin"):
        pin = page.locator(field)
        assert pin.get_attribute("type") == "text" and pin.get_attribute("inputmode") == "numeric"
    page.select_option("#confirm-seat", "1")
    page.fill("#confirm-pin", taker.pin)
    expect(page.locator("#confirm-pin")).to_have_value(taker.pin)  # shown as typed
    page.click("#confirm-button")
    expect(page.locator("#confirm-message")).to_contain_text("Donnes 2, 3 confirmées")
    expect(page.locator("#confirm-pin")).to_have_value("")  # not left for the next player
    context.close()


def tap(page, name: str, value: str) -> None:
    page.click(f"#deal-entry input[name={name}][value='{value}']")


def type_deal(page, taker_seat: int) -> None:
    tap(page, "taker", str(taker_seat))
    tap(page, "contract", "garde")
    tap(page, "oudlers", "1")
    page.fill("#points", "45")


@pytest.mark.parametrize("screen", [0, 1, 3], ids=["390x844", "320x640", "320x640-font-32"])
def test_save_is_on_the_first_screen_and_the_form_comes_back_to_its_top(
    browser, live_server, long_names, screen
):
    name, options, font_px, _root = SCREENS[screen]
    four = long_names["four"]
    context, page = open_phone(browser, options, font_px)
    page.goto(url(live_server, four))
    identify(page, four["players"][0])
    height = options["viewport"]["height"]
    save = page.locator("#save")
    box = save.bounding_box()
    assert box is not None and 0 <= box["y"] and box["y"] + box["height"] <= height, (name, box)
    type_deal(page, 0)
    page.locator("#points").scroll_into_view_if_needed()
    expect(page.locator("#preview.ok")).to_be_visible()
    save.click()  # still on screen, at its foot
    expect(page.locator("#row-4")).to_be_attached()
    expect(page.locator("#deal-number")).to_have_text("5")
    # Back at the top: the next deal's title and its takers in view, under the header.
    title = page.locator("#deal-title").bounding_box()
    assert title is not None and 0 <= title["y"] < height / 2, (name, title)
    context.close()


def test_a_passed_deal_queued_deals_and_the_wifi_badge_show(browser, live_server, long_names):
    four = long_names["four"]
    context, page = open_phone(browser, PHONE)
    page.goto(url(live_server, four))
    expect(page.locator("#row-2 .deal-words")).to_have_text("Tous passent")
    identify(page, four["players"][0])
    context.set_offline(True)
    type_deal(page, 0)
    page.click("#save")
    expect(page.locator("#deal-number")).to_have_text("5")
    tap(page, "taker", "passed")
    page.click("#save")
    expect(page.locator("#queue-status")).to_contain_text("2 donnes en attente")
    name = SheetPlayer.objects.select_related("registration__player").get(
        sheet__table=four["table"], seat=0).registration.player.full_name  # fmt: skip
    expect(page.locator("#queue-list li")).to_have_text(
        [f"Donne 4 · Garde · {name} · 1 bout, 45 points", "Donne 5 · Tous passent"]
    )
    # At the foot of the page, the badge still says the Wi-Fi is gone.
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    badge = page.locator("#net-status")
    expect(badge).to_have_text("Hors ligne")
    box = badge.bounding_box()
    assert box is not None and 0 <= box["y"] < 844
    context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    expect(page.locator("#row-5")).to_be_attached(timeout=20_000)
    expect(page.locator("#queue-box")).to_be_hidden()
    context.close()


def test_a_conflict_says_which_deal(browser, live_server, long_names):
    four = long_names["four"]
    enterer = four["players"][0]
    context, page = open_phone(browser, PHONE)
    page.goto(url(live_server, four))
    identify(page, enterer)
    context.set_offline(True)
    type_deal(page, 0)
    page.click("#save")
    expect(page.locator("#queue-status")).to_contain_text("1 donne en attente")
    # Meanwhile deal 4 reaches the sheet from another phone of the table.
    sheet = ScoreSheet.objects.get(table=four["table"])
    table_entry.phone_deal_record(
        link=four["link"], client_id="other-phone-0004", enterer=seat_player(four, 2),
        data={"players": 4, "taker": 2, "contract": "prise", "oudlers": 2, "points": 41,
              "dealer": 0}, version=sheet.version, number=4,
    )  # fmt: skip
    context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    text = page.locator("#conflict-text")
    expect(text).to_be_visible(timeout=20_000)
    expect(text).to_contain_text("Donne 4 (Garde ·")
    context.close()


def test_the_call_says_sent_then_coming_on_every_phone_even_after_a_reload(
    browser, live_server, one_request_at_a_time, long_names, arbiter
):
    four = long_names["four"]
    first_context, first = open_phone(browser, PHONE)
    other_context, other = open_phone(browser, PHONE)
    # The phones refresh their sheet (and its call) every 5 s of Playwright's clock, which the
    # test moves where it awaits a refresh instead of waiting for it in real time.
    for page in (first, other):
        page.clock.install()
    first.goto(url(live_server, four))
    other.goto(url(live_server, four))
    first.click("#contest-box summary")
    first.fill("#contest-number", "2")  # left over from a contest not sent
    first.click("#call-button")
    banner = first.locator("#call-banner")
    expect(banner).to_have_text("Appel envoyé, l'arbitre va venir.")
    call = TableCall.objects.get(table=four["table"])
    assert call.deal_number is None
    other.clock.run_for(REFRESH_MS)
    expect(other.locator("#call-banner")).to_have_text(
        "Appel envoyé, l'arbitre va venir.", timeout=20_000
    )
    first.reload()
    expect(first.locator("#call-banner")).to_have_text("Appel envoyé, l'arbitre va venir.")
    table_entry.call_take(call=call, user=arbiter)  # "J'y vais" on the desk
    for page in (first, other):
        page.clock.run_for(REFRESH_MS)
        expect(page.locator("#call-banner")).to_have_text("L'arbitre arrive.", timeout=20_000)
    first_context.close()
    other_context.close()
