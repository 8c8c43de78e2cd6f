"""The paper cross-check: bilans typed from the paper sheet are compared with the computed ones."""

import pytest
from django.urls import reverse

from tests.desk_helpers import DEALS_004, deal_post, make_tournament, table_sheet
from tests.examples_004 import BILANS, in_seat_order

pytestmark = pytest.mark.django_db
# Seats N, E, S, W: DURAND, DUBOIS, DUPONT, DESPRES.
BY_SEAT = in_seat_order(BILANS, "NESW")
PAPER = {f"bilan_{seat}": bilan for seat, bilan in enumerate(BY_SEAT)}


@pytest.fixture
def entered(arbiter_client, after_position_1, sheet_004):
    return after_position_1, sheet_004


def crosscheck(client, sheet, bilans):
    sheet.refresh_from_db()
    return client.post(
        reverse("sheet-crosscheck", args=[sheet.pk]),
        {"version": sheet.version, **bilans},
        HTTP_HX_REQUEST="true",
    )


def test_matching_paper_bilans_make_the_sheet_cross_checked(arbiter_client, entered):
    tournament, sheet = entered
    html = crosscheck(arbiter_client, sheet, PAPER).content.decode()
    assert "Vérifiée" in html and "mismatch" not in html
    overview = arbiter_client.get(reverse("entry-overview", args=[tournament.pk, 1]))
    assert "Vérifiée" in overview.content.decode()
    sheet.refresh_from_db()
    assert sheet.paper_bilans == BY_SEAT


def test_a_mistyped_paper_bilan_is_flagged_on_the_sheet_and_the_overview(arbiter_client, entered):
    tournament, sheet = entered
    html = crosscheck(arbiter_client, sheet, {**PAPER, "bilan_3": -501}).content.decode()
    assert "Bilans papier différents" in html
    assert html.count('class="num mismatch"') == 1
    assert "≠ -510" in html
    overview = arbiter_client.get(reverse("entry-overview", args=[tournament.pk, 1]))
    html = overview.content.decode()
    assert "Bilans papier différents" in html and "Complète" in html


def test_the_overview_shows_what_is_missing(arbiter_client):
    tournament, position = make_tournament(tables=3)
    sheet = table_sheet(arbiter_client, position, 2)
    deal_post(arbiter_client, sheet, DEALS_004[0])
    html = arbiter_client.get(reverse("entry-overview", args=[tournament.pk, 1])).content.decode()
    assert "2 feuilles manquantes" in html
    assert "1 / 5" in html and "0 / 5" in html and "En cours" in html
    # The tab link without a position number opens the latest published position.
    assert arbiter_client.get(reverse("entry-overview", args=[tournament.pk])).status_code == 200


def test_a_desk_typed_sheet_with_a_paper_typo_is_no_disagreement_with_phones(
    arbiter_client, entered
):
    """Paper and phones (issue 38): a table whose every deal was typed at the desk has no
    phone to disagree with; its paper typo is named as such, the sheet stays complete."""
    tournament, sheet = entered
    tournament.entry_mode = "both"
    tournament.save(update_fields=["entry_mode"])
    crosscheck(arbiter_client, sheet, {**PAPER, "bilan_3": -501})
    overview = arbiter_client.get(reverse("entry-overview", args=[tournament.pk, 1]))
    html = overview.content.decode()
    assert "Désaccord papier / téléphones" not in html
    assert "Bilans papier différents" in html and "Complète" in html
    cockpit = arbiter_client.get(
        reverse("tournament-detail", args=[tournament.pk])
    ).content.decode()
    assert "Désaccord papier / téléphones" not in cockpit
    assert "Bilans papier différents" in cockpit


def test_the_overview_shows_a_validated_sheet_as_the_cockpit_does(arbiter_client, entered):
    tournament, sheet = entered
    crosscheck(arbiter_client, sheet, PAPER)
    sheet.refresh_from_db()
    response = arbiter_client.post(
        reverse("sheet-validate", args=[sheet.pk]), {"version": sheet.version, "validated": "1"}
    )
    assert response.status_code in (200, 302)
    sheet.refresh_from_db()
    assert sheet.status == "validated"
    overview = arbiter_client.get(reverse("entry-overview", args=[tournament.pk, 1]))
    row = overview.content.decode().split('id="table-1"')[1].split("</tr>")[0]
    assert "Validée" in row and "Vérifiée" not in row
    cockpit = arbiter_client.get(
        reverse("tournament-detail", args=[tournament.pk])
    ).content.decode()
    assert "Validée" in cockpit
