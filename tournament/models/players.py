"""The roster: one entry per person on the server, each seen by the clubs it concerns."""

from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from .clubs import Club
from .fields import optional_link


class Player(models.Model):
    """A person on the club roster, shared by every tournament."""

    last_name = models.CharField(_("nom"), max_length=80)
    first_name = models.CharField(_("prénom"), max_length=80, blank=True)
    licence = models.CharField(_("licence FFT"), max_length=20, blank=True, null=True, default=None)
    club = models.CharField(_("club"), max_length=120, blank=True)
    # The club whose arbiter put this person on the roster: with the clubs whose tournaments
    # they played, the only clubs that see the entry (tournament.players.selectors).
    origin_club = optional_link(
        Club, _("ajouté par le club"), on_delete=models.SET_NULL, related_name="roster_additions"
    )
    created_at = models.DateTimeField(_("créé le"), auto_now_add=True)

    class Meta:
        verbose_name = _("joueur")
        verbose_name_plural = _("joueurs")
        ordering = ["last_name", "first_name"]
        constraints = [
            models.UniqueConstraint(
                fields=["licence"],
                condition=Q(licence__isnull=False) & ~Q(licence=""),
                name="unique_licence_when_given",
            )
        ]
        indexes = [models.Index(fields=["last_name", "first_name"])]

    def __str__(self) -> str:
        return self.full_name

    def save(self, *args, **kwargs):
        # Blank licences are stored as NULL so that the uniqueness only binds given numbers.
        if not self.licence:
            self.licence = None
        super().save(*args, **kwargs)

    @property
    def full_name(self) -> str:
        return f"{self.last_name.upper()} {self.first_name}".strip()
