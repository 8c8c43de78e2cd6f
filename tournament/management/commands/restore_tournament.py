"""Restore a tournament from a JSON backup file, as a new tournament."""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from tournament.backup import BackupError, tournament_import


class Command(BaseCommand):
    help = "Restore a tournament from a backup written by backup_tournament or the interface."

    def add_arguments(self, parser):
        parser.add_argument("path")

    def handle(self, *args, path: str, **options):
        try:
            raw = Path(path).read_bytes()
        except OSError as exc:
            raise CommandError(f"Cannot read {path}: {exc}") from exc
        try:
            tournament = tournament_import(raw)
        except BackupError as exc:
            raise CommandError(str(exc)) from exc
        self.stdout.write(self.style.SUCCESS(f"Restored '{tournament.name}' as id {tournament.pk}"))
