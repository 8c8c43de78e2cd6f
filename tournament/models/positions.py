"""Rounds of play: positions, their tables and who sits where."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from ..seats import DIRECTIONS, seat_label
from . import choices
from .choices import Direction
from .fields import choice_field, tournament_part
from .registrations import Registration


class Position(models.Model):
    """A round: every table plays its deals once; draft → published → closed."""

    Status = choices.PositionStatus
    Seating = choices.PositionSeating

    tournament = tournament_part("positions")
    number = models.PositiveSmallIntegerField(_("numéro"))
    status = choice_field(_("état"), Status.DRAFT)
    seed = models.PositiveIntegerField(_("graine"), default=0)
    # The whole plan's fairness measures as the generator left them (services.fairness): the
    # positions page says when hand changes made one worse.
    generated_figures = models.JSONField(_("équité à la génération"), null=True, blank=True)
    # A final or the last position of an evening may be seated from the standings instead.
    seating = choice_field(_("placement"), Seating.GENERATOR)
    published_at = models.DateTimeField(_("publiée le"), null=True, blank=True)
    # The position's clock: running while clock_ends_at is set, paused while
    # clock_paused_left (seconds) is set, not started when both are empty.
    clock_ends_at = models.DateTimeField(_("fin prévue"), null=True, blank=True)
    clock_paused_left = models.PositiveIntegerField(
        _("temps restant à la pause (secondes)"), null=True, blank=True
    )

    class Meta:
        verbose_name = _("position")
        verbose_name_plural = _("positions")
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="unique_position_number")
        ]

    def __str__(self) -> str:
        return _("Position %(number)s") % {"number": self.number}

    @property
    def is_public(self) -> bool:
        return self.status != self.Status.DRAFT


class Table(models.Model):
    """A table at one position."""

    Game = choices.Game

    position = models.ForeignKey(
        Position, verbose_name=_("position"), on_delete=models.CASCADE, related_name="tables"
    )
    number = models.PositiveSmallIntegerField(_("numéro"))
    game = choice_field(_("jeu"), Game.FOUR)
    # Not a field: services.position_plan sets it, the seats in the score sheet's order.
    seat_list: list[Seat]

    class Meta:
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        ordering = ["position", "number"]
        constraints = [
            models.UniqueConstraint(fields=["position", "number"], name="unique_table_number")
        ]

    def __str__(self) -> str:
        return _("Table %(number)s") % {"number": self.number}


class Seat(models.Model):
    """Who sits where at a table."""

    table = models.ForeignKey(
        Table, verbose_name=_("table"), on_delete=models.CASCADE, related_name="seats"
    )
    # RESTRICT: a seated player can't be deleted alone, but a whole tournament can.
    registration = models.ForeignKey(
        Registration, verbose_name=_("joueur"), on_delete=models.RESTRICT, related_name="seats"
    )
    direction = models.CharField(_("orientation"), max_length=1, choices=Direction.choices)

    class Meta:
        verbose_name = _("place")
        verbose_name_plural = _("places")
        ordering = ["table", "direction"]
        constraints = [
            models.UniqueConstraint(fields=["table", "direction"], name="unique_seat_direction"),
            models.UniqueConstraint(
                fields=["table", "registration"], name="unique_player_per_table"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table} {self.direction}: {self.registration}"

    @property
    def index(self) -> int:
        return DIRECTIONS.index(self.direction)

    @property
    def label(self) -> str:
        """Table number and seat as printed on sheets: "3 N", "3 O", "3 — 5e"."""
        return seat_label(self.table.number, self.direction)
