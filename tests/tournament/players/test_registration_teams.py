"""Teams: players put into duos or teams of four by hand, never beyond the format's size."""

import pytest
from django.urls import reverse

from tournament.models import Player, Team, Tournament

pytestmark = pytest.mark.django_db


def make(format_, count):
    tournament = Tournament.objects.create(name="Open", date="2026-11-21", format=format_)
    entries = [
        tournament.registrations.create(
            player=Player.objects.create(last_name=f"Joueur{n}"), number=n
        )
        for n in range(1, count + 1)
    ]
    return tournament, entries


def assign(client, tournament, name, entries):
    return client.post(
        reverse("team-assign", args=[tournament.pk]),
        {"name": name, "members": [e.pk for e in entries]},
    )


def test_arbiter_makes_a_team_of_four(arbiter_client):
    tournament, entries = make("team4", 5)
    response = assign(arbiter_client, tournament, "Les Bouts", entries[:4])
    assert response.status_code == 302
    team = Team.objects.get()
    assert sorted(m.number for m in team.members.all()) == [1, 2, 3, 4]
    page = arbiter_client.get(reverse("team-list", args=[tournament.pk])).text
    assert "Les Bouts" in page and "4/4" in page


def test_team_larger_than_its_format_is_refused_and_nothing_changes(arbiter_client):
    tournament, entries = make("duo", 3)
    response = assign(arbiter_client, tournament, "Trio", entries)
    assert response.status_code == 400
    assert "L&#x27;équipe Trio aurait 3 joueurs : la formule en prévoit 2." in response.text
    assert not Team.objects.exists()
    assert not tournament.registrations.filter(team__isnull=False).exists()


def test_completing_an_existing_team_counts_its_members(arbiter_client):
    tournament, entries = make("duo", 3)
    assign(arbiter_client, tournament, "Duo", entries[:2])
    response = assign(arbiter_client, tournament, "Duo", entries[2:])
    assert response.status_code == 400
    assert Team.objects.get().members.count() == 2


def test_individual_tournament_has_no_teams(arbiter_client):
    tournament, entries = make("individual", 2)
    response = assign(arbiter_client, tournament, "Duo", entries)
    assert response.status_code == 400
    assert not Team.objects.exists()


def test_removing_the_last_member_deletes_the_team(arbiter_client):
    tournament, entries = make("duo", 2)
    assign(arbiter_client, tournament, "Duo", entries)
    for entry in entries:
        arbiter_client.post(reverse("team-member-remove", args=[tournament.pk, entry.pk]))
    assert not Team.objects.exists()
