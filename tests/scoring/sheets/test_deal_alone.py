"""At a table of 5, a taker alone is recorded with why: the king in the chien, or called
themself. Both score the same; the desk, the API, the phone page, the detail (screen and PDF),
the history, the deal log and backups all say which."""

import io
import json
import re

import openpyxl
import pytest
from django.test import Client
from django.urls import reverse

from scoring.core.deal import DealError
from scoring.documents.backup import BackupError, tournament_export, tournament_import
from scoring.documents.exports import deals_xlsx
from scoring.models import Deal
from scoring.sheets.forms import DealForm
from scoring.sheets.history import sheet_history
from scoring.sheets.screen import seat_info
from scoring.sheets.services import ENGINE_FIELDS, deal_record, sheet_for_table
from scoring.sheets.table_entry import links_for_position
from tests.desk_helpers import deal_post, make_tournament
from tests.scoring.documents.printing.print_helpers import fetch_pdf
from tournament.models import Player, Tournament

pytestmark = pytest.mark.django_db

# Seats at a table of 5: N=0, E=1, S=2, W=3, X=4 (keys N, E, S, O, 5).
PRISE = {"contract": "P", "oudlers": "1", "points": "40"}
PRISE_API = {"taker": 1, "contract": "prise", "oudlers": 1, "points": 40}
ALONE_ROW = [36, -144, 36, 36, 36]  # prise lost by 11 at 5, Est alone: -4V


def five_sheet(game: str = "five", **fields):
    tournament, position = make_tournament(size=5, game=game, **fields)
    return tournament, position, sheet_for_table(table=position.tables.get())


def detail_cell(html: str, number: int) -> str:
    row = html[html.index(f'id="deal-{number}"') :]
    row = row[: row.index("</tr>")]
    return re.search(r'<td class="detail">(.*?)</td>', row, re.S).group(1)


def api_post(client, sheet, deal, version=None):
    sheet.refresh_from_db()
    body = {"version": sheet.version if version is None else version, "deal": deal}
    return client.post(
        f"/api/feuilles/{sheet.pk}/donnes/", json.dumps(body), content_type="application/json"
    )


def prises(client, sheet, *takers_and_partners: tuple[str, str]) -> None:
    """Type at the desk, one after the other, the same prise with each (taker, partner key)."""
    for taker, partner in takers_and_partners:
        deal_post(client, sheet, {"taker": taker, "partner": partner, **PRISE})


# --- the desk -------------------------------------------------------------------------------


def test_the_desk_records_the_king_in_the_chien_and_the_taker_calling_themself(arbiter_client):
    _tournament, _position, sheet = five_sheet()
    prises(arbiter_client, sheet, ("E", "C"), ("E", "E"), ("E", "soi"), ("E", "SEUL"), ("E", "S"))
    deals = list(sheet.deals.order_by("number"))
    assert [(d.partner, d.alone) for d in deals] == [
        (None, "dog"),
        (None, "self"),
        (None, "self"),
        (None, ""),  # "SEUL": alone, the reason not given
        (2, ""),
    ]
    # Both reasons score the same: the taker alone against four.
    assert deals[0].scores == deals[1].scores == deals[3].scores == ALONE_ROW

    html = arbiter_client.get(reverse("sheet-detail", args=[sheet.pk])).content.decode()
    assert detail_cell(html, 1).startswith("E seul (roi au chien)")
    assert detail_cell(html, 2).startswith("E seul (appelé soi-même)")
    assert detail_cell(html, 4).startswith("E seul ·")
    assert detail_cell(html, 5).startswith("E + S")


def test_correcting_a_deal_shows_and_keeps_its_reason(arbiter_client):
    _tournament, _position, sheet = five_sheet()
    prises(arbiter_client, sheet, ("E", "C"), ("E", "E"))
    first, second = sheet.deals.order_by("number")
    edit = arbiter_client.get(reverse("deal-edit", args=[first.pk])).content.decode()
    assert re.search(r'name="partner"[^>]*value="C"', edit)
    edit = arbiter_client.get(reverse("deal-edit", args=[second.pk])).content.decode()
    assert re.search(r'name="partner"[^>]*value="E"', edit)
    # A deal typed before the reason was recorded reads "SEUL" and stays unknown.
    Deal.objects.filter(pk=first.pk).update(alone="")
    edit = arbiter_client.get(reverse("deal-edit", args=[first.pk])).content.decode()
    assert re.search(r'name="partner"[^>]*value="SEUL"', edit)


def test_the_figure_form_records_why_the_taker_is_alone(arbiter_client):
    _tournament, _position, sheet = five_sheet(sheet_style="figures")
    deal_post(
        arbiter_client,
        sheet,
        {"mode": "figures", "taker": "E", "contract": "P", "partner": "C", "figure": "-144"},
    )
    deal_post(
        arbiter_client,
        sheet,
        {"mode": "figures", "taker": "E", "contract": "P", "partner": "E", "figure": "-104"},
    )
    deals = list(sheet.deals.order_by("number"))
    assert [(d.partner, d.alone, d.is_figure_only) for d in deals] == [
        (None, "dog", True),
        (None, "self", True),
    ]
    html = arbiter_client.get(reverse("sheet-detail", args=[sheet.pk])).content.decode()
    assert detail_cell(html, 1).startswith("E seul (roi au chien)")
    assert detail_cell(html, 2).startswith("E seul (appelé soi-même)")


# --- the API and the service's refusals ----------------------------------------------------


def test_the_api_records_each_reason(client, arbiter):
    _tournament, _position, sheet = five_sheet()
    client.force_login(arbiter)
    for alone in ("dog", "self"):
        response = api_post(client, sheet, {**PRISE_API, "alone": alone})
        assert response.status_code == 201, response.json()
        assert response.json()["scores"] == ALONE_ROW
    # Left out (clients written before the key existed): alone, the reason unknown.
    assert api_post(client, sheet, PRISE_API).status_code == 201
    assert list(sheet.deals.order_by("number").values_list("alone", flat=True)) == [
        "dog",
        "self",
        "",
    ]


@pytest.mark.parametrize(
    ("game", "size", "deal", "message"),
    [
        ("five", 5, {**PRISE_API, "partner": 2, "alone": "dog"}, "le preneur a un partenaire"),
        ("four", 4, {**PRISE_API, "alone": "self"}, "seulement à une table de 5"),
        ("five_dead", 5, {**PRISE_API, "alone": "dog", "dealer": 0}, "seulement à une table de 5"),
        ("five", 5, {**PRISE_API, "alone": "chien"}, "n'est pas une réponse possible"),
        ("five", 5, {**PRISE_API, "alone": True}, "n'est pas une réponse possible"),
    ],
)
def test_a_reason_where_it_cannot_apply_is_refused_naming_the_field(
    client, arbiter, game, size, deal, message
):
    tournament, position = make_tournament(size=size, game=game)
    sheet = sheet_for_table(table=position.tables.get())
    client.force_login(arbiter)
    if game == "five_dead":
        deal = {**deal, "taker": 1}
    response = api_post(client, sheet, deal)
    assert response.status_code == 400
    assert response.json()["field"] == "alone"
    assert response.json()["error"].startswith("Seul")
    assert message in response.json()["error"]
    assert sheet.deals.count() == 0


def test_the_desk_shows_a_refused_reason_next_to_the_partner(arbiter_client):
    _tournament, _position, sheet = five_sheet()
    with pytest.raises(DealError) as refused:
        deal_record(sheet=sheet, data={**PRISE_API, "partner": 2, "alone": "self"})
    assert refused.value.field == "alone"
    # The form maps an "alone" refusal to its partner field (never a 500 nor a lost message).
    players = list(sheet.players.select_related("registration__player"))
    form = DealForm(data={}, seats=seat_info(players, sheet.table))
    form.is_valid()
    form.add_deal_error(refused.value)
    assert "le preneur a un partenaire" in " ".join(form.errors["partner"])


def test_a_passed_deal_keeps_no_reason():
    _tournament, _position, sheet = five_sheet()
    deal = deal_record(sheet=sheet, data={"passed": True, "alone": "dog", "dealer": 0})
    assert deal.passed and deal.alone == ""


# --- the phone page ------------------------------------------------------------------------


def test_the_phone_page_sends_the_reason_and_older_queued_deals_still_go(client):
    _tournament, position, sheet = five_sheet(entry_mode="phones", status="running")
    link = links_for_position(position)[0]
    page = client.get(reverse("table-entry", args=[link.token])).content.decode()
    assert 'value="alone"' in page and 'value="dog"' in page

    def send(client_id, deal):
        sheet.refresh_from_db()
        body = {"client_id": client_id, "version": sheet.version, "entered_by": 0, "deal": deal}
        body["pin"] = sheet.players.get(seat=0).registration.pin  # the enterer proves who they are
        return client.post(
            reverse("table-deal-create", args=[link.token]),
            json.dumps(body),
            content_type="application/json",
        )

    base = {**PRISE_API, "partner": None}
    assert send("phone-deal-0001", {**base, "alone": "dog", "dealer": 0}).status_code == 201
    assert send("phone-deal-0002", {**base, "alone": "self", "dealer": 4}).status_code == 201
    # A deal queued offline by the page before this change: no "alone" key.
    assert send("phone-deal-0003", {**base, "dealer": 3}).status_code == 201
    refused = send("phone-deal-0004", {**base, "partner": 2, "alone": "dog", "dealer": 2})
    assert refused.status_code == 400 and refused.json()["field"] == "alone"
    assert list(sheet.deals.order_by("number").values_list("alone", flat=True)) == [
        "dog",
        "self",
        "",
    ]
    rows = client.get(reverse("table-sheet", args=[link.token])).content.decode()
    # The row names the contract and the taker (seat E is JOUEUR2 here).
    assert "Prise · JOUEUR2 seul (roi au chien)" in rows
    assert "Prise · JOUEUR2 seul (appelé soi-même)" in rows


# --- the printed sheet, the history, the deal log ---------------------------------------------


def test_the_completed_sheet_pdf_says_roi_au_chien_or_appele_soi_meme(arbiter_client):
    _tournament, _position, sheet = five_sheet()
    prises(arbiter_client, sheet, ("E", "C"), ("E", "E"), ("E", "SEUL"), ("N", "S"))
    _reader, pages = fetch_pdf(arbiter_client, reverse("print-sheet", args=[sheet.pk]))
    text = " ".join(pages[0].split())
    assert re.search(r"Donne 1 Prise E roi au chien 1 40\b", text)
    # Two lines in the narrow column: the text reads back as "soi- même".
    assert re.search(r"Donne 2 Prise E appelé soi- ?même 1 40\b", text)
    assert re.search(r"Donne 3 Prise E seul 1 40\b", text)
    assert re.search(r"Donne 4 Prise N S 1 40\b", text)


def test_the_history_tells_the_reason_and_its_correction(arbiter_client):
    _tournament, _position, sheet = five_sheet()
    deal_post(arbiter_client, sheet, {"taker": "E", "partner": "C", **PRISE})
    deal = sheet.deals.get()
    sheet.refresh_from_db()
    response = arbiter_client.post(
        reverse("deal-edit", args=[deal.pk]),
        {"version": sheet.version, "dealer": 0, "side": "attack", "taker": "E",
         "partner": "E", **PRISE},
    )  # fmt: skip
    assert response.status_code in (200, 302)
    deal.refresh_from_db()
    assert deal.alone == "self"
    lines = [entry.summary for entry in sheet_history(sheet)]
    assert any("Donne 1 saisie" in line and "seul roi au chien" in line for line in lines)
    assert any("seul roi au chien → appelé soi-même" in line for line in lines)


def test_the_deal_log_says_why_the_taker_was_alone_in_the_partner_column(arbiter_client):
    tournament, _position, sheet = five_sheet()
    prises(arbiter_client, sheet, ("E", "C"), ("E", "E"), ("N", "S"))
    tournament.refresh_from_db()
    worksheet = openpyxl.load_workbook(io.BytesIO(deals_xlsx.build(tournament)))["Donnes"]
    rows = list(worksheet.iter_rows(values_only=True))
    records = [dict(zip(rows[1], row, strict=True)) for row in rows[2:]]
    assert [r["Associé"] for r in records] == [
        "seul : roi au chien",
        "seul : appelé soi-même",
        records[2]["Associé"],
    ]
    assert records[2]["Associé"].endswith("JOUEUR3")  # Sud, by name


# --- backups --------------------------------------------------------------------------------


def test_a_backup_round_trips_the_reason_and_older_backups_still_restore(arbiter_client):
    tournament, _position, sheet = five_sheet()
    prises(arbiter_client, sheet, ("E", "C"), ("E", "E"))
    document = tournament_export(tournament)
    assert [row["alone"] for row in document["sections"]["scoring.deal"]] == ["dog", "self"]

    restored = tournament_import(json.dumps(document))
    assert list(
        Deal.objects.filter(sheet__tournament=restored)
        .order_by("number")
        .values_list("alone", flat=True)
    ) == ["dog", "self"]

    older = json.loads(json.dumps(document))
    for row in older["sections"]["scoring.deal"]:
        del row["alone"]
    restored = tournament_import(json.dumps(older))
    deals = Deal.objects.filter(sheet__tournament=restored).order_by("number")
    assert list(deals.values_list("partner", "alone")) == [(None, ""), (None, "")]


@pytest.mark.parametrize("change", [{"partner": 2}, {"alone": "roi"}, {"passed": True}])
def test_a_backup_with_an_impossible_reason_is_refused(arbiter_client, change):
    tournament, _position, sheet = five_sheet()
    deal_post(arbiter_client, sheet, {"taker": "E", "partner": "C", **PRISE})
    document = tournament_export(tournament)
    document["sections"]["scoring.deal"][0].update(change)
    count = Tournament.objects.count(), Player.objects.count()
    with pytest.raises(BackupError) as refused:
        tournament_import(json.dumps(document))
    assert "seul" in str(refused.value) or "passée" in str(refused.value)
    assert (Tournament.objects.count(), Player.objects.count()) == count


def test_the_engine_never_reads_the_reason():
    # The reason never changes the score: the engine knows nothing of it.
    assert "alone" not in ENGINE_FIELDS


def test_anonymous_client_cannot_post_a_reason():
    _tournament, _position, sheet = five_sheet()
    response = Client().post(
        f"/api/feuilles/{sheet.pk}/donnes/",
        json.dumps({"version": 0, "deal": {**PRISE_API, "alone": "dog"}}),
        content_type="application/json",
    )
    assert response.status_code == 401
    assert sheet.deals.count() == 0
