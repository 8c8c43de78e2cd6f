"""The deal log as XLSX and CSV: one row per deal, every input, each player's score."""

import csv
import io

import openpyxl
import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring.documents.exports import deal_log, deals_csv, deals_xlsx
from scoring.models import Deal, DealScore, ScoreSheet
from scoring.sheets import table_entry
from scoring.sheets.services import deal_adjust
from tests.report_builders import build_tournament
from tournament.models import Tournament

PHONE = table_entry.Client(address="192.168.1.20", device="phone1")

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
    assert first["Preneur"] == "1 – JOUEURA A"  # number – name: homonyms told apart
    assert (first["Contrat"], first["Bouts"], first["Points"]) == ("Garde", 2, 51)
    assert isinstance(first["Points"], int) and isinstance(first["Score 1"], int)
    five = next(r for r in records if r["Joueurs"] == 5 and r["Position"] == 1)
    assert (five["Preneur"], five["Associé"]) == ("5 – JOUEURE E", "6 – JOUEURF F")


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
    assert xlsx_records(response.content)[1][0]["Preneur"] == "1 – JOUEURA A"


# Deals entered on phones --------------------------------------------------------------------

ENTERED, CONFIRMED = "Saisie par", "Confirmée par"


@pytest.fixture
def phones(arbiter):
    """Position 1, table 1 (A B C D) enters three more deals on a phone: A's confirmed by B with
    B's code, B's confirmed by the arbiter, C's still waiting."""
    built = build_tournament(entry_mode=Tournament.EntryMode.PHONES)
    link = table_entry.links_for_position(built["positions"][1])[0]
    sheet = built["sheets"][(1, 1)]
    seated = {p.seat: p.registration for p in sheet.players.select_related("registration")}
    pins = {seat: registration.pin for seat, registration in seated.items()}
    for number, taker in enumerate((0, 1, 2), start=3):
        deal, _replayed = table_entry.phone_deal_record(
            link=link,
            client_id=f"deal-log-{number:04d}",
            data=dict(players=4, taker=taker, contract="prise", oudlers=1, points=45 + number),
            enterer=seated[taker],
            version=ScoreSheet.objects.get(pk=sheet.pk).version,
        )
        version = ScoreSheet.objects.get(pk=sheet.pk).version
        if taker == 0:
            listed = {"deals": [deal.pk], "version": version}  # as seat 1's phone shows it
            table_entry.deals_confirm(link=link, seat=1, pin=pins[1], client=PHONE, **listed)
        elif taker == 1:
            table_entry.deal_confirm_by_arbiter(deal=deal, user=arbiter, expected_version=version)
    built["arbiter"] = arbiter
    return built


def by_deal(records):
    return {(r["Position"], r["Table"], r["Donne"]): r for r in records}


def test_the_deal_log_says_who_entered_and_who_confirmed_phone_deals(phones):
    _ws, records = xlsx_records(deals_xlsx.build(phones["tournament"]))
    header = list(records[0].keys())
    # After the others (which keep their places), before an incident's own columns.
    assert header[-6:-4] == [ENTERED, CONFIRMED]
    deals = by_deal(records)
    arbiter = phones["arbiter"].username
    assert (deals[(1, 1, 3)][ENTERED], deals[(1, 1, 3)][CONFIRMED]) == (
        "1 – JOUEURA A",
        "2 – JOUEURB B",
    )
    assert (deals[(1, 1, 4)][ENTERED], deals[(1, 1, 4)][CONFIRMED]) == (
        "2 – JOUEURB B",
        f"arbitre {arbiter}",
    )
    assert (deals[(1, 1, 5)][ENTERED], deals[(1, 1, 5)][CONFIRMED]) == (
        "3 – JOUEURC C",
        "à confirmer, non comptée",
    )
    # Deals typed at the desk: both blank; otherwise a phone deal is a row like any other.
    for key in [(1, 1, 1), (1, 1, 2), (1, 2, 1), (2, 1, 1), (2, 2, 1)]:
        assert (deals[key][ENTERED], deals[key][CONFIRMED]) == (None, None)
    phone = deals[(1, 1, 3)]
    assert (phone["Preneur"], phone["Contrat"], phone["Points"]) == ("1 – JOUEURA A", "Prise", 48)
    assert sum(scores_of(phone).values()) == 0


def test_the_csv_has_the_same_two_columns(phones):
    text = deals_csv.build(phones["tournament"])
    rows = list(csv.reader(io.StringIO(text.lstrip("\ufeff")), delimiter=";"))
    header, body = rows[0], rows[1:]
    assert header[-6:-4] == [ENTERED, CONFIRMED]
    records = {
        (int(r["Position"]), int(r["Table"]), int(r["Donne"])): r
        for r in (dict(zip(header, row, strict=True)) for row in body)
    }
    arbiter = phones["arbiter"].username
    assert [records[(1, 1, n)][ENTERED] for n in (1, 2, 3, 4, 5)] == [
        "",
        "",
        "1 – JOUEURA A",
        "2 – JOUEURB B",
        "3 – JOUEURC C",
    ]
    assert [records[(1, 1, n)][CONFIRMED] for n in (1, 2, 3, 4, 5)] == [
        "",
        "",
        "2 – JOUEURB B",
        f"arbitre {arbiter}",
        "à confirmer, non comptée",
    ]
    _ws, xlsx = xlsx_records(deals_xlsx.build(phones["tournament"]))
    assert header == list(xlsx[0].keys())


def test_names_in_the_new_columns_stay_inert(phones):
    """A player or arbiter named like a formula is text in both files."""
    registration = phones["registrations"]["A"]
    registration.player.last_name = "=HYPERLINK(1)"
    registration.player.save()
    arbiter = phones["arbiter"]
    arbiter.username = "=cmd"
    arbiter.save()
    _ws, records = xlsx_records(deals_xlsx.build(phones["tournament"]))
    deals = by_deal(records)
    assert deals[(1, 1, 3)][ENTERED] == "1 – =HYPERLINK(1) A"
    assert deals[(1, 1, 4)][CONFIRMED] == "arbitre =cmd"
    worksheet = openpyxl.load_workbook(io.BytesIO(deals_xlsx.build(phones["tournament"])))
    assert not [
        cell.coordinate
        for row in worksheet["Donnes"].iter_rows()
        for cell in row
        if cell.data_type == "f"
    ]


def test_phone_deals_cost_no_extra_query(phones):
    def queries(tournament) -> int:
        with CaptureQueriesContext(connection) as captured:
            deals_xlsx.build(tournament)
            deals_csv.build(tournament)
            list(deal_log.rows(tournament))
        return len(captured)

    typed = build_tournament()
    assert Deal.objects.filter(sheet__tournament=phones["tournament"]).count() == 8
    assert queries(phones["tournament"]) == queries(typed["tournament"])
