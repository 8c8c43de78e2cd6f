"""Create (or reset) the arbiter account of a laptop install and print its login."""

import os
import secrets

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = "Create or reset the arbiter account and print its login."

    def add_arguments(self, parser):
        parser.add_argument("--username", default=os.environ.get("ARBITER_USERNAME", "arbitre"))
        parser.add_argument("--password", default=os.environ.get("ARBITER_PASSWORD"))

    def handle(self, *args, username: str, password: str | None, **options):
        # A fresh password every start: the login printed is always the one that works.
        password = password or secrets.token_urlsafe(9)
        user, created = get_user_model().objects.get_or_create(username=username)
        user.is_staff = True
        user.is_superuser = True
        user.set_password(password)
        user.save()
        from tournament.access.roles import ensure_groups

        ensure_groups()
        _ensure_club(user)
        self.stdout.write(
            self.style.SUCCESS(
                f"Arbiter account {'created' if created else 'ready'}: "
                f"login '{username}', password '{password}'"
            )
        )


def _ensure_club(user) -> None:
    """A laptop's arbiter administers its club: the only one there is, or a new "Mon club";
    the only club also gets what was loaded without one (`make run`'s demo)."""
    from tournament.clubs.services import club_adopt, club_create, member_set
    from tournament.models import Club, ClubMember

    clubs = list(Club.objects.all()[:2])
    if not ClubMember.objects.filter(user=user).exists():
        if not clubs:
            clubs = [club_create(name="Mon club", admin=user, user=user)]  # its own
        elif len(clubs) == 1:
            member_set(club=clubs[0], account=user, role=ClubMember.Role.ADMIN)
    if len(clubs) == 1:  # the laptop's one club: the demo loaded before it is its own
        club_adopt(club=clubs[0])
