"""The sheet's detail shows every bonus, so that a figure can be checked against the paper."""

import re

import pytest
from django.urls import reverse

from scoring.sheets.services import sheet_for_table
from tests.desk_helpers import deal_post, make_tournament
from tests.scoring.documents.printing.print_helpers import fetch_pdf

pytestmark = pytest.mark.django_db


def detail_cell(html: str, number: int) -> str:
    row = html[html.index(f'id="deal-{number}"') :]
    row = row[: row.index("</tr>")]
    return re.search(r'<td class="detail">(.*?)</td>', row, re.S).group(1)


def test_a_poignee_and_a_petit_au_bout_show_in_the_detail_on_screen(arbiter_client, sheet_004):
    html = arbiter_client.get(reverse("sheet-detail", args=[sheet_004.pk])).content.decode()
    # Deal 1: Est takes a garde, shows a simple poignée and takes the petit au bout.
    first = detail_cell(html, 1)
    assert "E" in first and "2 bouts" in first and "49 points" in first
    assert "poignée simple E" in first and "petit au bout : attaque" in first
    # Deal 2: the defence took the petit au bout; deal 4: the defence's (Est's) poignée.
    assert "petit au bout : défense" in detail_cell(html, 2)
    assert "poignée simple E" in detail_cell(html, 4) and "petit" not in detail_cell(html, 4)
    # Deal 5: the chelem announced and made.
    assert "chelem annoncé réussi" in detail_cell(html, 5)


def test_the_same_bonuses_print_on_the_completed_sheet(arbiter_client, sheet_004):
    _reader, pages = fetch_pdf(arbiter_client, reverse("print-sheet", args=[sheet_004.pk]))
    text = " ".join(pages[0].split())
    assert "Poignées" in text and "Petit au bout" in text and "Chelem" in text
    # Donne, contract, taker, bouts, points, poignée, petit au bout, then the figures.
    assert re.search(r"Donne 1 Garde E 2 49 simple E attaque 106\b", text)
    assert re.search(r"Donne 2 G\. Sans O 1 55 défense 76\b", text)
    assert re.search(r"Donne 5 Garde S 2 87 simple S attaque annoncé réussi 582\b", text)


def test_at_five_the_detail_names_the_partner_or_says_the_taker_was_alone(arbiter_client):
    _tournament, position = make_tournament(size=5, game="five")
    sheet = sheet_for_table(table=position.tables.get())
    deal_post(
        arbiter_client,
        sheet,
        {"taker": "N", "contract": "G", "partner": "S", "oudlers": "2", "points": "50"},
    )
    deal_post(
        arbiter_client,
        sheet,
        {"taker": "E", "contract": "P", "partner": "C", "oudlers": "1", "points": "40",
         "poignees": "E2"},
    )  # fmt: skip
    html = arbiter_client.get(reverse("sheet-detail", args=[sheet.pk])).content.decode()
    assert detail_cell(html, 1).startswith("N + S")
    second = detail_cell(html, 2)
    assert second.startswith("E seul (roi au chien)") and "poignée double E" in second
    _reader, pages = fetch_pdf(arbiter_client, reverse("print-sheet", args=[sheet.pk]))
    text = " ".join(pages[0].split())
    assert re.search(r"Donne 1 Garde N S 2 50\b", text)
    assert re.search(r"Donne 2 Prise E roi au chien 1 40 double E\b", text)
