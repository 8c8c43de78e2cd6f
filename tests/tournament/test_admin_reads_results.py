"""Django's admin reads a tournament's results, it does not change them: a deal's scores typed
there skipped the engine, the locks, the history and the live pages' revision (tried from
outside: every live page kept the old figures). What it still edits (a player's name or club)
moves the revision of every tournament the player is in."""

import pytest
from django.urls import reverse

from scoring.models import Deal, DealScore, Incident, ScoreSheet
from tournament.models import Position, Registration, Revision, Table, Team


@pytest.fixture
def superuser_client(client, django_user_model):
    user = django_user_model.objects.create_superuser("super", password="pw-super-long-1")
    client.force_login(user)
    return client


@pytest.mark.django_db
def test_results_are_read_only_in_the_admin(after_position_1, superuser_client):
    deal = Deal.objects.filter(sheet__tournament=after_position_1).first()
    before = list(deal.scores)
    change = reverse("admin:scoring_deal_change", args=[deal.pk])
    page = superuser_client.get(change)
    assert page.status_code == 200 and b'name="_save"' not in page.content  # to read
    answer = superuser_client.post(
        change, {"scores": "[390, -130, -130, -130]", "adjusted": "on", "_save": "1"}
    )
    assert answer.status_code == 403
    deal.refresh_from_db()
    assert list(deal.scores) == before
    for model in (Deal, DealScore, Incident, ScoreSheet, Registration, Team, Table, Position):
        meta = model._meta
        add = reverse(f"admin:{meta.app_label}_{meta.model_name}_add")
        assert superuser_client.get(add).status_code == 403, meta.model_name


@pytest.mark.django_db
def test_a_player_renamed_in_the_admin_moves_the_live_revision(after_position_1, superuser_client):
    registration = Registration.objects.filter(tournament=after_position_1).first()
    player = registration.player
    before = Revision.objects.get(pk=after_position_1.pk).number
    answer = superuser_client.post(
        reverse("admin:tournament_player_change", args=[player.pk]),
        {
            "last_name": "Robertson",
            "first_name": player.first_name,
            "licence": player.licence or "",
            "club": "Club renommé",
            "origin_club": player.origin_club_id or "",
            "_save": "1",
        },
    )
    assert answer.status_code == 302, answer.content[:2000]
    player.refresh_from_db()
    assert player.last_name == "Robertson"
    assert Revision.objects.get(pk=after_position_1.pk).number > before
