"""URLs of a tournament itself: the desk's list, creating one, its settings, finishing and
reopening it, closing and reopening a position, naming its staff."""

from django.urls import path

from tournament.tournaments.views import lifecycle, tournaments

urlpatterns = [
    path("tournois/", tournaments.tournament_list, name="tournament-list"),
    path("tournois/nouveau/", tournaments.tournament_create, name="tournament-create"),
    path("tournois/<id:pk>/modifier/", tournaments.tournament_edit, name="tournament-edit"),
    path(
        "tournois/<id:pk>/terminer/",
        lifecycle.tournament_finish,
        name="tournament-finish",
    ),
    path(
        "tournois/<id:pk>/rouvrir/",
        lifecycle.tournament_reopen,
        name="tournament-reopen",
    ),
    path(
        "tournois/<id:pk>/equipe-arbitrale/",
        lifecycle.tournament_staff,
        name="tournament-staff",
    ),
    path(
        "tournois/<id:pk>/equipe-arbitrale/<id:role>/retirer/",
        lifecycle.tournament_staff_remove,
        name="tournament-staff-remove",
    ),
    path(
        "tournois/<id:pk>/positions/<id:number>/clore/",
        lifecycle.position_close,
        name="position-close",
    ),
    path(
        "tournois/<id:pk>/positions/<id:number>/rouvrir/",
        lifecycle.position_reopen,
        name="position-reopen",
    ),
]
