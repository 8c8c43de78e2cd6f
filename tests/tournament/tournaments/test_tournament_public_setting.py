"""The arbiter opens (and closes) the public standings from the tournament's settings form."""

import re

import pytest
from django.urls import reverse

from tests.tournament.players.test_registration_tournament import SETTINGS as CHALON
from tournament.models import Tournament

pytestmark = pytest.mark.django_db

# The creation form of test_registration_tournament, for an individual FFT tournament.
SETTINGS = CHALON | dict(format="individual", positions_count="4", remainder="five", rule_set="fft")


def test_arbiter_makes_a_tournament_public_then_private_again(arbiter_client, client):
    arbiter_client.post(reverse("tournament-create"), SETTINGS)
    tournament = Tournament.objects.get()
    assert not tournament.is_public
    public_url = reverse("public-tournament", args=[tournament.pk])
    edit_url = reverse("tournament-edit", args=[tournament.pk])

    arbiter_client.post(edit_url, SETTINGS | {"is_public": "on"})
    tournament.refresh_from_db()
    assert tournament.is_public
    checkbox = re.search(r'<input[^>]*name="is_public"[^>]*>', arbiter_client.get(edit_url).text)
    assert checkbox and "checked" in checkbox.group()
    arbiter_client.logout()
    assert arbiter_client.get(public_url).status_code == 200

    arbiter_client.force_login(tournament.owner)
    arbiter_client.post(edit_url, SETTINGS)  # an unticked box is not sent
    tournament.refresh_from_db()
    assert not tournament.is_public
    arbiter_client.logout()
    assert arbiter_client.get(public_url).status_code == 404
