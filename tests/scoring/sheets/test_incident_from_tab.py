""" "Nouvel incident" from the Incidents tab asks the position and table, with the tournament's
own tables only; the incident lands on that table's sheet, and a player from another table is
refused."""

import pytest
from django.urls import reverse

from scoring.models import Incident
from tests.conftest import browser_login
from tests.desk_helpers import make_tournament
from tournament.models import Registration

DECISION = "Renonce constatée à la table 2"


def url(tournament) -> str:
    return reverse("incident-create", args=[tournament.pk])


def post_renonce(client, tournament, table, culprit, **more):
    """A renonce of 10 penalty points at `table` by `culprit`, posted from the tab."""
    data = {"table": table.pk, "kind": "renonce_defence", "registration": culprit.pk}
    return client.post(url(tournament), {**data, "penalty_points": 10, **more})


@pytest.mark.django_db
def test_the_tab_form_offers_this_tournaments_tables_only(arbiter_client):
    tournament, position = make_tournament(tables=2)
    _other, other_position = make_tournament(tables=1, name="Autre tournoi")
    html = arbiter_client.get(url(tournament)).content.decode()
    assert "Position et table" in html
    assert "Position 1 — table 1" in html and "Position 1 — table 2" in html
    foreign = other_position.tables.get()
    culprit = position.tables.get(number=1).seats.first().registration
    response = post_renonce(arbiter_client, tournament, foreign, culprit)
    assert response.status_code == 200 and not Incident.objects.exists()


@pytest.mark.django_db
def test_an_incident_from_the_tab_lands_on_its_tables_sheet(arbiter_client):
    tournament, position = make_tournament(tables=2)
    table = position.tables.get(number=2)
    culprit = table.seats.first().registration
    response = post_renonce(
        arbiter_client, tournament, table, culprit, deal_number=2, decision=DECISION
    )
    assert response.status_code == 302
    incident = Incident.objects.get()
    assert incident.sheet.table == table and incident.deal_number == 2
    # A player of table 1 is refused for table 2.
    stranger = position.tables.get(number=1).seats.first().registration
    response = post_renonce(arbiter_client, tournament, table, stranger)
    assert "pas assis à cette table" in response.content.decode()
    assert Incident.objects.count() == 1


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_arbiter_names_position_and_table_from_the_tab(desk_page, live_server, arbiter):
    tournament, position = make_tournament(tables=2)
    culprit = Registration.objects.get(tournament=tournament, number=5)  # table 2, North
    page = desk_page
    browser_login(page, live_server, "arbitre-test", "pw-arbitre-1")
    page.goto(f"{live_server.url}/tournois/{tournament.pk}/incidents/")
    page.get_by_role("link", name="Nouvel incident").click()
    page.get_by_label("Position et table").select_option(label="Position 1 — table 2")
    page.get_by_label("Type").select_option("renonce_defence")
    page.get_by_label("Joueur fautif").select_option(str(culprit.pk))
    page.get_by_label("Points de pénalité").fill("10")
    page.get_by_role("button", name="Enregistrer l'incident").click()
    page.wait_for_url("**/feuilles/*/")
    incident = Incident.objects.get()
    assert incident.sheet.table.number == 2 and incident.registration == culprit
