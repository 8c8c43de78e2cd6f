"""URLs of the evening as it is followed: the arbiter's cockpit (the tournament's first tab), the
position clock, the hall screen (a secret link, no login), the rankings and the public pages."""

from django.urls import path

from scoring.live.views import cockpit as views_cockpit
from scoring.live.views import hall as views_hall
from scoring.live.views import public as views_public
from scoring.live.views import reports as views_reports
from scoring.live.views import table as views_table

urlpatterns = [
    path("tournois/<id:pk>/", views_cockpit.tournament_detail, name="tournament-detail"),
    path("tournois/<id:pk>/direct/", views_cockpit.cockpit_live, name="cockpit-live"),
    path(
        "tournois/<id:pk>/positions/<id:number>/horloge/",
        views_cockpit.position_clock,
        name="position-clock",
    ),
    path(
        "tournois/<id:pk>/ecran-de-salle/lien/",
        views_cockpit.hall_link_create,
        name="hall-link-create",
    ),
    path(
        "tournois/<id:pk>/ecran-de-salle/revoquer/",
        views_cockpit.hall_link_revoke,
        name="hall-link-revoke",
    ),
    path(
        "tournois/<id:pk>/ecran-de-salle/annonce/",
        views_cockpit.hall_announcement,
        name="hall-announcement",
    ),
    path(
        "tournois/<id:pk>/appels/<id:call>/prendre/",
        views_cockpit.call_take,
        name="call-take",
    ),
    path(
        "tournois/<id:pk>/joueurs/<id:registration>/code/",
        views_cockpit.code_unlock,
        name="code-unlock",
    ),
    path("salle/<str:token>/", views_hall.hall_page, name="hall-screen"),
    path("salle/<str:token>/diapos/", views_hall.hall_slides, name="hall-slides"),
    path("tournois/<id:pk>/classement/", views_reports.ranking, name="ranking"),
    path(
        "tournois/<id:pk>/classement/joueur/<id:registration>/",
        views_reports.ranking_player,
        name="ranking-player",
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
    # A table's phone page and its running sheet (the rest of the phone's paths: scoring.sheets).
    path("table/<str:token>/", views_table.table_entry_page, name="table-entry"),
    path("table/<str:token>/feuille/", views_table.table_sheet_partial, name="table-sheet"),
]
