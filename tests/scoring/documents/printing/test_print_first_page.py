"""Printed rankings start their table on page 1, and every printed word and file name is French."""

import io

import pytest
from django.urls import reverse
from pypdf import PdfReader

from scoring.models import ScoreSheet
from scoring.sheets.generate import GenerateOptions, tournament_generate

pytestmark = pytest.mark.django_db


@pytest.fixture
def tournament():
    return tournament_generate(options=GenerateOptions(players=26, positions=4, finished=False))


def pages(response) -> list[str]:
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    return [page.extract_text() for page in PdfReader(io.BytesIO(response.content)).pages]


@pytest.mark.parametrize(
    ("query", "file_name"),
    [
        ("", "classement-individuel-"),
        ("?kind=position&position=1", "classement-position-"),
    ],
)
def test_a_long_ranking_starts_on_page_one_with_a_french_file_name(
    arbiter_client, tournament, query, file_name
):
    response = arbiter_client.get(reverse("print-ranking", args=[tournament.pk]) + query)
    text = pages(response)
    assert len(text) == 2
    first_line_of_table = text[0].split("Rang N° Nom Prénom", 1)
    # The heading row and at least twenty players fit under the title on page 1.
    assert len(first_line_of_table) == 2
    assert first_line_of_table[1].count("\n") >= 20
    assert f'filename="{file_name}' in response["Content-Disposition"]
    assert "individual" not in response["Content-Disposition"]


def test_a_team_ranking_file_is_named_in_french(arbiter_client):
    teams = tournament_generate(options=GenerateOptions(players=16, positions=2, team_size=2))
    response = arbiter_client.get(reverse("print-ranking", args=[teams.pk]) + "?kind=team")
    assert 'filename="classement-equipes-' in response["Content-Disposition"]


def test_a_complete_sheet_prints_complete_not_in_progress(arbiter_client, tournament):
    sheet = ScoreSheet.objects.filter(tournament=tournament).select_related("table__position")
    sheet = sheet.first()
    assert sheet.status == ScoreSheet.Status.COMPLETE
    # Typed at the desk, a full sheet keeps the stored status "in progress" until validated.
    ScoreSheet.objects.filter(pk=sheet.pk).update(status=ScoreSheet.Status.IN_PROGRESS)
    text = "\n".join(pages(arbiter_client.get(reverse("print-sheet", args=[sheet.pk]))))
    assert "Complète" in text
    assert "En cours" not in text

    sheet.deals.order_by("-number").first().delete()
    text = "\n".join(pages(arbiter_client.get(reverse("print-sheet", args=[sheet.pk]))))
    assert "En cours" in text
    assert "Complète" not in text
