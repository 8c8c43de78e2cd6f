"""Load the demo tournament into an empty database (the laptop default of `make run`)."""

from pathlib import Path

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand

from tournament.models import Tournament

DEMO_FIXTURE = Path(settings.BASE_DIR) / "fixtures" / "demo.json"


class Command(BaseCommand):
    help = "Load fixtures/demo.json unless the database already holds a tournament."

    def handle(self, *args, **options):
        if Tournament.objects.exists():
            self.stdout.write("Demo not loaded: the database already holds tournaments.")
            return
        if not DEMO_FIXTURE.exists():
            self.stdout.write("No demo fixture found.")
            return
        call_command("loaddata", str(DEMO_FIXTURE), verbosity=0)
        self.stdout.write(self.style.SUCCESS("Demo tournament loaded."))
