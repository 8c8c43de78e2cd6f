"""The blank sheet has a place for everything the desk asks, per deal, in the FFT seat order."""

import re

import pytest
from django.urls import reverse

from tests.scoring.documents.printing.print_helpers import fetch_pdf
from tests.scoring.documents.printing.print_tournament import build_print_tournament

pytestmark = pytest.mark.django_db

HEADINGS = ["Donne", "Contrat", "Preneur", "Bouts", "Points", "Poignées", "Petit", "Chelem"]


@pytest.fixture
def pages(arbiter_client):
    data = build_print_tournament()
    url = reverse("print-blank-sheets", args=[data.tournament.pk, 1])
    reader, texts = fetch_pdf(arbiter_client, url)
    return reader, texts


def headings_line(text: str) -> str:
    return next(line for line in text.splitlines() if line.startswith("Donne Contrat"))


def test_each_deal_row_has_the_taker_bouts_points_and_bonuses_headings(pages):
    _reader, texts = pages
    for text in texts:
        line = headings_line(text)
        positions = [line.index(word) for word in HEADINGS]
        assert positions == sorted(positions), line
        assert line.count("+") == line.count("−") >= 4  # each player's + and − after them
        assert "Total" in text and "Bilan" in text


def test_only_a_table_of_five_with_a_called_king_has_the_partners_column(pages):
    _reader, texts = pages
    four, five = texts[0], texts[3]
    assert "Appelé" not in headings_line(four)
    line = headings_line(five)
    assert line.index("Preneur") < line.index("Appelé") < line.index("Bouts")
    # The players' columns in the FFT order, the fifth seat last and readable.
    assert re.search(r"Place Nord Sud Est Ouest 5e", five)
    assert "4 — 5e" in five


def test_the_sheet_explains_how_to_fill_each_place(pages):
    _reader, texts = pages
    legend = " ".join(texts[0].split())
    for words in (
        "Bouts et points de l'attaque",
        "simple, double ou triple",
        "Petit au bout : attaque ou défense",
        "Chelem : annoncé, réussi, chuté",
    ):
        assert words in legend


def test_every_table_still_prints_on_one_landscape_a4_page(pages):
    reader, texts = pages
    assert len(reader.pages) == len(texts) == 4
    for page in reader.pages:
        width, height = float(page.mediabox.width), float(page.mediabox.height)
        assert (round(width), round(height)) == (842, 595)  # A4 landscape, in points
