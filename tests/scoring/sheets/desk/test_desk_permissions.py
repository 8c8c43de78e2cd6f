"""Who may use the desk: scorers and arbiters enter sheets; others are turned away."""

import pytest
from django.test import Client
from django.urls import reverse

from tests.desk_helpers import DEALS_004, deal_post, make_tournament, table_sheet
from tournament.models import TournamentRole

pytestmark = pytest.mark.django_db


@pytest.fixture
def sheet(arbiter_client):
    _tournament, position = make_tournament()
    return table_sheet(arbiter_client, position)


def test_anonymous_visitors_are_sent_to_the_login_page(sheet):
    response = Client().get(reverse("sheet-detail", args=[sheet.pk]))
    assert response.status_code == 302 and "/connexion/" in response["Location"]


def test_a_user_without_a_role_is_refused(sheet, django_user_model):
    client = Client()
    client.force_login(django_user_model.objects.create_user("curieux", password="x-123456"))
    assert client.get(reverse("sheet-detail", args=[sheet.pk])).status_code == 403
    assert client.post(reverse("sheet-detail", args=[sheet.pk]), {}).status_code == 403
    url = reverse("incident-list", args=[sheet.tournament_id])
    assert client.get(url).status_code == 403


def test_a_scorer_enters_and_corrects_deals(sheet, scorer):
    TournamentRole.objects.create(tournament=sheet.tournament, user=scorer, role="scorer")
    client = Client()
    client.force_login(scorer)
    assert deal_post(client, sheet, DEALS_004[0]).status_code == 200
    deal = sheet.deals.get()
    assert deal.created_by == scorer
    sheet.refresh_from_db()
    response = client.post(
        reverse("deal-delete", args=[deal.pk]), {"version": sheet.version}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 200 and not sheet.deals.exists()
