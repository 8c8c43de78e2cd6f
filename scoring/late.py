"""What may still wait on the tables' phones when a position closes: the deals a phone reports it
still holds (not sent yet), and the deals that reached the server after their position closed.

Models only (imported by scoring.models): the services are scoring.sheets.waiting. Nothing here
counts anywhere until an arbiter decides: a late deal becomes a deal of its sheet only when
accepted; a rejected one stays here, kept for the record.
"""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from tournament.models import Registration, Table
from tournament.models.fields import account_link, optional_link


class LateDealStatus(models.TextChoices):
    WAITING = "waiting", _("En attente de l'arbitre")
    ACCEPTED = "accepted", _("Acceptée")
    REJECTED = "rejected", _("Refusée")


class LateDeal(models.Model):
    """A deal a phone sent after its position was closed (or its tournament finished), kept as
    it was sent for the arbiter to accept (it becomes a confirmed deal of the sheet) or reject."""

    Status = LateDealStatus

    table = models.ForeignKey(
        Table, verbose_name=_("table"), on_delete=models.CASCADE, related_name="late_deals"
    )
    client_id = models.CharField(_("identifiant du téléphone"), max_length=64)
    # The engine's input as the phone sent it (checked on arrival, checked again on acceptance).
    data = models.JSONField(_("donne envoyée"))
    # Who the phone's binding proved it was; empty when the phone proved nobody.
    entered_by_player = optional_link(
        Registration, _("saisie par le joueur"), on_delete=models.SET_NULL
    )
    # The deal number the phone typed it under: accepting it never renumbers it into a copy.
    number = models.PositiveSmallIntegerField(_("numéro saisi"), null=True, blank=True)
    received_at = models.DateTimeField(_("reçue le"), auto_now_add=True)
    status = models.CharField(
        _("état"), max_length=10, choices=Status.choices, default=Status.WAITING
    )
    decided_by = account_link(_("décidée par"))
    decided_at = models.DateTimeField(_("décidée le"), null=True, blank=True)
    # The sheet's deal that accepting it made.
    deal = models.ForeignKey(
        "scoring.Deal",
        verbose_name=_("donne"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )

    class Meta:
        verbose_name = _("donne tardive")
        verbose_name_plural = _("donnes tardives")
        ordering = ["table", "received_at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["table", "client_id"], name="unique_late_deal")
        ]

    def __str__(self) -> str:
        return _("Donne tardive de la table %(number)s") % {"number": self.table.number}


class PhoneQueue(models.Model):
    """What one phone of a table last said it still holds: deals typed but not yet sent (no
    Wi-Fi, a conflict the table has not settled, a player not identified). Reported with the
    phone's sheet refresh; a phone that holds nothing has no row."""

    table = models.ForeignKey(
        Table, verbose_name=_("table"), on_delete=models.CASCADE, related_name="phone_queues"
    )
    device = models.CharField(_("téléphone"), max_length=40)
    count = models.PositiveSmallIntegerField(_("donnes gardées sur le téléphone"))
    reported_at = models.DateTimeField(_("signalées le"))
    # The count an arbiter already decided on (closed anyway: what comes later is a late deal);
    # a phone reporting more waits again.
    acknowledged = models.PositiveSmallIntegerField(_("donnes déjà traitées"), default=0)

    class Meta:
        verbose_name = _("donnes gardées sur un téléphone")
        verbose_name_plural = _("donnes gardées sur les téléphones")
        constraints = [
            models.UniqueConstraint(fields=["table", "device"], name="one_queue_per_phone")
        ]

    def __str__(self) -> str:
        return f"{self.table_id} {self.device}: {self.count}"
