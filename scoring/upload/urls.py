"""URLs of the sending of results: a club's upload keys and the receiving endpoint (the comité's
server), the server's settings and a tournament's sending (the laptop)."""

from django.urls import path

from scoring.upload import views

urlpatterns = [
    path("clubs/<id:pk>/cles-d-envoi/", views.club_upload_keys, name="club-upload-keys"),
    path(
        "clubs/<id:pk>/cles-d-envoi/<id:key>/revoquer/",
        views.club_upload_key_revoke,
        name="club-upload-key-revoke",
    ),
    path("api/comite/resultats/", views.results_upload, name="results-upload"),
    path("comite/serveur/", views.comite_settings, name="comite-settings"),
    path("tournois/<id:pk>/envoi-au-comite/", views.tournament_send, name="tournament-send"),
    path(
        "tournois/<id:pk>/versions-recues/",
        views.tournament_versions,
        name="tournament-received-versions",
    ),
]
