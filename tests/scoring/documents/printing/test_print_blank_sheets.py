"""Blank score sheets: one page per table, pre-filled like the FFT sheet, empty deal rows."""

import re

import pytest
from django.urls import reverse

from tests.scoring.documents.printing.print_helpers import fetch_pdf, refused_to_anonymous
from tests.scoring.documents.printing.print_tournament import build_print_tournament
from tournament.models import Seat

pytestmark = pytest.mark.django_db


@pytest.fixture
def data():
    return build_print_tournament()


def url(data, number=1):
    return reverse("print-blank-sheets", args=[data.tournament.pk, number])


def test_one_page_per_table_with_header_names_and_starting_positions(arbiter_client, data):
    reader, pages = fetch_pdf(arbiter_client, url(data))
    position = data.positions[0]
    tables = list(position.tables.order_by("number"))
    assert len(reader.pages) == len(tables) == 4
    for table, text in zip(tables, pages, strict=True):
        assert "BIENVENUE ET BONNE CHANCE" in text
        assert "Open de Chalon" in text and "15 août 2008" in text
        assert re.search(r"Position n° : 1\b", text)
        assert re.search(rf"Table n° : {table.number}\b", text)
        for seat in Seat.objects.filter(table=table).select_related("registration__player"):
            assert seat.registration.player.full_name in text
            # Position 1 is everyone's first: the starting position is this table and seat,
            # as the desk shows it ("1 O" for Ouest, "1 5e" for the fifth seat).
            assert seat.label in text
        assert "Signature" in text
        assert "Page" in text and "Imprimé le" in text


def test_deal_rows_follow_the_tournament_settings_per_table_size(arbiter_client, data):
    _reader, pages = fetch_pdf(arbiter_client, url(data))
    four, five = pages[0], pages[3]
    deals_4 = data.tournament.deals_for_table_size(4)
    deals_5 = data.tournament.deals_for_table_size(5)
    assert deals_4 != deals_5
    assert re.findall(r"Donne (\d+)", four) == [str(n) for n in range(1, deals_4 + 1)]
    assert re.findall(r"Donne (\d+)", five) == [str(n) for n in range(1, deals_5 + 1)]
    # Columns in the FFT sheet's order, with the fifth seat last.
    assert re.search(r"Nord\s+Sud\s+Est\s+Ouest\s+5e", five)
    assert five.count("+") >= 5 and "Total" in five and "Bilan" in five
    # Blank: no figure is pre-printed in the deal rows.
    rows = five[five.index("Donne 1") : five.index("Total")]
    assert re.fullmatch(r"(\s*Donne \d+\s*)+", rows)


def test_starting_position_is_the_first_table_played(arbiter_client, data):
    _reader, pages = fetch_pdf(arbiter_client, url(data, 2))
    durand = data.by_name("DURAND")
    seat_2 = Seat.objects.get(registration=durand, table__position__number=2)
    text = pages[seat_2.table.number - 1]
    assert "DURAND Pierre" in text and "1 N" in text  # started at table 1, Nord


def test_many_deals_still_fit_one_page_per_table(arbiter_client, db):
    data = build_print_tournament(deals_per_table=12)
    reader, pages = fetch_pdf(arbiter_client, url(data))
    assert len(reader.pages) == 4
    assert "Donne 13" in pages[3] and "Donne 12" in pages[0]


def test_anonymous_visitors_and_plain_users_are_refused(client, data, django_user_model):
    assert refused_to_anonymous(client, url(data))
    client.force_login(django_user_model.objects.create_user("curieux", password="x"))
    assert client.get(url(data)).status_code == 403


def test_scorers_may_print(client, scorer, data):
    client.force_login(scorer)
    assert client.get(url(data))["Content-Type"] == "application/pdf"


def test_unknown_position_is_a_404(arbiter_client, data):
    assert arbiter_client.get(url(data, 9)).status_code == 404
