"""One seat order everywhere, the FFT sheet's: Nord, Sud, Est, Ouest, then the fifth seat.

Stored data keeps its meaning: seat indexes on sheets and deals still follow the table's
order N, E, S, O (the dealer passes to the previous index); only what is shown changes.
"""

import re

import pytest
from django.urls import reverse

from scoring.models import SheetPlayer
from scoring.sheets.services import sheet_for_table
from scoring.sheets.table_entry import links_for_position
from tests.desk_helpers import NAMES_004, make_tournament
from tests.examples_004 import BILANS, in_seat_order
from tests.scoring.documents.printing.print_helpers import fetch_pdf
from tournament.models import DIRECTIONS, SHEET_ORDER, Seat, seat_label

pytestmark = pytest.mark.django_db

PAPER_NAMES = ["DURAND", "DUPONT", "DUBOIS", "DESPRES"]  # Nord, Sud, Est, Ouest


def in_order(text: str, words) -> bool:
    positions = [text.index(word) for word in words]
    return positions == sorted(positions)


def test_the_sheet_order_is_nord_sud_est_ouest_then_the_fifth_seat():
    assert SHEET_ORDER == ("N", "S", "E", "W", "X")
    # Storage order is unchanged: index 1 is still Est.
    assert DIRECTIONS == ("N", "E", "S", "W", "X")


def test_the_fifth_seat_reads_apart_from_its_table_number():
    assert seat_label(3, "N") == "3 N"
    assert seat_label(3, "W") == "3 O"
    assert seat_label(5, "X") == "5 — 5e"


def test_a_new_sheet_keeps_seat_indexes_in_table_order(arbiter_client):
    _tournament, position = make_tournament(names=NAMES_004)
    sheet = sheet_for_table(table=position.tables.get())
    stored = list(SheetPlayer.objects.filter(sheet=sheet).values_list("seat", "direction"))
    assert sorted(stored) == [(0, "N"), (1, "E"), (2, "S"), (3, "W")]


def test_the_desk_lists_columns_dealers_and_paper_bilans_in_the_sheets_order(arbiter_client):
    _tournament, position = make_tournament(names=NAMES_004)
    sheet = sheet_for_table(table=position.tables.get())
    page = arbiter_client.get(reverse("sheet-detail", args=[sheet.pk])).content.decode()
    head = page[page.index('id="sheet-table"') :]
    assert in_order(head, PAPER_NAMES)
    assert "Départ" in head[: head.index("</thead>")]
    dealer = page[page.index('id="id_dealer"') :]
    dealer = dealer[: dealer.index("</select>")]
    assert re.findall(r'<option value="(\d)"', dealer) == ["0", "2", "1", "3"]
    crosscheck = page[page.index('id="crosscheck-form"') :]
    assert re.findall(r'name="bilan_(\d)"', crosscheck) == ["0", "2", "1", "3"]
    assert "N, S, E, O" in page  # the taker's keys, as the sheet lists the seats


def test_paper_bilans_typed_in_the_papers_order_match(arbiter_client, sheet_004):
    sheet = sheet_004
    page = arbiter_client.get(reverse("sheet-detail", args=[sheet.pk])).content.decode()
    form = page[page.index('id="crosscheck-form"') :]
    fields = re.findall(r'name="(bilan_\d)"', form)
    # The arbiter types the paper's Bilan row from left to right into the fields as listed.
    typed = dict(zip(fields, map(str, BILANS), strict=True))
    response = arbiter_client.post(
        reverse("sheet-crosscheck", args=[sheet.pk]),
        {"version": sheet.version, **typed},
        HTTP_HX_REQUEST="true",
    )
    html = response.content.decode()
    assert "mismatch" not in html and "Vérifiée" in html
    sheet.refresh_from_db()
    assert sheet.paper_bilans == in_seat_order(BILANS, "NESW")  # stored by seat index


def test_the_table_plan_pdf_lists_seats_in_the_sheets_order(arbiter_client):
    tournament, _position = make_tournament(names=NAMES_004)
    _reader, pages = fetch_pdf(arbiter_client, reverse("print-table-plan", args=[tournament.pk, 1]))
    assert re.search(r"Nord DURAND.*Sud DUPONT.*Est DUBOIS.*Ouest DESPRES", pages[0], re.S)


def test_a_table_of_five_prints_its_fifth_seat_last_with_a_readable_start(arbiter_client):
    tournament, position = make_tournament(size=5, game="five")
    table = position.tables.get()
    _reader, pages = fetch_pdf(
        arbiter_client, reverse("print-blank-sheets", args=[tournament.pk, 1])
    )
    assert re.search(r"Nord\s+Sud\s+Est\s+Ouest\s+5e", pages[0])
    assert "1 — 5e" in pages[0] and "1 5e" not in pages[0]
    fifth = Seat.objects.get(table=table, direction="X")
    assert fifth.label == "1 — 5e"


def test_the_phone_page_lists_players_in_the_sheets_order(client):
    _tournament, position = make_tournament(names=NAMES_004, entry_mode="phones", status="running")
    link = links_for_position(position)[0]
    page = client.get(reverse("table-entry", args=[link.token])).content.decode()
    takers = page[page.index('id="takers"') :]
    takers = takers[: takers.index("</div>")]
    assert re.findall(r'name="taker" value="(\d)"', takers) == ["0", "2", "1", "3"]
    assert in_order(takers, PAPER_NAMES)


def test_the_free_sheet_form_asks_for_players_in_the_sheets_order(arbiter_client):
    tournament, _position = make_tournament()
    page = arbiter_client.get(reverse("sheet-free-create", args=[tournament.pk])).content.decode()
    assert in_order(page, ["Nord", "Sud", "Est", "Ouest", "5e joueur"])
