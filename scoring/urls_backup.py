"""URLs of a tournament's backup: download one, restore one as a new tournament."""

from django.urls import path

from scoring.views import backup as views_backup

urlpatterns = [
    path(
        "tournois/<id:pk>/sauvegarde/",
        views_backup.backup_download,
        name="tournament-backup",
    ),
    path("tournois/restaurer/", views_backup.backup_restore, name="tournament-restore"),
]
