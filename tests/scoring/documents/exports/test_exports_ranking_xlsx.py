"""The rankings workbook, read back with openpyxl: names, totals and ranks as in the database."""

import io

import openpyxl
import pytest
from django.test import Client
from django.urls import reverse

from scoring.documents.exports import ranking_xlsx
from scoring.live.standings import standings_for
from tests.report_builders import BY_POSITION, TOTALS, add_penalty, build_tournament

pytestmark = pytest.mark.django_db


def read(content):
    return openpyxl.load_workbook(io.BytesIO(content))


def records(worksheet):
    rows = list(worksheet.iter_rows(values_only=True))
    header = rows[1]
    return [dict(zip(header, row, strict=True)) for row in rows[2:]]


def test_one_worksheet_per_kind_with_frozen_headers():
    built = build_tournament()
    book = read(ranking_xlsx.build(standings_for(built["tournament"])))
    assert book.sheetnames == ["Individuel", "Position 1", "Position 2", "Équipes", "Clubs"]
    for worksheet in book.worksheets:
        assert worksheet.freeze_panes == "A3"
        assert "Tournoi test" in worksheet["A1"].value
        assert worksheet["A2"].font.b
    widths = book["Individuel"].column_dimensions
    assert widths["C"].width >= len("JOUEURA A")


def test_individual_sheet_matches_the_database():
    built = build_tournament()
    add_penalty(built, "C", 20)
    standings = standings_for(built["tournament"])
    rows = records(read(ranking_xlsx.build(standings))["Individuel"])
    assert len(rows) == 9
    expected = dict(TOTALS, C=TOTALS["C"] - 20)
    for row, ranked in zip(rows, standings.players, strict=True):
        assert row["Joueur"] == ranked.row.name
        assert row["Rang"] == ranked.rank
        assert row["Total"] == expected[row["Joueur"][-1]]
        assert isinstance(row["Total"], int)
        assert row["P1"] + row["P2"] == row["Donnes"]
        assert row["Donnes"] + row["Pénalités"] == row["Total"]
    c = next(row for row in rows if row["Joueur"] == "JOUEURC C")
    assert (c["Pénalités"], c["Rang"]) == (-20, 9)
    assert [row["Rang"] for row in rows] == [1, 2, 3, 4, 5, 6, 7, 8, 9]


def test_position_sheets_give_each_bilan_and_table():
    built = build_tournament()
    book = read(ranking_xlsx.build(standings_for(built["tournament"])))
    for number, expected in BY_POSITION.items():
        rows = records(book[f"Position {number}"])
        assert {row["Joueur"][-1]: row["Bilan"] for row in rows} == expected
        assert rows[0]["Rang"] == 1
        assert {row["Table"] for row in rows} == {1, 2}


def test_team_and_club_sheets_sum_the_members():
    built = build_tournament()
    book = read(ranking_xlsx.build(standings_for(built["tournament"])))
    teams = records(book["Équipes"])
    assert [(r["Rang"], r["Nom"], r["Total"]) for r in teams] == [
        (1, "Duo AB", 201),
        (2, "Duo CE", -34),
    ]
    assert teams[0]["Joueurs"] == "1 – JOUEURA A, 2 – JOUEURB B"
    clubs = records(book["Clubs"])
    assert [(r["Nom"], r["Total"]) for r in clubs] == [("Paris", 187), ("Lyon", -140)]


def test_a_normalised_ranking_says_so_on_every_sheet():
    built = build_tournament(normalise_tables=True)
    book = read(ranking_xlsx.build(standings_for(built["tournament"])))
    for worksheet in book.worksheets:
        assert "classement normalisé" in worksheet["A1"].value
    rows = records(book["Position 1"])
    e = next(row for row in rows if row["Joueur"] == "JOUEURE E")
    assert (e["Bilan"], e["Bilan normalisé"]) == (50, 63)


def test_download_from_the_ranking_page(arbiter_client):
    built = build_tournament()
    url = reverse("export-ranking-xlsx", args=[built["tournament"].pk])
    assert Client().get(url).status_code == 302
    response = arbiter_client.get(url)
    assert response.status_code == 200
    assert response["Content-Disposition"].endswith('tournoi-test-classement.xlsx"')
    assert read(response.content)["Individuel"]["C3"].value == "JOUEURA A"


def test_position_headers_follow_the_reader_language(english_catalogue):
    from django.utils import translation

    built = build_tournament()
    with translation.override("fr"):
        french = read(ranking_xlsx.build(standings_for(built["tournament"])))
    with translation.override("en"):
        english = read(ranking_xlsx.build(standings_for(built["tournament"])))
    french_header = [cell.value for cell in french.worksheets[0][2]]
    english_header = [cell.value for cell in english.worksheets[0][2]]
    assert "P1" in french_header and "P2" in french_header
    assert "R1" in english_header and "R2" in english_header
    assert "P1" not in english_header
