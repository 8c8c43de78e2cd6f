"""Entries in one tournament: teams, registrations and where each player started."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db import models
from django.utils.translation import gettext_lazy as _

from ..seats import start_codes, start_display
from . import choices
from .fields import choice_field, optional_link, tournament_part
from .players import Player

if TYPE_CHECKING:
    from .positions import Seat


PIN_DIGITS = 6


def new_pin() -> str:
    """A player's personal confirmation code (PIN_DIGITS digits), printed on their itinerary
    card: with the limits of scoring.sheets.table_entry.guessing, guessing one takes longer
    than a tournament (README, "Phone entry")."""
    import secrets

    return f"{secrets.randbelow(10**PIN_DIGITS):0{PIN_DIGITS}d}"


class Team(models.Model):
    """A duo or a team of four; teammates never meet and their scores add up."""

    tournament = tournament_part("teams")
    name = models.CharField(_("nom"), max_length=120)

    class Meta:
        verbose_name = _("équipe")
        verbose_name_plural = _("équipes")
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "name"], name="unique_team_name")
        ]

    def __str__(self) -> str:
        return self.name


class Registration(models.Model):
    """A player's entry in one tournament."""

    Status = choices.RegistrationStatus

    tournament = tournament_part("registrations")
    player = models.ForeignKey(
        Player, verbose_name=_("joueur"), on_delete=models.PROTECT, related_name="registrations"
    )
    team = optional_link(Team, _("équipe"), on_delete=models.SET_NULL, related_name="members")
    number = models.PositiveIntegerField(_("numéro"))
    status = choice_field(_("état"), Status.ACTIVE)
    # First position the player plays (late arrivals) and last one (withdrawals).
    first_position = models.PositiveSmallIntegerField(_("arrivé à la position"), default=1)
    withdrawn_after = models.PositiveSmallIntegerField(
        _("forfait après la position"), null=True, blank=True
    )
    # Confirms the opponents' deals at the table (printed on the itinerary card).
    pin = models.CharField(_("code de confirmation"), max_length=8, default=new_pin)
    # What the player's last printed itinerary card says: {"pin": code, "seats": {position:
    # "table direction"}}; None before it is printed. The cockpit lists the cards to reprint.
    card_printed = models.JSONField(_("carte d'itinéraire imprimée"), null=True, blank=True)
    # Online sign-up: when, and the code the player shows at the door (None otherwise).
    signed_up_at = models.DateTimeField(_("inscrit en ligne le"), null=True, blank=True)
    signup_code = models.CharField(
        _("code d'inscription"), max_length=8, null=True, blank=True, default=None
    )
    checked_in_at = models.DateTimeField(_("pointé le"), null=True, blank=True)

    class Meta:
        verbose_name = _("inscription")
        verbose_name_plural = _("inscriptions")
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "player"], name="unique_player_per_tournament"
            ),
            models.UniqueConstraint(
                fields=["tournament", "number"], name="unique_number_per_tournament"
            ),
            models.UniqueConstraint(
                fields=["tournament", "signup_code"], name="unique_signup_code_per_tournament"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.number}. {self.player}"

    def plays_position(self, number: int) -> bool:
        if self.status == self.Status.EXPECTED:
            return False  # pre-registered online, not (yet) at the door
        if number < self.first_position:
            return False
        return self.withdrawn_after is None or number <= self.withdrawn_after

    @property
    def start_label(self) -> str:
        """How FFT sheets name a player: table and seat at their first position, e.g. "3 N"."""
        return start_display(start_codes_of(self.seats.all()).get(self.pk, ""))


def start_codes_of(seats: models.QuerySet[Seat]) -> dict[int, str]:
    """Registration pk → starting position code ("3 N") for these seats, in one query, by the
    one rule of `seats.start_codes` (the first position each registration played)."""
    rows = seats.order_by("table__position__number").values_list(
        "registration_id", "table__number", "direction"
    )
    return start_codes(rows)
