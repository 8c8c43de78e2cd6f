"""Spreadsheet formula injection: hostile names, clubs, teams and reasons stay inert text.

Every export is downloaded through its real URL and read back: the workbooks hold no formula
cell and keep the hostile text verbatim as string cells; the CSV prefixes text fields starting
with a formula trigger with a single quote (OWASP) while scores, negative ones included, stay
plain numbers.
"""

import csv
import io

import openpyxl
import pytest
from django.urls import reverse

from scoring.models import Deal
from scoring.sheets.services import deal_adjust
from tests.report_builders import build_tournament
from tournament.models import Team

pytestmark = pytest.mark.django_db

LINK = '=HYPERLINK("http://x","Voir")'
# Upper-case on purpose: a player's displayed name upper-cases the last name.
LAST_NAMES = {"A": '=HYPERLINK("HTTP://X","VOIR")', "B": "@SUM(1)", "C": "+1+1", "D": "-2+3"}
CLUBS = {"Paris": LINK, "Lyon": "#N/A"}
TEAMS = {"Duo AB": "=1+2", "Duo CE": "-2+3"}
TOURNAMENT = "=1+1 Open"
# (position, table) of the deal → its adjusted scores and reason.
ADJUSTMENTS = {
    (2, 1): ([30, 30, 30, -90], LINK),
    (1, 1): ([200, -70, -70, -60], "\t=1+1"),
    (1, 2): ([50, 25, -25, -25, -25], "\r@SUM(1)"),
}
TRIGGERS = ("=", "+", "-", "@", "\t", "\r")
NAMES = {f"{last} {letter}" for letter, last in LAST_NAMES.items()}


@pytest.fixture
def hostile(arbiter):
    built = build_tournament(owner=arbiter)
    tournament = built["tournament"]
    tournament.name = TOURNAMENT
    tournament.save(update_fields=["name"])
    for letter, registration in built["registrations"].items():
        player = registration.player
        player.last_name = LAST_NAMES.get(letter, player.last_name)
        player.club = CLUBS.get(player.club, player.club)
        player.save()
    for old, new in TEAMS.items():
        Team.objects.filter(tournament=tournament, name=old).update(name=new)
    for at, (scores, reason) in ADJUSTMENTS.items():
        deal = Deal.objects.get(sheet=built["sheets"][at], number=1)
        deal_adjust(deal=deal, scores=scores, reason="motif")
        # Stored as is: deal_adjust strips the reason, an import or the admin might not.
        Deal.objects.filter(pk=deal.pk).update(adjustment_reason=reason)
    return built


def download(client, name, tournament):
    response = client.get(reverse(name, args=[tournament.pk]))
    assert response.status_code == 200
    if response.streaming:
        return b"".join(response.streaming_content)
    return response.content


def workbook(client, name, tournament):
    return openpyxl.load_workbook(io.BytesIO(download(client, name, tournament)))


def cells(book):
    for worksheet in book.worksheets:
        for row in worksheet.iter_rows():
            yield from (cell for cell in row if cell.value is not None)


def records(worksheet):
    rows = list(worksheet.iter_rows(values_only=True))
    return [dict(zip(rows[1], row, strict=True)) for row in rows[2:]]


def assert_no_formula_and_texts_kept(book, expected):
    formulas = [(c.parent.title, c.coordinate, c.value) for c in cells(book) if c.data_type == "f"]
    assert formulas == []
    strings = {c.value for c in cells(book) if c.data_type == "s"}
    assert expected <= strings, expected - strings
    for worksheet in book.worksheets:
        assert worksheet["A1"].data_type == "s"
        assert worksheet["A1"].value.startswith(TOURNAMENT)


def test_ranking_workbook_has_no_formula_and_keeps_hostile_text(arbiter_client, hostile):
    book = workbook(arbiter_client, "export-ranking-xlsx", hostile["tournament"])
    assert_no_formula_and_texts_kept(book, NAMES | set(CLUBS.values()) | set(TEAMS.values()))
    individual = records(book["Individuel"])
    assert {row["Joueur"] for row in individual} >= NAMES
    assert {row["Club"] for row in individual} >= set(CLUBS.values())
    assert {row["Équipe"] for row in individual} >= set(TEAMS.values())
    for row in individual:
        for column in ("Rang", "N°", "P1", "P2", "Donnes", "Pénalités", "Total"):
            # A position still being played reads "P1 (en cours)".
            value = next(v for k, v in row.items() if k in (column, f"{column} (en cours)"))
            assert type(value) is int, (column, value)
    assert any(row["Total"] < 0 for row in individual)
    teams = records(book["Équipes"])
    assert {row["Nom"] for row in teams} == set(TEAMS.values())
    assert all(type(row["Total"]) is int for row in teams)


def test_deal_log_workbook_has_no_formula_and_keeps_hostile_text(arbiter_client, hostile):
    book = workbook(arbiter_client, "export-deals-xlsx", hostile["tournament"])
    reasons = {reason for _scores, reason in ADJUSTMENTS.values()}
    assert_no_formula_and_texts_kept(book, NAMES | reasons)
    rows = records(book["Donnes"])
    assert {row["Motif de l'ajustement"] for row in rows} - {None} == reasons
    scores = [row[f"Score {n}"] for row in rows for n in range(1, 6) if row[f"Joueur {n}"]]
    assert all(type(score) is int for score in scores)
    assert -90 in scores and -108 not in scores


def test_deal_log_csv_neutralises_text_but_not_numbers(arbiter_client, hostile):
    tournament = hostile["tournament"]
    text = download(arbiter_client, "export-deals-csv", tournament).decode("utf-8")
    lines = list(csv.reader(io.StringIO(text.lstrip("\ufeff")), delimiter=";"))
    header, body = lines[0], lines[1:]
    book = workbook(arbiter_client, "export-deals-xlsx", tournament)
    expected = records(book["Donnes"])
    assert len(body) == len(expected) == Deal.objects.count()
    quoted = set()
    for line, record in zip(body, expected, strict=True):
        for field, (column, value) in zip(line, record.items(), strict=True):
            assert column in header
            if isinstance(value, str) and value.startswith(TRIGGERS):
                assert field == "'" + value
                quoted.add(value)
            elif isinstance(value, int):
                assert field == str(value) and int(field) == value
            elif value is None:
                assert field == ""
            else:
                assert field == str(value)
            if field.startswith(TRIGGERS):
                int(field)  # only a number may start with a trigger: a negative score
    reasons = {reason for _scores, reason in ADJUSTMENTS.values()}
    assert NAMES | reasons <= quoted
    scores = [
        int(line[header.index(f"Score {n}")])
        for line in body
        for n in range(1, 6)
        if line[header.index(f"Joueur {n}")]
    ]
    assert -90 in scores and -70 in scores


def test_csv_field_helper():
    from scoring.documents.exports.common import safe_csv_value

    assert safe_csv_value(-120) == -120
    assert safe_csv_value(12.5) == 12.5
    assert safe_csv_value(None) == ""
    assert safe_csv_value("") == ""
    assert safe_csv_value("JOUEURA A") == "JOUEURA A"
    for hostile in (LINK, "+1+1", "-2+3", "@SUM(1)", "\t=1", "\r=1"):
        assert safe_csv_value(hostile) == "'" + hostile


def test_xlsx_cell_helper_never_yields_a_formula():
    from openpyxl import Workbook

    from scoring.documents.exports.common import safe_cell_value

    worksheet = Workbook(write_only=True).create_sheet()
    for value in (-120, 3.5, None, "JOUEURA A"):
        assert safe_cell_value(worksheet, value) == value
    for value in (LINK, "#N/A", "#DIV/0!"):
        cell = safe_cell_value(worksheet, value)
        assert (cell.value, cell.data_type) == (value, "s")


def test_control_characters_in_names_never_break_the_workbooks():
    from io import BytesIO

    from openpyxl import Workbook, load_workbook

    from scoring.documents.exports.common import append_row

    workbook = Workbook(write_only=True)
    sheet = workbook.create_sheet()
    append_row(sheet, ["DUPONT\x01\x0b Jean", "=1+1\x02", 12])
    append_row(sheet, ["Titre\x07"], font=None)
    buffer = BytesIO()
    workbook.save(buffer)
    rows = list(load_workbook(BytesIO(buffer.getvalue())).active.values)
    assert rows == [("DUPONT Jean", "=1+1", 12), ("Titre", None, None)]
