"""The small things an arbiter tripped on: the phone's deal row names the contract and the
taker, the desk's bilans carry their sign, the taker hint at 5 mentions the 5 key, and names at
390 px wrap between words, never inside one."""

import pytest
from django.test import Client
from django.urls import reverse

from scoring.models import ScoreSheet
from scoring.sheets.services import deal_record, sheet_for_table
from scoring.sheets.table_entry import links_for_position
from tests.desk_helpers import DEALS_004, NAMES_004, deal_post, make_tournament, table_sheet
from tournament.models import Player, Registration, Tournament

DEAL = {"players": 4, "taker": 1, "contract": "garde", "oudlers": 2, "points": 45}


@pytest.mark.django_db
def test_the_phone_row_names_the_contract_and_the_taker():
    tournament, position = make_tournament(names=NAMES_004, entry_mode="phones")
    table = position.tables.get()
    deal_record(sheet=sheet_for_table(table=table), data=DEAL)
    link = links_for_position(position)[0]
    html = Client().get(reverse("table-entry", args=[link.token])).content.decode()
    east = table.seats.get(direction="E").registration.player.full_name
    words = html[html.index('class="deal-words"') :].split("</small>")[0]
    assert f"Garde · {east} · 2 bouts · 45 points" in words


@pytest.mark.django_db
def test_the_desk_bilans_carry_their_sign(arbiter_client):
    _tournament, position = make_tournament(names=NAMES_004)
    sheet = table_sheet(arbiter_client, position)
    for fields in DEALS_004:
        deal_post(arbiter_client, sheet, fields)
    html = arbiter_client.get(reverse("sheet-detail", args=[sheet.pk])).content.decode()
    row = html[html.index('id="bilans"') : html.index("</tr>", html.index('id="bilans"'))]
    assert ">+1346<" in row and ">-446<" in row


@pytest.mark.django_db
def test_the_taker_hint_at_a_table_of_five_mentions_the_5_key(arbiter_client):
    _tournament, position = make_tournament(size=5, game="five")
    sheet = table_sheet(arbiter_client, position)
    html = arbiter_client.get(reverse("sheet-detail", args=[sheet.pk])).content.decode()
    assert "N, S, E, O, 5 ; T = tous passent" in html
    _tournament, position = make_tournament(name="À 4")
    sheet = table_sheet(arbiter_client, position)
    html = arbiter_client.get(reverse("sheet-detail", args=[sheet.pk])).content.decode()
    assert "N, S, E, O ; T = tous passent" in html


# Whether the word is drawn on one line: one client rect for its characters.
ONE_LINE = """word => {
    const cell = [...document.querySelectorAll('td.name, .me-name')]
        .find(c => c.textContent.includes(word));
    const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    let node;
    while ((node = walker.nextNode())) {
        const at = node.textContent.indexOf(word);
        if (at < 0) continue;
        const range = document.createRange();
        range.setStart(node, at);
        range.setEnd(node, at + word.length);
        return new Set([...range.getClientRects()].map(r => Math.round(r.top))).size === 1;
    }
    return null;
}"""


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_names_never_break_inside_a_word_at_390_px(phone_page, live_server):
    tournament, position = make_tournament(tables=2, is_public=True)
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.RUNNING)
    garcon = Registration.objects.get(tournament=tournament, number=1)
    Player.objects.filter(pk=garcon.player_id).update(
        last_name="GARÇON",
        first_name="Loïc-Emmanuel",
        club="Tarot Club de Saint-Rémy-lès-Chevreuse",
    )
    for number in (1, 2):
        sheet = sheet_for_table(table=position.tables.get(number=number))
        deal_record(sheet=ScoreSheet.objects.get(pk=sheet.pk), data=DEAL)
    page = phone_page
    page.goto(f"{live_server.url}/public/{tournament.pk}/")
    assert page.evaluate(ONE_LINE, "GARÇON") is True
    assert page.evaluate("document.documentElement.scrollWidth <= 390")
    page.goto(f"{live_server.url}/public/{tournament.pk}/joueur/{garcon.pk}/")
    assert page.evaluate(ONE_LINE, "GARÇON") is True


# On a phone each score stacks beside its player's name (the sheet's headings are a wide
# screen's): those names.
HEADING_ON_ONE_LINE = ONE_LINE.replace("td.name, .me-name", ".phone-sheet .who-cell")
FIVE = {"N": "GARÇON", "S": "BÉNARD", "E": "LEFEBVRE", "W": "MARTINEZ", "X": "ROUSSEAU"}


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_phone_sheet_headings_break_between_words_at_390_px(phone_page, live_server):
    tournament, position = make_tournament(size=5, game="five", names=FIVE, entry_mode="phones")
    Player.objects.filter(registrations__tournament=tournament).update(first_name="Loïc")
    table = position.tables.get()
    deal_record(
        sheet=sheet_for_table(table=table),
        data={**DEAL, "players": 5, "taker": 0, "partner": 1},
    )
    link = links_for_position(position)[0]
    page = phone_page
    page.goto(f"{live_server.url}/table/{link.token}/")
    page.locator("#table-sheet").wait_for()
    for name in FIVE.values():
        # "GARÇON Loïc" may wrap after GARÇON, never inside it.
        assert page.evaluate(HEADING_ON_ONE_LINE, name) is True, name
    assert page.evaluate("document.documentElement.scrollWidth <= 390")
