"""Results sent from a club's laptop to its comité's server (issue 40).

Models only (imported by scoring.models): the services are in scoring.upload. On the server: the
upload keys a club's administrator issues (stored as a digest, shown once) and every version of a
tournament received with one. On the laptop: the comité server's address and key, and each
tournament's sending (waiting, received or refused, with the server's answer).
"""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from tournament.models import Club, Tournament
from tournament.models.fields import account_link, optional_link


class UploadKey(models.Model):
    """A club's key for sending results: it sends this club's tournaments and does nothing else."""

    club = models.ForeignKey(
        Club, verbose_name=_("club"), on_delete=models.CASCADE, related_name="upload_keys"
    )
    label = models.CharField(_("nom de la clé"), max_length=100, blank=True)
    prefix = models.CharField(_("début de la clé"), max_length=12)
    # SHA-256 of the key: the key itself is shown once and never stored.
    digest = models.CharField(_("empreinte"), max_length=64, unique=True)
    # The championships and circuits the tournaments sent with this key enter.
    championships = models.ManyToManyField(
        "scoring.Championship",
        verbose_name=_("championnats et circuits"),
        blank=True,
        related_name="upload_keys",
    )
    created_by = account_link(_("émise par"))
    created_at = models.DateTimeField(_("émise le"), auto_now_add=True)
    revoked_at = models.DateTimeField(_("révoquée le"), null=True, blank=True)
    last_used_at = models.DateTimeField(_("dernier envoi"), null=True, blank=True)

    class Meta:
        verbose_name = _("clé d'envoi des résultats")
        verbose_name_plural = _("clés d'envoi des résultats")
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return f"{self.club}: {self.prefix}…"


class ReceivedVersion(models.Model):
    """One version of a tournament a club sent: the document as received, kept for the record.
    The latest version's tournament is the one the site shows; earlier ones are replaced."""

    club = models.ForeignKey(
        Club, verbose_name=_("club"), on_delete=models.CASCADE, related_name="received_versions"
    )
    # The laptop's own identifier of the tournament: its versions share it.
    source = models.CharField(_("identifiant d'origine"), max_length=64)
    number = models.PositiveIntegerField(_("version"))
    digest = models.CharField(_("empreinte du document"), max_length=64)
    document = models.TextField(_("document reçu"))
    report = models.JSONField(_("rapport de l'arbitre"), default=dict, blank=True)
    tournament = optional_link(
        Tournament, _("tournoi"), on_delete=models.SET_NULL, related_name="received_versions"
    )
    key = optional_link(UploadKey, _("clé"), on_delete=models.SET_NULL)
    received_at = models.DateTimeField(_("reçue le"), auto_now_add=True)

    class Meta:
        verbose_name = _("version reçue")
        verbose_name_plural = _("versions reçues")
        ordering = ["club", "source", "number"]
        constraints = [
            models.UniqueConstraint(
                fields=["club", "source", "number"], name="unique_received_version_number"
            ),
            models.UniqueConstraint(
                fields=["club", "source", "digest"], name="unique_received_version_digest"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.club}: {self.source} v{self.number}"


class ComiteServer(models.Model):
    """The laptop's comité server: its address and the club's key (one row)."""

    url = models.URLField(_("adresse du serveur du comité"), max_length=300)
    key = models.CharField(_("clé d'envoi"), max_length=100)
    # Off: https:// only, the server's certificate checked (scoring.upload.transport).
    allow_http = models.BooleanField(_("autoriser http sans chiffrement"), default=False)
    updated_at = models.DateTimeField(_("modifié le"), auto_now=True)

    class Meta:
        verbose_name = _("serveur du comité")
        verbose_name_plural = _("serveur du comité")

    def __str__(self) -> str:
        return self.url


class SendStatus(models.TextChoices):
    WAITING = "waiting", _("En attente d'envoi")
    RECEIVED = "received", _("Reçu par le serveur")
    REFUSED = "refused", _("Refusé par le serveur")


class ResultsSend(models.Model):
    """A tournament's sending to the comité server, on the laptop: what the server last said."""

    Status = SendStatus

    tournament = models.OneToOneField(
        Tournament, verbose_name=_("tournoi"), on_delete=models.CASCADE, related_name="send"
    )
    # Sent with every version: the server files them under it.
    source = models.CharField(_("identifiant d'origine"), max_length=64, unique=True)
    status = models.CharField(
        _("état"), max_length=10, choices=Status.choices, default=Status.WAITING
    )
    digest = models.CharField(_("empreinte du document"), max_length=64, blank=True)
    version = models.PositiveIntegerField(_("version reçue"), null=True, blank=True)
    link = models.URLField(_("page publique"), max_length=500, blank=True)
    message = models.TextField(_("réponse du serveur"), blank=True)
    attempts = models.PositiveIntegerField(_("essais"), default=0)
    tried_at = models.DateTimeField(_("dernier essai"), null=True, blank=True)

    class Meta:
        verbose_name = _("envoi au comité")
        verbose_name_plural = _("envois au comité")

    def __str__(self) -> str:
        return f"{self.tournament}: {self.get_status_display()}"
