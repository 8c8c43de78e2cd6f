"""The deal log as XLSX and CSV: one row per deal, every input, each player's score."""

import csv
import io

import openpyxl
import pytest
from django.test import Client
from django.urls import reverse

from scoring.exports import deals_csv, deals_xlsx
from scoring.models import Deal, DealScore
from scoring.services import deal_adjust
from tests.report_builders import build_tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def built():
    built = build_tournament()
    deal = Deal.objects.get(sheet=built["sheets"][(2, 1)], number=1)
    deal_adjust(deal=deal, scores=[30, 30, 30, -90], reason="Carte exposée par le preneur")
    return built


def xlsx_records(content):
    worksheet = openpyxl.load_workbook(io.BytesIO(content))["Donnes"]
    rows = list(worksheet.iter_rows(values_only=True))
    header = rows[1]
    return worksheet, [dict(zip(header, row, strict=True)) for row in rows[2:]]


def scores_of(record):
    return {
        record[f"Joueur {n}"]: record[f"Score {n}"] for n in range(1, 6) if record[f"Joueur {n}"]
    }


def db_scores():
    return {
        (s.deal.sheet.table.position.number, s.deal.sheet.table.number, s.deal.number,
         s.registration.player.full_name): s.points
        for s in DealScore.objects.select_related(
            "deal__sheet__table__position", "registration__player"
        )
    }  # fmt: skip


def test_every_deal_is_a_row_with_every_players_score(built):
    worksheet, records = xlsx_records(deals_xlsx.build(built["tournament"]))
    assert worksheet.freeze_panes == "A3"
    assert len(records) == Deal.objects.count() == 5
    expected = db_scores()
    got = {}
    for record in records:
        for name, points in scores_of(record).items():
            got[(record["Position"], record["Table"], record["Donne"], name)] = points
        assert sum(scores_of(record).values()) == 0
    assert got == expected


def test_inputs_are_recorded_and_numbers_stay_numbers(built):
    _ws, records = xlsx_records(deals_xlsx.build(built["tournament"]))
    first = records[0]
    assert (first["Position"], first["Table"], first["Donne"]) == (1, 1, 1)
    assert first["Preneur"] == "JOUEURA A"
    assert (first["Contrat"], first["Bouts"], first["Points"]) == ("Garde", 2, 51)
    assert isinstance(first["Points"], int) and isinstance(first["Score 1"], int)
    five = next(r for r in records if r["Joueurs"] == 5 and r["Position"] == 1)
    assert (five["Preneur"], five["Associé"]) == ("JOUEURE E", "JOUEURF F")


def test_adjusted_deals_are_marked(built):
    worksheet, records = xlsx_records(deals_xlsx.build(built["tournament"]))
    adjusted = [r for r in records if r["Score arbitral"]]
    assert len(adjusted) == 1
    assert adjusted[0]["Motif de l'ajustement"] == "Carte exposée par le preneur"
    assert adjusted[0]["Scores calculés"] == "36 36 36 -108"
    assert scores_of(adjusted[0])["JOUEURG G"] == -90
    row = 2 + records.index(adjusted[0]) + 1
    assert worksheet.cell(row=row, column=1).font.i


def test_csv_matches_the_workbook(built):
    _ws, records = xlsx_records(deals_xlsx.build(built["tournament"]))
    text = deals_csv.build(built["tournament"])
    assert text.startswith("\ufeff")
    rows = list(csv.reader(io.StringIO(text.lstrip("\ufeff")), delimiter=";"))
    header, body = rows[0], rows[1:]
    assert header == list(records[0].keys())
    assert len(body) == len(records)
    for line, record in zip(body, records, strict=True):
        as_text = ["" if v is None else str(v) for v in record.values()]
        assert line == as_text


def test_downloads_need_a_login(arbiter_client, built):
    pk = built["tournament"].pk
    for name in ("export-deals-xlsx", "export-deals-csv"):
        assert Client().get(reverse(name, args=[pk])).status_code == 302
    response = arbiter_client.get(reverse("export-deals-csv", args=[pk]))
    assert response["Content-Type"].startswith("text/csv")
    text = b"".join(response.streaming_content).decode("utf-8")
    assert text.count("\n") == 6
    response = arbiter_client.get(reverse("export-deals-xlsx", args=[pk]))
    assert xlsx_records(response.content)[1][0]["Preneur"] == "JOUEURA A"
