"""URLs of the arbiter's desk: tournaments, players, teams and positions."""

from django.urls import path

from . import views_desk as views
from . import views_lifecycle

urlpatterns = [
    path("tournois/", views.tournament_list, name="tournament-list"),
    path("tournois/nouveau/", views.tournament_create, name="tournament-create"),
    path("tournois/<int:pk>/modifier/", views.tournament_edit, name="tournament-edit"),
    path(
        "tournois/<int:pk>/terminer/",
        views_lifecycle.tournament_finish,
        name="tournament-finish",
    ),
    path(
        "tournois/<int:pk>/rouvrir/",
        views_lifecycle.tournament_reopen,
        name="tournament-reopen",
    ),
    path(
        "tournois/<int:pk>/equipe-arbitrale/",
        views_lifecycle.tournament_staff,
        name="tournament-staff",
    ),
    path(
        "tournois/<int:pk>/equipe-arbitrale/<int:role>/retirer/",
        views_lifecycle.tournament_staff_remove,
        name="tournament-staff-remove",
    ),
    path(
        "tournois/<int:pk>/positions/<int:number>/clore/",
        views_lifecycle.position_close,
        name="position-close",
    ),
    path(
        "tournois/<int:pk>/positions/<int:number>/rouvrir/",
        views_lifecycle.position_reopen,
        name="position-reopen",
    ),
    path("tournois/<int:pk>/joueurs/", views.player_list, name="player-list"),
    path("tournois/<int:pk>/joueurs/inscrire/", views.player_register, name="player-register"),
    path("tournois/<int:pk>/joueurs/import/", views.player_import, name="player-import"),
    path(
        "tournois/<int:pk>/joueurs/<int:registration>/forfait/",
        views.registration_withdraw,
        name="registration-withdraw",
    ),
    path(
        "tournois/<int:pk>/joueurs/<int:registration>/retour/",
        views.registration_reinstate,
        name="registration-reinstate",
    ),
    path("joueurs/recherche/", views.player_search, name="player-search"),
    path("joueurs/fusionner/", views.player_merge, name="player-merge"),
    path("tournois/<int:pk>/equipes/", views.team_list, name="team-list"),
    path("tournois/<int:pk>/equipes/composer/", views.team_assign, name="team-assign"),
    path(
        "tournois/<int:pk>/equipes/retirer/<int:registration>/",
        views.team_member_remove,
        name="team-member-remove",
    ),
    path("tournois/<int:pk>/positions/", views.position_list, name="position-list"),
    path(
        "tournois/<int:pk>/positions/<int:number>/",
        views.position_detail,
        name="position-detail",
    ),
    path(
        "tournois/<int:pk>/positions/<int:number>/qui-est-ou/",
        views.position_who_sits_where,
        name="position-who-sits-where",
    ),
    path(
        "tournois/<int:pk>/joueurs/<int:registration>/",
        views.player_itinerary,
        name="player-itinerary",
    ),
    path(
        "tournois/<int:pk>/positions/generer/",
        views.position_generate,
        name="position-generate",
    ),
    path(
        "tournois/<int:pk>/positions/<int:number>/regenerer/",
        views.position_regenerate,
        name="position-regenerate",
    ),
    path(
        "tournois/<int:pk>/positions/<int:number>/publier/",
        views.position_publish,
        name="position-publish",
    ),
    path(
        "tournois/<int:pk>/positions/<int:number>/echanger/",
        views.seat_swap,
        name="seat-swap",
    ),
]
