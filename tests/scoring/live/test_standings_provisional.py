"""Partial results never look final: while a counted position is not finished, the public
standings, the arbiter's ranking, the hall, the ranking PDF and the XLSX all say "Classement
provisoire — position 1 en cours (1/3 tables)" and mark that position's column."""

import io

import pytest
from django.test import Client
from django.urls import reverse
from openpyxl import load_workbook

from scoring.models import ScoreSheet
from scoring.sheets.services import deal_record, sheet_for_table
from tests.desk_helpers import make_tournament
from tests.scoring.documents.printing.print_helpers import fetch_pdf
from tournament.evening import hall
from tournament.models import Position, Tournament

pytestmark = pytest.mark.django_db

DEAL = {"players": 4, "taker": 0, "contract": "garde", "oudlers": 2, "points": 50}
PROVISIONAL = "Classement provisoire — position 1 en cours (1/3 tables)"


@pytest.fixture
def half_played(arbiter):
    """Table 1 has all its 5 deals, table 2 one, table 3 none."""
    tournament, position = make_tournament(tables=3, is_public=True)
    tournament.status = Tournament.Status.RUNNING
    tournament.save()
    for number, deals in ((1, 5), (2, 1)):
        sheet = sheet_for_table(table=position.tables.get(number=number))
        for _ in range(deals):
            deal_record(sheet=ScoreSheet.objects.get(pk=sheet.pk), data=DEAL)
    return tournament, position


def test_public_standings_say_provisional_and_mark_the_column(client, half_played):
    tournament, _ = half_played
    html = client.get(reverse("public-tournament", args=[tournament.pk])).content.decode()
    assert PROVISIONAL in html
    assert "P1 (en cours)" in html


def test_the_arbiters_ranking_says_provisional(arbiter_client, half_played):
    tournament, _ = half_played
    html = arbiter_client.get(reverse("ranking", args=[tournament.pk])).content.decode()
    assert PROVISIONAL in html and "P1 (en cours)" in html


def test_the_hall_says_provisional(half_played):
    tournament, _ = half_played
    hall.hall_link_create(tournament=tournament)
    tournament.refresh_from_db()
    slides = Client().get(reverse("hall-slides", args=[tournament.hall_token])).content.decode()
    assert PROVISIONAL in slides


def test_the_ranking_pdf_says_provisional(arbiter_client, half_played):
    tournament, _ = half_played
    _reader, pages = fetch_pdf(
        arbiter_client, reverse("print-ranking", args=[tournament.pk]) + "?kind=individual"
    )
    text = " ".join(pages[0].split())
    assert "Classement provisoire" in text and "position 1 en cours (1/3 tables)" in text
    assert "P1 (en cours)" in text


def test_the_xlsx_says_provisional_on_every_sheet(arbiter_client, half_played):
    tournament, _ = half_played
    response = arbiter_client.get(reverse("export-ranking-xlsx", args=[tournament.pk]))
    workbook = load_workbook(
        io.BytesIO(b"".join(response.streaming_content) if response.streaming else response.content)
    )
    individual = workbook["Individuel"]
    assert PROVISIONAL in individual["A1"].value
    assert "P1 (en cours)" in [cell.value for cell in individual[2]]
    assert PROVISIONAL in workbook["Position 1"]["A1"].value


def test_finished_or_closed_positions_are_final(client, half_played):
    tournament, position = half_played
    Position.objects.filter(pk=position.pk).update(status=Position.Status.CLOSED)
    html = client.get(reverse("public-tournament", args=[tournament.pk])).content.decode()
    assert "Classement provisoire" not in html and "(en cours)" not in html
