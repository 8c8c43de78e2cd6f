"""Figure entry: a sheet typed from the official FFT sheet (contract, taker, taker's figure).

The arbiter types what the FFT sheet carries; the row fills itself, the engine refuses a figure
no real deal of that contract gives, and the totals, bilans, cross-check, ranking, exports and
backups work as for a sheet typed in detail.
"""

import json

import pytest
from django.db import connection
from django.db.models import Sum
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring.documents.backup import BackupError, tournament_export_json, tournament_import
from scoring.models import Deal, DealScore
from scoring.sheets.screen import load_sheet_view
from scoring.sheets.services import deal_record, sheet_for_table
from tests.desk_helpers import DEALS_004, NAMES_004, deal_post, make_tournament
from tests.examples_004 import BILANS, BILANS_BY_NAME, FIGURES
from tests.scoring.documents.printing.print_helpers import fetch_pdf
from tournament.models import Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def figures_sheet(arbiter_client):
    tournament, position = make_tournament(names=NAMES_004, sheet_style="figures")
    return tournament, sheet_for_table(table=position.tables.get())


def typed(client, sheet, fields):
    return deal_post(client, sheet, {"mode": "figures", **fields})


def test_the_004_sheet_typed_by_figures_gives_its_bilans(arbiter_client, figures_sheet):
    tournament, sheet = figures_sheet
    for number, fields in enumerate(FIGURES, start=1):
        response = typed(arbiter_client, sheet, fields)
        assert response.status_code == 200
        assert f'id="deal-{number}"' in response.content.decode()
    view = load_sheet_view(sheet)
    assert [c.name for c in view.columns] == ["DURAND", "DUPONT", "DUBOIS", "DESPRES"]
    assert view.bilans == BILANS
    assert view.zero_sum and view.state == "complete"
    # Each row fills itself: defenders −V, the taker as typed.
    assert [line.cells[2].score for line in view.lines] == [318, -76, 42, -92, -582]
    # The ranking reads the stored per-player scores, as for any deal.
    totals = dict(
        DealScore.objects.filter(deal__sheet=sheet)
        .values_list("registration__player__last_name")
        .annotate(total=Sum("points"))
    )
    assert totals == BILANS_BY_NAME
    # Stored without card fields: only what the FFT sheet says.
    deal = Deal.objects.get(sheet=sheet, number=1)
    assert deal.is_figure_only and deal.oudlers is None and deal.points is None
    assert (deal.contract, deal.taker) == ("garde", 1)  # Est is seat 1


def test_the_figure_form_is_the_tournaments_default_and_asks_only_the_fft_sheets_fields(
    arbiter_client, figures_sheet
):
    _tournament, sheet = figures_sheet
    page = arbiter_client.get(reverse("sheet-detail", args=[sheet.pk])).content.decode()
    form = page[page.index('id="deal-form"') :]
    assert 'name="figure"' in form and "Chiffre du preneur" in form
    assert 'name="oudlers"' not in form and 'name="points"' not in form
    assert 'name="mode" value="figures"' in form


def test_an_impossible_figure_is_refused_with_a_message_naming_the_field(
    arbiter_client, figures_sheet
):
    _tournament, sheet = figures_sheet
    # A prise gives the taker 3 × (15 at least): +30 is no real deal.
    html = typed(arbiter_client, sheet, {"contract": "P", "taker": "S", "figure": "30"})
    html = html.content.decode()
    assert 'id="error-figure"' in html
    assert "Chiffre du preneur" in html and "aucune donne jouée en Prise" in html
    assert not Deal.objects.filter(sheet=sheet).exists()
    # Not a multiple of 3 at a table of 4.
    html = typed(arbiter_client, sheet, {"contract": "G", "taker": "E", "figure": "317"})
    assert "multiple de 3" in html.content.decode()
    # The message names its field once ("Chiffre du preneur : Chiffre du preneur : …" was read).
    errors = html.content.decode().split('id="error-figure"')[1].split("</ul>")[0]
    assert errors.count("Chiffre du preneur") == 1
    # Nothing typed: the field asks for it.
    html = typed(arbiter_client, sheet, {"contract": "G", "taker": "E", "figure": ""})
    assert "Indiquez le chiffre du preneur" in html.content.decode()
    assert not Deal.objects.filter(sheet=sheet).exists()


def test_the_preview_fills_the_row_before_saving(arbiter_client, figures_sheet):
    _tournament, sheet = figures_sheet
    response = arbiter_client.post(
        reverse("deal-preview", args=[sheet.pk]),
        {"version": sheet.version, "dealer": 0, "mode": "figures", **FIGURES[0]},
    )
    html = response.content.decode()
    # Columns N, S, E, O: −106, −106, +318, −106.
    assert html.count(">106<") == 3 and ">318<" in html


def test_paper_bilans_cross_check_a_sheet_typed_by_figures(arbiter_client, figures_sheet):
    _tournament, sheet = figures_sheet
    for fields in FIGURES:
        typed(arbiter_client, sheet, fields)
    sheet.refresh_from_db()
    response = arbiter_client.post(
        reverse("sheet-crosscheck", args=[sheet.pk]),
        {"version": sheet.version, "bilan_0": -446, "bilan_2": 1346, "bilan_1": -390,
         "bilan_3": -510},
        HTTP_HX_REQUEST="true",
    )  # fmt: skip
    html = response.content.decode()
    assert "Vérifiée" in html and "mismatch" not in html


def test_a_figure_deal_is_corrected_with_its_own_form(arbiter_client, figures_sheet):
    _tournament, sheet = figures_sheet
    typed(arbiter_client, sheet, FIGURES[0])
    deal = Deal.objects.get(sheet=sheet)
    page = arbiter_client.get(reverse("deal-edit", args=[deal.pk])).content.decode()
    assert 'name="figure"' in page and 'value="318"' in page
    sheet.refresh_from_db()
    arbiter_client.post(
        reverse("deal-edit", args=[deal.pk]),
        {"version": sheet.version, "dealer": 0, "mode": "figures", "contract": "G",
         "taker": "E", "figure": "312"},
    )  # fmt: skip
    deal.refresh_from_db()
    assert deal.scores == [-104, 312, -104, -104]


def test_a_detailed_tournament_may_switch_its_sheet_page_to_figures(arbiter_client):
    _tournament, position = make_tournament(names=NAMES_004)
    sheet = sheet_for_table(table=position.tables.get())
    page = arbiter_client.get(reverse("sheet-detail", args=[sheet.pk])).content.decode()
    assert 'name="points"' in page and 'id="mode-figures"' in page
    page = arbiter_client.get(reverse("sheet-detail", args=[sheet.pk]) + "?mode=figures")
    assert 'name="figure"' in page.content.decode()
    html = typed(arbiter_client, sheet, FIGURES[0]).content.decode()
    # After the save the page stays in figure mode, and the detail says how the row was typed.
    assert 'name="mode" value="figures"' in html and "saisie au chiffre" in html


def test_a_table_of_five_fills_the_partners_figure(arbiter_client):
    _tournament, position = make_tournament(size=5, game="five", sheet_style="figures")
    sheet = sheet_for_table(table=position.tables.get())
    typed(arbiter_client, sheet, {"contract": "G", "taker": "N", "partner": "S", "figure": "136"})
    typed(arbiter_client, sheet, {"contract": "P", "taker": "E", "partner": "E", "figure": "-152"})
    first, second = Deal.objects.filter(sheet=sheet).order_by("number")
    assert first.scores == [136, -68, 68, -68, -68]  # N, E, S, W, 5e: taker 2V, partner V
    assert second.scores == [38, -152, 38, 38, 38]  # alone: 4V


def test_the_settings_form_offers_the_sheet_style(arbiter_client):
    tournament = Tournament.objects.create(name="Open", date="2026-11-21")
    page = arbiter_client.get(reverse("tournament-edit", args=[tournament.pk])).text
    assert 'name="sheet_style"' in page and "Feuille FFT (contrat et chiffre du preneur)" in page
    response = arbiter_client.post(
        reverse("tournament-edit", args=[tournament.pk]),
        {"name": "Open", "date": "2026-11-21", "format": "individual", "positions_count": "4",
         "deals_per_table_4": "5", "deals_per_table_5": "5", "deals_per_table_3": "6",
         "remainder": "five", "rule_set": "fft", "sheet_style": "figures"},
    )  # fmt: skip
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert tournament.sheet_style == "figures"


def test_a_backup_restores_figure_deals_and_the_sheet_style(arbiter, figures_sheet):
    tournament, sheet = figures_sheet
    for fields in ({"taker": 1, "contract": "garde", "figure": 318},
                   {"taker": 2, "contract": "prise", "figure": -126}):  # fmt: skip
        deal_record(sheet=sheet, data={"dealer": 0, **fields}, user=arbiter)
    restored = tournament_import(tournament_export_json(tournament), user=arbiter)
    assert restored.sheet_style == "figures"
    deals = Deal.objects.filter(sheet__tournament=restored).order_by("number")
    assert [d.scores for d in deals] == [[-106, 318, -106, -106], [42, 42, -126, 42]]
    assert all(d.is_figure_only for d in deals)


def test_a_backup_with_an_impossible_figure_is_refused(arbiter, figures_sheet):
    tournament, sheet = figures_sheet
    deal_record(sheet=sheet, data={"dealer": 0, "taker": 1, "contract": "garde", "figure": 318})
    document = json.loads(tournament_export_json(tournament))
    for row in document["sections"]["scoring.deal"]:
        row["scores"] = row["computed_scores"] = [-51, 153, -51, -51]  # odd V at garde
    with pytest.raises(BackupError, match="Chiffre du preneur"):
        tournament_import(json.dumps(document), user=arbiter)


def test_the_api_takes_a_figure_instead_of_the_card_fields(arbiter_client, figures_sheet):
    _tournament, sheet = figures_sheet
    url = reverse("api-deal-create", args=[sheet.pk])
    body = {"version": sheet.version, "deal": {"taker": 1, "contract": "garde", "figure": 318}}
    response = arbiter_client.post(url, json.dumps(body), content_type="application/json")
    assert response.status_code == 201, response.content
    both = {"taker": 1, "contract": "garde", "figure": 318, "oudlers": 2, "points": 49}
    response = arbiter_client.post(
        url, json.dumps({"version": sheet.version + 1, "deal": both}),
        content_type="application/json",
    )  # fmt: skip
    assert response.status_code == 400 and response.json()["field"] == "oudlers"


def test_the_completed_sheet_pdf_prints_figure_deals(arbiter_client, figures_sheet):
    _tournament, sheet = figures_sheet
    for fields in FIGURES:
        typed(arbiter_client, sheet, fields)
    _reader, pages = fetch_pdf(arbiter_client, reverse("print-sheet", args=[sheet.pk]))
    text = pages[0].replace("\N{MINUS SIGN}", "-")
    assert "Bilan -446 +1346 -390 -510" in text


def test_the_figure_sheet_page_costs_what_the_detailed_page_costs(
    arbiter_client, django_assert_max_num_queries
):
    counts = []
    for style, rows in (("detailed", DEALS_004), ("figures", FIGURES)):
        _tournament, position = make_tournament(names=NAMES_004, sheet_style=style)
        sheet = sheet_for_table(table=position.tables.get())
        for fields in rows[:3]:
            deal_post(arbiter_client, sheet, {"mode": style, **fields})
        with CaptureQueriesContext(connection) as captured:
            arbiter_client.get(reverse("sheet-detail", args=[sheet.pk]))
        counts.append(len(captured))
        for fields in rows[3:]:
            deal_post(arbiter_client, sheet, {"mode": style, **fields})
        with django_assert_max_num_queries(counts[-1]):  # two more deals, no more queries
            arbiter_client.get(reverse("sheet-detail", args=[sheet.pk]))
    assert counts[0] == counts[1]
