"""URLs of the arbiter's cockpit (the tournament's first tab), the position clock and the hall
screen (a secret link, no login)."""

from django.urls import path

from scoring.views import cockpit as views_cockpit
from scoring.views import hall as views_hall

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
]
