"""Try again every sending of results that waits (no network at the end of the evening)."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError

from scoring.upload.send import results_send, unsendable_reason, waiting_sends


class Command(BaseCommand):
    help = "Envoie au serveur du comité les tournois terminés dont l'envoi attend."

    def handle(self, *args, **options):
        waiting = waiting_sends()
        if not waiting:
            self.stdout.write("Aucun envoi en attente.")
            return
        still = 0
        # Each tournament is named and tried on its own: one that cannot be sent (reopened
        # since) is skipped with its reason, never stopping the others.
        for sending in waiting:
            name = sending.tournament.name
            reason = unsendable_reason(sending.tournament)
            if reason is None:
                try:
                    done = results_send(tournament=sending.tournament)
                except ValidationError as refusal:
                    reason = " ".join(refusal.messages)
                else:
                    self.stdout.write(f"{name} : {done.get_status_display()}. {done.message}")
                    still += done.status == done.Status.WAITING
                    continue
            self.stdout.write(f"{name} : non envoyé. {reason}")
            still += 1
        if still:
            sendings = "envoi toujours" if still == 1 else "envois toujours"
            raise CommandError(f"{still} {sendings} en attente : réessayez plus tard.")
