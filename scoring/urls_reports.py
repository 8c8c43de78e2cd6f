"""URLs of the rankings, exports and the players' public pages."""

from django.urls import path

from scoring.views import public as views_public
from scoring.views import reports as views_reports

urlpatterns = [
    path("tournois/<id:pk>/classement/", views_reports.ranking, name="ranking"),
    path(
        "tournois/<id:pk>/classement/joueur/<id:registration>/",
        views_reports.ranking_player,
        name="ranking-player",
    ),
    path(
        "tournois/<id:pk>/export/classement.xlsx",
        views_reports.export_ranking_xlsx,
        name="export-ranking-xlsx",
    ),
    path(
        "tournois/<id:pk>/export/donnes.xlsx",
        views_reports.export_deals_xlsx,
        name="export-deals-xlsx",
    ),
    path(
        "tournois/<id:pk>/export/donnes.csv",
        views_reports.export_deals_csv,
        name="export-deals-csv",
    ),
    path("public/<id:pk>/", views_public.public_tournament, name="public-tournament"),
    path(
        "public/<id:pk>/classement/",
        views_public.public_standings_partial,
        name="public-standings-partial",
    ),
    path("public/<id:pk>/moi/", views_public.public_me, name="public-me"),
    path("public/<id:pk>/joueurs/", views_public.public_players, name="public-players"),
    path(
        "public/<id:pk>/joueur/<id:registration>/",
        views_public.public_player,
        name="public-player",
    ),
]
