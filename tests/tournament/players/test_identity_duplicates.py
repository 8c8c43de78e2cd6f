"""Likely duplicates at the desk (same name and club, accents ignored) and merging two roster
players: allowed, refused, and logged in every tournament concerned."""

import pytest
from django.contrib.auth.models import Group
from django.core.exceptions import ValidationError
from django.urls import reverse

from tests.club_helpers import join_club, roster_club
from tests.desk_helpers import register
from tournament.access.roles import ARBITER
from tournament.models import ChangeLog, Player, Registration, Tournament
from tournament.players.identity import player_merge

pytestmark = pytest.mark.django_db


@pytest.fixture
def tournament():
    return Tournament.objects.create(name="Open", date="2026-11-21")


def test_same_name_and_club_asks_before_creating_a_player(arbiter_client, tournament):
    known = Player.objects.create(
        origin_club=roster_club(), last_name="Lefèvre", first_name="Hélène", club="TC Dijon"
    )
    response = register(
        arbiter_client, tournament, last_name="LEFEVRE", first_name="helene", club="tc dijon"
    )
    assert response.status_code == 200
    assert "peut-être déjà dans le fichier des joueurs" in response.text
    assert "LEFÈVRE Hélène (TC Dijon)" in response.text
    assert f'name="player" value="{known.pk}"' in response.text
    assert "C'est un autre joueur : l'inscrire" in response.text
    assert not tournament.registrations.exists()
    assert Player.objects.count() == 1

    # "C'est un autre joueur": a second roster player, registered.
    response = register(
        arbiter_client,
        tournament,
        last_name="LEFEVRE",
        first_name="helene",
        club="tc dijon",
        other_player="1",
    )
    assert response.status_code == 302
    assert Player.objects.count() == 2
    assert tournament.registrations.get().player.last_name == "LEFEVRE"


def test_another_club_or_another_licence_is_not_a_duplicate(arbiter_client, tournament):
    Player.objects.create(
        origin_club=roster_club(), last_name="Garcia", first_name="Valérie", club="TC Dijon"
    )
    Player.objects.create(
        origin_club=roster_club(),
        last_name="Garcia",
        first_name="Valérie",
        club="Beaune",
        licence="0000001",
    )
    assert register(arbiter_client, tournament, last_name="Garcia", first_name="Valérie",
                    club="TC Chalon").status_code == 302  # fmt: skip
    assert register(arbiter_client, tournament, last_name="Garcia", first_name="Valérie",
                    club="Beaune", licence="0000002").status_code == 302  # fmt: skip
    assert Player.objects.count() == 4


def test_the_same_licence_is_the_same_person(arbiter_client, tournament):
    known = Player.objects.create(
        origin_club=roster_club(), last_name="Côté", first_name="François", licence="0412345"
    )
    response = register(arbiter_client, tournament, last_name="COTE", first_name="Francois",
                        licence="412345")  # fmt: skip
    assert response.status_code == 302
    assert Player.objects.count() == 1
    assert tournament.registrations.get().player == known


# --- merging --------------------------------------------------------------------------------


@pytest.fixture
def two_tournaments(arbiter):
    first = Tournament.objects.create(name="Septembre", date="2026-09-19")
    second = Tournament.objects.create(name="Octobre", date="2026-10-17")
    keep = Player.objects.create(
        origin_club=roster_club(), last_name="Lefèvre", first_name="Hélène", club="TC Dijon"
    )
    drop = Player.objects.create(
        origin_club=roster_club(), last_name="LEFEVRE", first_name="Helene", licence="0412345"
    )
    Registration.objects.create(tournament=first, player=keep, number=1)
    Registration.objects.create(tournament=second, player=drop, number=7)
    return first, second, keep, drop


def test_merge_moves_the_registrations_keeps_the_licence_and_logs_both_tournaments(
    arbiter, two_tournaments
):
    first, second, keep, drop = two_tournaments
    merged = player_merge(keep=keep, drop=drop, user=arbiter)
    assert not Player.objects.filter(pk=drop.pk).exists()
    assert merged.licence == "0412345" and merged.club == "TC Dijon"
    assert second.registrations.get().player == merged
    assert second.registrations.get().number == 7
    logs = ChangeLog.objects.filter(object_type="player", object_id=keep.pk)
    assert sorted(log.tournament_id for log in logs) == [first.pk, second.pk]
    log = logs.get(tournament=second)
    assert log.before["merged"]["name"] == "LEFEVRE Helene"
    assert log.before["merged"]["tournaments"] == [second.pk]
    assert log.after["kept"]["tournaments"] == [first.pk, second.pk]
    assert log.user == arbiter


def test_merge_is_refused_when_both_play_the_same_tournament(arbiter, two_tournaments):
    first, _second, keep, drop = two_tournaments
    Registration.objects.create(tournament=first, player=drop, number=2)
    with pytest.raises(ValidationError) as refused:
        player_merge(keep=keep, drop=drop, user=arbiter)
    assert "tous deux inscrits au tournoi « Septembre »" in refused.value.messages[0]
    assert Player.objects.filter(pk=drop.pk).exists()
    assert not ChangeLog.objects.filter(object_type="player").exists()


def test_merge_is_refused_to_who_does_not_run_every_tournament_concerned(
    django_user_model, two_tournaments
):
    first, second, keep, drop = two_tournaments
    other = django_user_model.objects.create_user("voisin", password="pw-voisin-1")
    other.groups.add(Group.objects.get_or_create(name=ARBITER)[0])
    join_club(other)
    first.owner = other
    first.save()  # runs the first tournament, not the second
    with pytest.raises(ValidationError) as refused:
        player_merge(keep=keep, drop=drop, user=other)
    assert "un tournoi que vous n'arbitrez pas" in refused.value.messages[0]
    assert Player.objects.filter(pk=drop.pk).exists()
    admin = django_user_model.objects.create_superuser("admin", password="pw-admin-1")
    player_merge(keep=keep, drop=drop, user=admin)
    assert not Player.objects.filter(pk=drop.pk).exists()


def test_merge_is_refused_for_two_licences(arbiter, two_tournaments):
    _first, _second, keep, drop = two_tournaments
    keep.licence = "0000001"
    keep.save()
    with pytest.raises(ValidationError) as refused:
        player_merge(keep=keep, drop=drop, user=arbiter)
    assert "les licences diffèrent" in refused.value.messages[0]


def test_the_merge_page_lists_same_name_players_and_merges_with_constant_queries(
    arbiter_client, arbiter, two_tournaments, django_assert_max_num_queries
):
    first, second, keep, drop = two_tournaments
    url = reverse("player-merge")
    with django_assert_max_num_queries(12):
        page = arbiter_client.get(url, {"garder": keep.pk})
    assert page.status_code == 200
    assert "LEFEVRE Helene (licence 0412345) — Octobre" in page.text
    Player.objects.bulk_create(
        Player(origin_club=roster_club(), last_name="Lefevre", first_name=f"X{i}")
        for i in range(20)
    )
    with django_assert_max_num_queries(12):
        assert arbiter_client.get(url, {"garder": keep.pk}).status_code == 200
    response = arbiter_client.post(url, {"keep": keep.pk, "drop": drop.pk})
    assert response.status_code == 302
    assert second.registrations.get().player_id == keep.pk


def test_the_merge_page_shows_a_refusal(arbiter_client, two_tournaments):
    first, _second, keep, drop = two_tournaments
    Registration.objects.create(tournament=first, player=drop, number=2)
    response = arbiter_client.post(reverse("player-merge"), {"keep": keep.pk, "drop": drop.pk})
    assert response.status_code == 400
    assert "tous deux inscrits au tournoi « Septembre »" in response.text


def test_a_scorer_cannot_open_the_merge_page(client, scorer, two_tournaments):
    client.force_login(scorer)
    assert client.get(reverse("player-merge")).status_code == 403
