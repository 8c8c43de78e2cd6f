"""URLs of the arbiter's desk: tournaments, players, teams and positions."""

from django.urls import path

from tournament.evening import views as positions
from tournament.players.views import imports, teams
from tournament.players.views import roster as players
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
    path("tournois/<id:pk>/joueurs/", players.player_list, name="player-list"),
    path("tournois/<id:pk>/joueurs/inscrire/", players.player_register, name="player-register"),
    path("tournois/<id:pk>/joueurs/import/", imports.player_import, name="player-import"),
    path(
        "tournois/<id:pk>/joueurs/<id:registration>/forfait/",
        players.registration_withdraw,
        name="registration-withdraw",
    ),
    path(
        "tournois/<id:pk>/joueurs/<id:registration>/retour/",
        players.registration_reinstate,
        name="registration-reinstate",
    ),
    path("joueurs/recherche/", players.player_search, name="player-search"),
    path("joueurs/fusionner/", players.player_merge, name="player-merge"),
    path("tournois/<id:pk>/equipes/", teams.team_list, name="team-list"),
    path("tournois/<id:pk>/equipes/composer/", teams.team_assign, name="team-assign"),
    path(
        "tournois/<id:pk>/equipes/retirer/<id:registration>/",
        teams.team_member_remove,
        name="team-member-remove",
    ),
    path("tournois/<id:pk>/positions/", positions.position_list, name="position-list"),
    path(
        "tournois/<id:pk>/positions/<id:number>/",
        positions.position_detail,
        name="position-detail",
    ),
    path(
        "tournois/<id:pk>/positions/<id:number>/qui-est-ou/",
        positions.position_who_sits_where,
        name="position-who-sits-where",
    ),
    path(
        "tournois/<id:pk>/joueurs/<id:registration>/",
        players.player_itinerary,
        name="player-itinerary",
    ),
    path(
        "tournois/<id:pk>/positions/generer/",
        positions.position_generate,
        name="position-generate",
    ),
    path(
        "tournois/<id:pk>/positions/<id:number>/regenerer/",
        positions.position_regenerate,
        name="position-regenerate",
    ),
    path(
        "tournois/<id:pk>/positions/<id:number>/publier/",
        positions.position_publish,
        name="position-publish",
    ),
    path(
        "tournois/<id:pk>/positions/<id:number>/echanger/",
        positions.seat_swap,
        name="seat-swap",
    ),
]
