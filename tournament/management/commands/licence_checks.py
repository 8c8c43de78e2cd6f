"""Compare the queued new entries' licences with other clubs' rosters (tournament.players.checks):
what a script or a stopped process left; requests do it after their response."""

from django.core.management.base import BaseCommand

from tournament.models import LicenceCheck
from tournament.players.checks import licence_checks_process


class Command(BaseCommand):
    help = "Compare the queued licences with other clubs' rosters; open the licence conflicts."

    def handle(self, *args, **options) -> None:
        total = 0
        while LicenceCheck.objects.exists():  # batches of 500 until none is left
            total += licence_checks_process()
        self.stdout.write(f"{total} licence conflict{'' if total == 1 else 's'} opened")
