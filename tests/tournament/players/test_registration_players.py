"""Registering players: new ones, roster ones, licences unique, withdrawals and late arrivals."""

import pytest
from django.urls import reverse

from tests.club_helpers import roster_club
from tests.desk_helpers import register
from tournament.models import ChangeLog, Player, Position, Registration, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def tournament():
    return Tournament.objects.create(name="Open", date="2026-11-21")


def test_new_player_is_put_on_the_roster_and_numbered(arbiter_client, tournament):
    register(arbiter_client, tournament, last_name="Martin", first_name="Léa", licence="1234567")
    register(arbiter_client, tournament, last_name="Durand", first_name="Paul", club="TC Dijon")
    entries = list(tournament.registrations.order_by("number"))
    assert [(r.number, r.player.last_name) for r in entries] == [(1, "Martin"), (2, "Durand")]
    assert entries[0].player.licence == "1234567"
    assert entries[1].player.licence is None
    assert entries[1].first_position == 1


def test_licence_given_twice_is_refused_with_a_message_naming_the_holder(
    arbiter_client, tournament
):
    Player.objects.create(
        origin_club=roster_club(), last_name="Martin", first_name="Léa", licence="1234567"
    )
    response = register(arbiter_client, tournament, last_name="Petit", licence="1234567")
    assert response.status_code == 400
    assert "La licence 1234567 est déjà celle de MARTIN Léa." in response.text
    assert Player.objects.count() == 1
    assert not Registration.objects.exists()


def test_roster_player_registers_without_a_duplicate(arbiter_client, tournament):
    player = Player.objects.create(origin_club=roster_club(), last_name="Martin", first_name="Léa")
    register(arbiter_client, tournament, player=player.pk)
    response = register(arbiter_client, tournament, player=player.pk)
    assert Player.objects.count() == 1
    assert tournament.registrations.get().player == player
    messages = [str(m) for m in response.wsgi_request._messages]
    assert "MARTIN Léa a déjà une inscription à ce tournoi." in messages


def test_player_list_shows_registered_players(arbiter_client, tournament):
    register(arbiter_client, tournament, last_name="Martin", first_name="Léa")
    page = arbiter_client.get(reverse("player-list", args=[tournament.pk])).text
    assert "MARTIN Léa" in page
    assert "hx-get" in page and "input changed delay:200ms" in page


def test_withdrawal_stops_after_the_last_published_position_and_is_logged(
    arbiter_client, tournament
):
    register(arbiter_client, tournament, last_name="Martin")
    entry = tournament.registrations.get()
    Position.objects.create(tournament=tournament, number=1, status=Position.Status.CLOSED)
    Position.objects.create(tournament=tournament, number=2, status=Position.Status.PUBLISHED)
    Position.objects.create(tournament=tournament, number=3)
    arbiter_client.post(reverse("registration-withdraw", args=[tournament.pk, entry.pk]))
    entry.refresh_from_db()
    assert entry.status == Registration.Status.WITHDRAWN
    assert entry.withdrawn_after == 2
    assert entry.plays_position(2) and not entry.plays_position(3)
    log = ChangeLog.objects.get(object_type="registration", object_id=entry.pk, action="update")
    assert log.after == {"status": "withdrawn", "withdrawn_after": 2}


def test_late_player_plays_from_the_first_unpublished_position(arbiter_client, tournament):
    Position.objects.create(tournament=tournament, number=1, status=Position.Status.PUBLISHED)
    response = register(arbiter_client, tournament, last_name="Retard")
    entry = tournament.registrations.get()
    assert entry.first_position == 2
    assert not entry.plays_position(1) and entry.plays_position(2)
    assert ChangeLog.objects.filter(object_type="registration", object_id=entry.pk).exists()
    page = arbiter_client.get(response.url).text
    assert "Ajouter un joueur en retard" in page


def test_reinstating_undoes_a_withdrawal_and_refuses_a_player_who_never_left(
    arbiter_client, tournament
):
    register(arbiter_client, tournament, last_name="Martin")
    entry = tournament.registrations.get()
    reinstate = reverse("registration-reinstate", args=[tournament.pk, entry.pk])
    page = arbiter_client.post(reinstate, follow=True).text
    assert "n&#x27;a pas déclaré forfait" in page or "n'a pas déclaré forfait" in page
    assert not ChangeLog.objects.filter(object_id=entry.pk, before__status="active").exists()

    arbiter_client.post(reverse("registration-withdraw", args=[tournament.pk, entry.pk]))
    arbiter_client.post(reinstate)
    entry.refresh_from_db()
    assert entry.status == Registration.Status.ACTIVE and entry.withdrawn_after is None
    log = ChangeLog.objects.filter(object_type="registration", object_id=entry.pk).latest("pk")
    assert log.before["status"] == "withdrawn" and log.after == {"status": "active"}
