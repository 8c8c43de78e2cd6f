"""The exports are as complete as the screen: the licence and N° on every sheet of the ranking
workbook, and the deal log in the score sheet's seat order (N, S, E, O) with each seat's label,
its incidents and penalties as rows of their own."""

import io

import openpyxl
import pytest
from django.urls import reverse

from scoring.documents.exports import deals_xlsx
from scoring.models import ScoreSheet
from scoring.sheets.services import deal_record, incident_record, sheet_for_table
from tests.desk_helpers import make_tournament
from tournament.models import Registration

pytestmark = pytest.mark.django_db

DEAL = {"players": 4, "taker": 0, "contract": "garde", "oudlers": 2, "points": 50}


@pytest.fixture
def played(arbiter):
    tournament, position = make_tournament(tables=1)
    for registration in Registration.objects.filter(tournament=tournament).select_related("player"):
        registration.player.licence = f"00{registration.number:05d}"
        registration.player.save()
    sheet = sheet_for_table(table=position.tables.get())
    deal_record(sheet=ScoreSheet.objects.get(pk=sheet.pk), data=DEAL)
    sheet = ScoreSheet.objects.get(pk=sheet.pk)
    east = Registration.objects.get(tournament=tournament, number=2)  # seated N, E, S, W
    incident_record(
        tournament=tournament,
        kind="renonce_defence",
        registration=east,
        sheet=sheet,
        deal_number=1,
        decision="Renonce constatée",
        penalty_points=50,
    )
    tournament.refresh_from_db()  # its date as a date
    return tournament


def rows_of(worksheet):
    rows = list(worksheet.iter_rows(values_only=True))
    return [dict(zip(rows[1], row, strict=True)) for row in rows[2:]]


def test_every_position_sheet_carries_the_licence_and_number(arbiter_client, played):
    response = arbiter_client.get(reverse("export-ranking-xlsx", args=[played.pk]))
    book = openpyxl.load_workbook(io.BytesIO(response.content))
    rows = rows_of(book["Position 1"])
    assert sorted(r["Licence"] for r in rows) == ["0000001", "0000002", "0000003", "0000004"]
    assert sorted(r["N°"] for r in rows) == [1, 2, 3, 4]


def test_the_deal_log_lists_seats_in_the_sheets_order_with_their_labels(played):
    book = openpyxl.load_workbook(io.BytesIO(deals_xlsx.build(played)))
    deal = rows_of(book["Donnes"])[0]
    # Seated N (1), E (2), S (3), W (4): the sheet reads Nord, Sud, Est, Ouest.
    assert [deal[f"Place {n}"] for n in range(1, 5)] == ["Nord", "Sud", "Est", "Ouest"]
    assert [deal[f"N° {n}"] for n in range(1, 5)] == [1, 3, 2, 4]
    assert [deal[f"Licence {n}"] for n in range(1, 5)] == [
        "0000001",
        "0000003",
        "0000002",
        "0000004",
    ]
    # The taker (North) wins his garde: his score is the first column's.
    assert deal["Score 1"] > 0 and deal["Score 1"] == -sum(deal[f"Score {n}"] for n in (2, 3, 4))


def test_the_deal_log_includes_the_renonce_and_its_penalty_as_a_row(played):
    book = openpyxl.load_workbook(io.BytesIO(deals_xlsx.build(played)))
    rows = rows_of(book["Donnes"])
    assert len(rows) == 2
    incident = rows[1]
    assert incident["Incident"] == "Renonce en défense"
    assert incident["Joueur fautif"].startswith("2 – ")
    assert incident["Pénalité"] == -50
    assert incident["Décision"] == "Renonce constatée"
    assert (incident["Position"], incident["Table"], incident["Donne"]) == (1, 1, 1)
    assert rows[0]["Incident"] is None
