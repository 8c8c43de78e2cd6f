"""The JSON deal API: scores, refusals naming the field, conflicts, permissions."""

import json

import pytest

from tests.desk_helpers import free_sheet

pytestmark = pytest.mark.django_db


@pytest.fixture
def sheet():
    names = ["Durand", "Dupont", "Dubois", "Despres"]
    return free_sheet(names, tournament="Soirée du club", date="2026-11-21")


def post(client, sheet, body):
    return client.post(
        f"/api/feuilles/{sheet.pk}/donnes/", json.dumps(body), content_type="application/json"
    )


GARDE = {"taker": 2, "contract": "garde", "oudlers": 2, "points": 49, "petit_au_bout": "attack"}


def test_a_deal_is_scored_and_the_version_moves(client, scorer, sheet):
    client.force_login(scorer)
    response = post(client, sheet, {"version": 0, "deal": GARDE})
    assert response.status_code == 201
    assert response.json()["scores"] == [-86, -86, 258, -86]
    assert response.json()["version"] == 1
    state = client.get(f"/api/feuilles/{sheet.pk}/").json()
    assert state["deals"] == [{"number": 1, "scores": [-86, -86, 258, -86]}]


def test_an_impossible_deal_names_the_field(client, scorer, sheet):
    client.force_login(scorer)
    response = post(client, sheet, {"version": 0, "deal": {**GARDE, "oudlers": 4}})
    assert response.status_code == 400
    assert response.json()["field"] == "oudlers"
    assert sheet.deals.count() == 0


def test_a_stale_version_is_a_conflict(client, scorer, sheet):
    client.force_login(scorer)
    assert post(client, sheet, {"version": 0, "deal": GARDE}).status_code == 201
    response = post(client, sheet, {"version": 0, "deal": GARDE})
    assert response.status_code == 409
    assert response.json()["version"] == 1
    assert sheet.deals.count() == 1


def test_garbage_body_is_a_400_not_a_500(client, scorer, sheet):
    client.force_login(scorer)
    response = client.post(
        f"/api/feuilles/{sheet.pk}/donnes/", "not json", content_type="application/json"
    )
    assert response.status_code == 400


def test_anonymous_users_cannot_record(client, sheet):
    """An API client is told in JSON, not sent to the login page."""
    response = post(client, sheet, {"version": 0, "deal": GARDE})
    assert response.status_code == 401
    assert response.json() == {"field": None, "error": "Connexion requise."}
    assert client.get(f"/api/feuilles/{sheet.pk}/").status_code == 401
    assert sheet.deals.count() == 0


def test_no_role_is_a_json_403_and_an_unknown_sheet_a_json_404(client, sheet, django_user_model):
    client.force_login(django_user_model.objects.create_user("joueur", password="pw-joueur-1"))
    response = post(client, sheet, {"version": 0, "deal": GARDE})
    assert response.status_code == 403
    assert response.json() == {"field": None, "error": "Accès refusé."}
    missing = client.post(
        "/api/feuilles/999999/donnes/", json.dumps({}), content_type="application/json"
    )
    assert missing.status_code == 404 and missing.json()["error"] == "Introuvable."
    assert sheet.deals.count() == 0
