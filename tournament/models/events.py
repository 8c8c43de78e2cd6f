"""Big events: several sessions (séances) for one field, each session's brackets a Tournament,
and the cuts that send the qualified to the next session's main bracket and the others to a
consolante (or out)."""

from __future__ import annotations

from django.core.validators import MinValueValidator
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from . import choices
from .clubs import Club
from .fields import Stamped, account_link, choice_field, optional_link


class Event(Stamped):
    """A championship or a festival: sessions of one field registered once (in session 1's main
    bracket), each bracket of each session a Tournament pointing here (`brackets`)."""

    name = models.CharField(_("nom"), max_length=200)
    date = models.DateField(_("date"))
    venue = models.CharField(_("lieu"), max_length=200, blank=True)
    club = models.CharField(_("club organisateur"), max_length=200, blank=True)
    host_club = optional_link(Club, _("club"), on_delete=models.PROTECT, related_name="events")
    owner = account_link(_("arbitre"), related_name="events")
    is_public = models.BooleanField(
        _("classement public"),
        default=False,
        help_text=_("Les joueurs peuvent suivre le classement en direct."),
    )

    class Meta:
        verbose_name = _("épreuve")
        verbose_name_plural = _("épreuves")
        ordering = ["-date", "name"]

    def __str__(self) -> str:
        date = self.date.strftime("%d/%m/%Y") if hasattr(self.date, "strftime") else self.date
        return f"{self.name} ({date})"

    def get_absolute_url(self) -> str:
        return reverse("event-detail", args=[self.pk])


class Cut(models.Model):
    """The cut applied to a bracket after its session: the qualified went to `qualified`, the
    others to `consolante` (or out when it is empty). `report` keeps what was decided: the line,
    the ties there and how each was settled, who was left out as withdrawn, the ranking of the
    non-qualified (the next in line) and every replacement since (scoring.events)."""

    Rule = choices.CutRule

    event = models.ForeignKey(
        Event, verbose_name=_("épreuve"), on_delete=models.CASCADE, related_name="cuts"
    )
    # One cut per bracket: its players go on once.
    source = models.OneToOneField(
        "tournament.Tournament",
        verbose_name=_("tableau coupé"),
        on_delete=models.PROTECT,
        related_name="cut",
    )
    rule = choice_field(_("règle"), Rule.TOP_N, max_length=12)
    value = models.PositiveSmallIntegerField(_("valeur"), validators=[MinValueValidator(1)])
    by_team = models.BooleanField(_("par équipe"), default=False)
    qualified = models.OneToOneField(
        "tournament.Tournament",
        verbose_name=_("tableau des qualifiés"),
        on_delete=models.PROTECT,
        related_name="cut_into",
    )
    consolante = models.OneToOneField(
        "tournament.Tournament",
        verbose_name=_("consolante"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="cut_consoled",
    )
    created_by = account_link(_("par"))
    created_at = models.DateTimeField(_("le"), auto_now_add=True)
    report = models.JSONField(_("compte rendu"), default=dict, blank=True)

    class Meta:
        verbose_name = _("coupe")
        verbose_name_plural = _("coupes")
        ordering = ["event", "created_at", "pk"]

    def __str__(self) -> str:
        return f"{self.event}: {self.source}"
