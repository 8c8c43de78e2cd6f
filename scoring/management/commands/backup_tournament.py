"""Write a whole tournament to one JSON backup file."""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from scoring.documents.backup import tournament_export_json
from tournament.models import Tournament


class Command(BaseCommand):
    help = "Back up a tournament (players, teams, positions, sheets, deals, penalties, history)."

    def add_arguments(self, parser):
        parser.add_argument("tournament_id", type=int)
        parser.add_argument("-o", "--output", help="file to write (default: standard output)")

    def handle(self, *args, tournament_id: int, output: str | None, **options):
        tournament = Tournament.objects.filter(pk=tournament_id).first()
        if tournament is None:
            raise CommandError(f"No tournament with id {tournament_id}.")
        document = tournament_export_json(tournament)
        if output:
            Path(output).write_text(document, encoding="utf-8")
            self.stdout.write(self.style.SUCCESS(f"Backup written to {output}"))
        else:
            self.stdout.write(document)
