"""The shared roster is searched as the arbiter types: three letters find last month's player."""

import pytest
from django.urls import reverse

from tests.club_helpers import roster_club
from tournament.models import Player, Tournament

pytestmark = pytest.mark.django_db


def search(client, query, tournament=None):
    params = {"q": query}
    if tournament is not None:
        params["tournoi"] = tournament.pk
    return client.get(reverse("player-search"), params, headers={"HX-Request": "true"})


def test_three_letters_find_a_player_from_an_earlier_tournament(arbiter_client):
    earlier = Tournament.objects.create(name="Octobre", date="2026-10-17")
    player = Player.objects.create(
        origin_club=roster_club(), last_name="Grandjean", first_name="Odile", club="TC Beaune"
    )
    earlier.registrations.create(player=player, number=1)
    Player.objects.create(origin_club=roster_club(), last_name="Martin", first_name="Léa")
    response = search(arbiter_client, "gra")
    assert response.status_code == 200
    assert "GRANDJEAN Odile" in response.text
    assert "MARTIN" not in response.text
    assert "<html" not in response.text  # a partial for htmx


def test_search_by_licence_and_by_two_words(arbiter_client):
    Player.objects.create(
        origin_club=roster_club(), last_name="Martin", first_name="Léa", licence="7654321"
    )
    Player.objects.create(origin_club=roster_club(), last_name="Martin", first_name="Paul")
    assert "MARTIN Léa" in search(arbiter_client, "76543").text
    both = search(arbiter_client, "mar pau").text
    assert "MARTIN Paul" in both and "Léa" not in both


def test_results_offer_to_register_players_not_yet_in_the_tournament(arbiter_client):
    tournament = Tournament.objects.create(name="Open", date="2026-11-21")
    odile = Player.objects.create(
        origin_club=roster_club(), last_name="Grandjean", first_name="Odile"
    )
    gilles = Player.objects.create(
        origin_club=roster_club(), last_name="Grangier", first_name="Gilles"
    )
    tournament.registrations.create(player=odile, number=1)
    page = search(arbiter_client, "gran", tournament).text
    assert f'name="player" value="{gilles.pk}"' in page
    assert f'name="player" value="{odile.pk}"' not in page
    assert "inscrit" in page


def test_one_letter_asks_for_more(arbiter_client):
    Player.objects.create(origin_club=roster_club(), last_name="Martin")
    assert "MARTIN" not in search(arbiter_client, "m").text
