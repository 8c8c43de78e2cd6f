"""URLs of the season: championships (the organisers' pages and the public page), circuits (an
invited club's pages), statistics (a player's, public; a tournament's, arbiter), a club's public
pages and a licence holder's."""

from django.urls import path

from scoring.season.views import championship as views
from scoring.season.views import circuit as views_circuit
from scoring.season.views import club as views_club
from scoring.season.views import statistics as views_statistics

urlpatterns = [
    path("championnats/", views.championship_list, name="championship-list"),
    path("championnats/nouveau/", views.championship_create, name="championship-create"),
    path("championnats/<id:pk>/", views.championship_detail, name="championship-detail"),
    path("championnats/circuits/", views_circuit.circuit_list, name="circuit-list"),
    path("championnats/circuits/<id:pk>/", views_circuit.circuit_detail, name="circuit-detail"),
    path(
        "championnats/circuits/<id:pk>/tournois/<id:tournament>/ajouter/",
        views_circuit.circuit_tournament_add_view,
        name="circuit-tournament-add",
    ),
    path(
        "championnats/circuits/<id:pk>/tournois/<id:tournament>/retirer/",
        views_circuit.circuit_tournament_remove_view,
        name="circuit-tournament-remove",
    ),
    path("championnats/<id:pk>/modifier/", views.championship_edit, name="championship-edit"),
    path(
        "championnats/<id:pk>/joueur/<id:player>/",
        views.championship_player,
        name="championship-player",
    ),
    path(
        "public/championnat/<id:pk>/",
        views.public_championship,
        name="public-championship",
    ),
    path(
        "public/championnat/<id:pk>/joueur/<id:player>/",
        views.public_championship_player,
        name="public-championship-player",
    ),
    path(
        "public/<id:pk>/joueur/<id:registration>/statistiques/",
        views_statistics.public_player_statistics,
        name="public-player-statistics",
    ),
    path("public/clubs/", views_club.public_club_list, name="public-clubs"),
    path("public/clubs/<id:pk>/", views_club.public_club, name="public-club"),
    path(
        "public/<id:pk>/joueur/<id:registration>/parcours/",
        views_club.public_person,
        name="public-person",
    ),
    path(
        "tournois/<id:pk>/statistiques/",
        views_statistics.tournament_statistics,
        name="tournament-statistics",
    ),
]
