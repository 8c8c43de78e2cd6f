"""URLs of the statistics pages: a player's (public) and a tournament's (arbiter)."""

from django.urls import path

from scoring.views import statistics as views_statistics

urlpatterns = [
    path(
        "public/<id:pk>/joueur/<id:registration>/statistiques/",
        views_statistics.public_player_statistics,
        name="public-player-statistics",
    ),
    path(
        "tournois/<id:pk>/statistiques/",
        views_statistics.tournament_statistics,
        name="tournament-statistics",
    ),
]
