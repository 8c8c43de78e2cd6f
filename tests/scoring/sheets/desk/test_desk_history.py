"""A sheet's history reads in French words, with seats and names, never as raw JSON."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring.sheets.history import sheet_history
from tests.desk_helpers import DEALS_004, deal_post, incident_post, make_tournament, table_sheet

pytestmark = pytest.mark.django_db


@pytest.fixture
def sheet(arbiter_client, sheet_004):
    return sheet_004


def edit(client, sheet, number: int, fields: dict):
    sheet.refresh_from_db()
    deal = sheet.deals.get(number=number)
    data = {"version": sheet.version, "dealer": deal.dealer, "side": "attack", **fields}
    return client.post(reverse("deal-edit", args=[deal.pk]), data)


def page(client, sheet) -> str:
    response = client.get(reverse("sheet-history", args=[sheet.pk]))
    assert response.status_code == 200
    return response.content.decode()


def test_a_correction_reads_as_what_changed_with_seats_names_and_french_contracts(
    arbiter_client, sheet
):
    # Deal 3 was Sud's prise; it was Est's garde.
    edit(arbiter_client, sheet, 3, {**DEALS_004[2], "taker": "E", "contract": "G", "poignees": ""})
    newest = sheet_history(sheet)[0]
    assert newest.title == "Donne 3"
    assert newest.details[:2] == ["preneur Sud (DUPONT) → Est (DUBOIS)", "contrat prise → garde"]
    assert newest.summary.startswith(
        "Donne 3 : preneur Sud (DUPONT) → Est (DUBOIS) ; contrat prise → garde ; "
        "poignées simple Sud (DUPONT) → aucune ; scores "
    )
    html = page(arbiter_client, sheet)
    assert "preneur Sud (DUPONT) → Est (DUBOIS)" in html
    assert "contrat prise → garde" in html


def test_the_history_page_has_no_raw_json_nor_english(arbiter_client, sheet):
    html = page(arbiter_client, sheet)
    for raw in ('"taker"', '"contract"', "&quot;taker&quot;", "garde_sans", "deal 6", "deal 1"):
        assert raw not in html
    assert "Donne 2 saisie" in html
    assert "preneur Ouest (DESPRES)" in html and "contrat garde sans" in html
    assert "petit au bout défense" in html
    assert "chelem attaque" in html and "chelem annoncé oui" in html
    assert "scores Nord −106, Sud −106, Est +318, Ouest −106" in html


def test_deletions_conflicts_incidents_bilans_and_validation_read_in_words(arbiter_client, sheet):
    tournament = sheet.tournament
    sheet.refresh_from_db()
    stale = sheet.version
    deal = sheet.deals.get(number=5)
    arbiter_client.post(reverse("deal-delete", args=[deal.pk]), {"version": sheet.version})
    deal_post(arbiter_client, sheet, DEALS_004[4], version=stale)  # refused: the sheet moved
    culprit = sheet.players.get(direction="E").registration
    incident_post(
        arbiter_client, tournament, sheet, culprit, kind="fausse_donne", deal_number=5,
        decision="redonne",
    )  # fmt: skip
    sheet.refresh_from_db()
    arbiter_client.post(
        reverse("sheet-crosscheck", args=[sheet.pk]),
        {"version": sheet.version, "bilan_0": "-446", "bilan_1": "", "bilan_2": "", "bilan_3": ""},
    )
    sheet.refresh_from_db()
    arbiter_client.post(
        reverse("sheet-validate", args=[sheet.pk]), {"version": sheet.version, "validated": "1"}
    )
    summaries = [entry.summary for entry in sheet_history(sheet)]
    assert summaries[0] == "Feuille validée : état En cours → Validée"
    assert summaries[1].startswith("Bilans de la feuille papier : — → Nord −446")
    assert summaries[2] == (
        "Incident : Fausse donne : joueur DUBOIS ; donne 5 ; 0 points de pénalité ; "
        "décision : redonne"
    )
    assert summaries[3].startswith("Saisie refusée : la feuille avait changé")
    assert "preneur Sud (DUPONT) ; contrat garde" in summaries[3]
    assert summaries[4].startswith("Donne 5 supprimée : preneur Sud (DUPONT) ; contrat garde")
    html = page(arbiter_client, sheet)
    assert "Saisie refusée" in html and "Conflit de saisie" in html


def test_the_history_page_costs_the_same_queries_for_a_short_and_a_long_history(
    arbiter_client,
):
    counts = []
    for deals in (1, 5):
        _tournament, position = make_tournament(name=f"T{deals}")
        sheet = table_sheet(arbiter_client, position)
        for fields in DEALS_004[:deals]:
            deal_post(arbiter_client, sheet, fields)
        with CaptureQueriesContext(connection) as ctx:
            page(arbiter_client, sheet)
        counts.append(len(ctx.captured_queries))
    assert counts[0] == counts[1]
