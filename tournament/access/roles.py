"""The desk's global groups. What a person may do on a tournament is decided per tournament
by tournament.access.permissions; the groups only say who may start tournaments of their own."""

from django.contrib.auth.models import Group

# Members may create tournaments (and restore backups as new tournaments of their own).
ARBITER = "arbitre"
# Kept for existing installs: scoring rights are now given per tournament (TournamentRole).
SCORER = "marqueur"


def ensure_groups() -> None:
    for name in (ARBITER, SCORER):
        Group.objects.get_or_create(name=name)
