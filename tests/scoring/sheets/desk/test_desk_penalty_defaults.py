"""A penalty left blank is never silently 0: the organiser's default, the rules', or a question.

The FFT rules (004, 000) state the sanction of a fausse donne, a revoke in defence and a petit
sec without penalty points (0 by default); they give no figure for the other faults, so an
incident of those with no amount and no organiser's default asks for the amount.
"""

import re

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from scoring.core.penalties import RULE_PENALTY_DEFAULTS, default_penalty
from scoring.models import Incident
from scoring.sheets.services import incident_record
from tests.desk_helpers import incident_post, make_tournament


def test_the_organiser_s_amount_comes_first_even_zero_then_the_rules():
    assert default_penalty("renonce_taker", {"renonce_taker": 40}) == 40
    assert default_penalty("carte_exposee", {"carte_exposee": 0}) == 0
    assert default_penalty("fausse_donne", {}) == 0
    assert default_penalty("fausse_donne", {"fausse_donne": 20}) == 20
    assert default_penalty("renonce_taker", {}) is None
    assert default_penalty("ethics", None) is None


def test_the_rules_defaults_are_only_the_faults_the_rules_sanction_without_points():
    assert RULE_PENALTY_DEFAULTS == {"fausse_donne": 0, "renonce_defence": 0, "petit_sec": 0}
    assert set(RULE_PENALTY_DEFAULTS) <= set(Incident.Kind.values)


def post_incident(client, tournament, sheet, **fields):
    """An incident of Sud's player."""
    culprit = sheet.players.get(direction="S").registration
    return incident_post(client, tournament, sheet, culprit, **fields)


@pytest.mark.django_db
def test_a_renonce_left_blank_without_default_asks_for_the_amount(arbiter_client, desk_sheet_004):
    tournament, sheet = desk_sheet_004
    response = post_incident(arbiter_client, tournament, sheet, kind="renonce_taker")
    html = response.content.decode()
    assert response.status_code == 200
    assert "Points de pénalité : ni le tournoi ni le règlement" in html
    assert "« Renonce du preneur »" in html
    assert not Incident.objects.exists()
    # With the amount, it is recorded.
    post_incident(arbiter_client, tournament, sheet, kind="renonce_taker", penalty_points=0)
    assert Incident.objects.get().penalty_points == 0


@pytest.mark.django_db
def test_the_organiser_s_default_applies_to_a_blank_amount(arbiter_client, desk_sheet_004):
    tournament, sheet = desk_sheet_004
    tournament.penalty_defaults = {"renonce_taker": 40}
    tournament.save()
    response = post_incident(arbiter_client, tournament, sheet, kind="renonce_taker")
    assert response.status_code == 302
    assert Incident.objects.get().penalty_points == 40


@pytest.mark.django_db
def test_a_fausse_donne_left_blank_costs_no_points_as_the_rules_say(arbiter_client, desk_sheet_004):
    tournament, sheet = desk_sheet_004
    response = post_incident(arbiter_client, tournament, sheet, kind="fausse_donne", deal_number=1)
    assert response.status_code == 302
    assert Incident.objects.get().penalty_points == 0


@pytest.mark.django_db
def test_the_service_refuses_a_missing_amount_naming_the_field(desk_sheet_004):
    tournament, sheet = desk_sheet_004
    culprit = sheet.players.first().registration
    with pytest.raises(ValidationError) as refused:
        incident_record(tournament=tournament, kind="ethics", registration=culprit, sheet=sheet)
    assert "penalty_points" in refused.value.message_dict
    assert not Incident.objects.exists()


@pytest.mark.django_db
def test_the_settings_page_shows_the_rules_defaults_and_keeps_an_explicit_zero(arbiter_client):
    tournament, _position = make_tournament()
    url = reverse("penalty-settings", args=[tournament.pk])
    html = arbiter_client.get(url).content.decode()
    assert 'name="kind_fausse_donne" value="0"' in html
    assert 'name="kind_renonce_defence" value="0"' in html
    renonce_taker = re.search(r'<input[^>]*name="kind_renonce_taker"[^>]*>', html).group(0)
    assert "value=" not in renonce_taker  # no default in the rules: left blank
    assert "ne peut pas enchérir à la donne suivante" in html
    assert "Le règlement ne fixe pas de montant" in html
    response = arbiter_client.post(url, {"kind_carte_exposee": 0, "kind_renonce_taker": 50})
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert tournament.penalty_defaults == {"carte_exposee": 0, "renonce_taker": 50}
