"""Completed score sheets for the archive: rows, totals, bilans, adjustments, penalties."""

import re

import pytest
from django.db.models import Sum
from django.urls import reverse

from scoring.models import DealScore
from tests.scoring.documents.printing.print_helpers import fetch_pdf, refused_to_anonymous
from tests.scoring.documents.printing.print_tournament import EXAMPLE_BILANS, build_print_tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def data():
    return build_print_tournament()


def plain(text: str) -> str:
    """pypdf text with the printed minus sign as an ASCII hyphen."""
    return text.replace("\N{MINUS SIGN}", "-")


def db_bilans(sheet) -> dict[str, int]:
    rows = (
        DealScore.objects.filter(deal__sheet=sheet)
        .values("registration__player__last_name")
        .annotate(total=Sum("points"))
    )
    return {row["registration__player__last_name"]: row["total"] for row in rows}


def test_the_004_example_sheet_prints_its_totals_and_bilans(arbiter_client, data):
    sheet = data.example_sheet
    _reader, pages = fetch_pdf(arbiter_client, reverse("print-sheet", args=[sheet.pk]))
    text = plain(pages[0])
    assert db_bilans(sheet) == EXAMPLE_BILANS
    # The FFT sheet: columns Nord, Sud, Est, Ouest = DURAND, DUPONT, DUBOIS, DESPRES.
    assert re.search(r"DURAND Pierre\s+DUPONT Jacques\s+DUBOIS Michel\s+DESPRES André", text)
    assert re.search(r"Position n° : 1\b", text) and re.search(r"Table n° : 1\b", text)
    for number, contract in enumerate(["Garde", "G. Sans", "Prise", "Garde", "Garde"], 1):
        assert re.search(rf"Donne {number} {re.escape(contract)}\b", text)
    assert "Total 318 764 1746 400 360 750 270 780" in text
    assert "Bilan -446 +1346 -390 -510" in text


def test_a_position_prints_every_entered_sheet_with_bilans_from_the_database(arbiter_client, data):
    url = reverse("print-sheets", args=[data.tournament.pk, 1])
    reader, pages = fetch_pdf(arbiter_client, url)
    assert len(reader.pages) == 2  # tables 1 and 4 have sheets at position 1
    five = plain(pages[1])
    assert re.search(r"Table n° : 4\b", five)
    bilans = db_bilans(data.five_sheet)
    players = data.five_sheet.players.select_related("registration__player")
    by_direction = {p.direction: p.registration.player.last_name for p in players}
    ordered = [bilans[by_direction[d]] for d in "NSEWX"]
    assert sum(ordered) == 0
    printed = " ".join(f"{b:+d}" if b else "0" for b in ordered)
    assert f"Bilan {printed}" in five


def test_adjusted_rows_passed_deals_and_penalties_are_shown(arbiter_client, data):
    sheet = data.five_sheet
    _reader, pages = fetch_pdf(arbiter_client, reverse("print-sheet", args=[sheet.pk]))
    text = plain(pages[0])
    assert "score arbitral" in text and "Renonce en défense" in text
    assert "Tous passent" in text
    culprit = data.penalised.player.full_name
    assert f"Retard — {culprit}" in text and "pénalité de 50 points" in text
    bilans = db_bilans(sheet)
    assert re.search(r"Pénalités\s+-50\b", text)
    final = bilans[data.penalised.player.last_name] - 50
    assert f"{final:+d}" in text.split("Bilan après pénalités")[1]


def test_a_position_without_entered_sheets_still_gives_a_pdf(arbiter_client, data):
    data.second_sheet.delete()
    _reader, pages = fetch_pdf(
        arbiter_client, reverse("print-sheets", args=[data.tournament.pk, 2])
    )
    assert "Aucune feuille de marque saisie" in pages[0]


def test_completed_sheets_are_not_public(client, data):
    assert refused_to_anonymous(client, reverse("print-sheet", args=[data.example_sheet.pk]))
    assert refused_to_anonymous(client, reverse("print-sheets", args=[data.tournament.pk, 1]))


def test_a_free_sheet_prints_with_its_title_and_bilans(arbiter_client, data):
    from scoring.sheets.services import deal_record, sheet_create_free

    players = data.registrations[:3]
    sheet = sheet_create_free(tournament=data.tournament, registrations=players, title="Soirée")
    deal_record(sheet=sheet, data=dict(players=3, taker=0, contract="garde", oudlers=3, points=40))
    _reader, pages = fetch_pdf(arbiter_client, reverse("print-sheet", args=[sheet.pk]))
    text = plain(pages[0])
    assert "Soirée" in text and "3 joueurs" in text
    bilans = db_bilans(sheet)
    assert bilans["DURAND"] == 2 * -bilans["DUBOIS"] > 0
    assert f"Bilan +{bilans['DURAND']} {bilans['DUBOIS']} {bilans['DUPONT']}" in text
