"""Counter: every attempts counter and lock of the site, one row a key, shared by every server
process (the arithmetic is in tournament.access.throttle, one SQL statement an attempt)."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from .fields import optional_link
from .positions import Table
from .registrations import Registration
from .tournaments import Tournament


class Counter(models.Model):
    """Attempts under one key: in a window (`hits` until `window_end`), or toward a lock
    (`locked_until`, then `delay` doubles). Times are seconds since the epoch, compared as
    numbers on SQLite and PostgreSQL alike."""

    key = models.CharField(_("clé"), max_length=200, primary_key=True)
    hits = models.PositiveIntegerField(_("essais"), default=0)
    window_end = models.FloatField(_("fin de la fenêtre"), default=0)
    locked_until = models.FloatField(_("bloqué jusqu'à"), default=0)
    delay = models.FloatField(_("prochain blocage (s)"), default=0)
    last_at = models.FloatField(_("dernier essai"), default=0)
    # What the desk shows of a personal code's lock (null for the address counters).
    tournament = optional_link(
        Tournament, _("tournoi"), on_delete=models.CASCADE, related_name="counters"
    )
    registration = optional_link(
        Registration, _("inscription"), on_delete=models.CASCADE, related_name="counters"
    )
    table = optional_link(Table, _("table"), on_delete=models.CASCADE, related_name="counters")

    class Meta:
        verbose_name = _("compteur d'essais")
        verbose_name_plural = _("compteurs d'essais")

    def __str__(self) -> str:
        return self.key
