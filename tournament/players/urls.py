"""URLs of a tournament's players: the list, registering, importing a file, withdrawals, the
roster's search and merge, licence conflicts, a player's itinerary, teams."""

from django.urls import path

from tournament.players.views import conflicts, imports, teams
from tournament.players.views import roster as players

urlpatterns = [
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
    path(
        "clubs/<id:pk>/conflits-licence/",
        conflicts.licence_conflicts,
        name="licence-conflicts",
    ),
    path("conflits-licence/<id:pk>/", conflicts.licence_conflict, name="licence-conflict"),
    path("tournois/<id:pk>/equipes/", teams.team_list, name="team-list"),
    path("tournois/<id:pk>/equipes/composer/", teams.team_assign, name="team-assign"),
    path(
        "tournois/<id:pk>/equipes/retirer/<id:registration>/",
        teams.team_member_remove,
        name="team-member-remove",
    ),
    path(
        "tournois/<id:pk>/joueurs/<id:registration>/",
        players.player_itinerary,
        name="player-itinerary",
    ),
]
