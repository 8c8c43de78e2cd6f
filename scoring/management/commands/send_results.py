"""Try again every sending of results that waits (no network at the end of the evening)."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError

from scoring.upload.send import results_send, waiting_sends


class Command(BaseCommand):
    help = "Envoie au serveur du comité les tournois terminés dont l'envoi attend."

    def handle(self, *args, **options):
        waiting = waiting_sends()
        if not waiting:
            self.stdout.write("Aucun envoi en attente.")
            return
        still = 0
        for sending in waiting:
            try:
                done = results_send(tournament=sending.tournament)
            except ValidationError as refusal:
                raise CommandError(" ".join(refusal.messages)) from refusal
            status = done.get_status_display()
            self.stdout.write(f"{sending.tournament.name} : {status}. {done.message}")
            still += done.status == done.Status.WAITING
        if still:
            sendings = "envoi toujours" if still == 1 else "envois toujours"
            raise CommandError(f"{still} {sendings} en attente : réessayez plus tard.")
