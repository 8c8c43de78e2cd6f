"""Restore a tournament from a JSON backup file, as a new tournament."""

from pathlib import Path

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from scoring.documents.backup import MAX_BACKUP_BYTES, BackupError, tournament_import
from tournament.clubs.selectors import club_named


class Command(BaseCommand):
    help = (
        "Restore a tournament from a backup written by backup_tournament or the interface. "
        "The file is checked entirely (every deal is scored again) before anything is written."
    )

    def add_arguments(self, parser):
        parser.add_argument("path")
        parser.add_argument(
            "--owner",
            help="username of the account that owns the restored tournament (default: none; "
            "the owner named in the file is never used)",
        )
        parser.add_argument(
            "--club",
            help="name of the club the tournament and its new roster entries go to (default: "
            "the owner's first club; the club named in the file is never used)",
        )

        parser.add_argument(
            "--copy",
            action="store_true",
            help="restore as a copy: a new tournament for the comité's server too (without it, "
            "the same evening restored elsewhere keeps its identity there and a send is its "
            "next version)",
        )

    def handle(
        self,
        *args,
        path: str,
        owner: str | None = None,
        club: str | None = None,
        copy: bool = False,
        **options,
    ):
        into = None
        if club:
            into = club_named(club)  # whoever runs the command runs the server: any club
            if into is None:
                raise CommandError(f"No club named {club!r}.")
        user = None
        if owner:
            accounts = get_user_model()._default_manager
            user = accounts.filter(**{get_user_model().USERNAME_FIELD: owner}).first()
            if user is None:
                raise CommandError(f"No account named {owner!r}.")
        try:
            size = Path(path).stat().st_size
            if size > MAX_BACKUP_BYTES:
                raise CommandError(
                    f"{path} is {size} bytes; a backup is at most {MAX_BACKUP_BYTES} bytes."
                )
            raw = Path(path).read_bytes()
        except OSError as exc:
            raise CommandError(f"Cannot read {path}: {exc}") from exc
        try:
            tournament = tournament_import(raw, user=user, club=into, operator=True, copy=copy)
        except BackupError as exc:
            raise CommandError(str(exc)) from exc
        self.stdout.write(self.style.SUCCESS(f"Restored '{tournament.name}' as id {tournament.pk}"))
