"""The roster: one entry per person on the server, each seen by the clubs it concerns."""

from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from . import choices
from .clubs import Club
from .fields import account_link, choice_field, optional_link


def player_name(last_name: str | None, first_name: str | None) -> str:
    """How a player is named everywhere, "DUPONT Jean"; for reads of plain rows too, where a
    seat may have nobody (both None: "")."""
    return f"{(last_name or '').upper()} {first_name or ''}".strip()


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
            # One entry per licence within a club: two clubs may each hold one until their
            # licence conflict is resolved (LicenceConflict below).
            models.UniqueConstraint(
                fields=["origin_club", "licence"],
                condition=Q(licence__isnull=False) & ~Q(licence=""),
                name="unique_licence_per_club",
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
        return player_name(self.last_name, self.first_name)


class LicenceConflict(models.Model):
    """One licence under two roster entries of two clubs: flagged when the second club registers
    it (the evening is never blocked, and that club is told nothing), settled later by the club
    that held the licence with the other club's consent, or by a superuser: by merging the
    entries (one person) or by correcting the false one's licence (tournament.clubs.settlement).
    """

    Status = choices.ConflictStatus
    Resolution = choices.ConflictResolution

    licence = models.CharField(_("licence FFT"), max_length=20)
    # The entry that held the licence, and the one the second club registered. Either may go
    # (a merge removes one): the clubs concerned stay named below, for who may see the conflict.
    existing = optional_link(
        Player, _("fiche existante"), on_delete=models.SET_NULL, related_name="+"
    )
    newcomer = optional_link(
        Player, _("nouvelle fiche"), on_delete=models.SET_NULL, related_name="+"
    )
    existing_club = optional_link(
        Club, _("club de la fiche existante"), on_delete=models.CASCADE, related_name="+"
    )
    newcomer_club = optional_link(
        Club, _("club de la nouvelle fiche"), on_delete=models.CASCADE, related_name="+"
    )
    status = choice_field(_("état"), Status.OPEN)
    resolution = models.CharField(
        _("résolution"), max_length=20, choices=Resolution.choices, blank=True
    )
    # The holding club's proposal, and what it chose to tell the other club (its note).
    proposed_resolution = models.CharField(
        _("résolution proposée"), max_length=20, choices=Resolution.choices, blank=True
    )
    proposed_entry = models.CharField(_("fiche visée"), max_length=10, blank=True)
    proposed_licence = models.CharField(_("licence proposée"), max_length=20, blank=True)
    proposed_note = models.TextField(_("message à l'autre club"), max_length=500, blank=True)
    proposed_by = account_link(_("proposé par"))
    proposed_at = models.DateTimeField(_("proposé le"), null=True, blank=True)
    # The other club's answer: who consented (the resolution then applies), or its note.
    consented_by = account_link(_("accepté par"))
    answer_note = models.TextField(_("réponse de l'autre club"), max_length=500, blank=True)
    resolved_by = account_link(_("résolu par"))
    resolved_at = models.DateTimeField(_("résolu le"), null=True, blank=True)
    created_at = models.DateTimeField(_("signalé le"), auto_now_add=True)

    class Meta:
        verbose_name = _("conflit de licence")
        verbose_name_plural = _("conflits de licence")
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return f"{self.licence} ({self.get_status_display()})"

    @property
    def club_ids(self) -> set[int]:
        return {pk for pk in (self.existing_club_id, self.newcomer_club_id) if pk is not None}

    @property
    def visible_club_ids(self) -> set[int]:
        """The clubs that may see the conflict: the one that held the licence, and the other
        once a settlement was proposed to it (before that, it is told nothing: issue 36)."""
        seen = {self.existing_club_id}
        if self.status != self.Status.OPEN:
            seen.add(self.newcomer_club_id)
        return {pk for pk in seen if pk is not None}


class LicenceCheck(models.Model):
    """A new roster entry whose licence is still to be compared with other clubs' rosters.

    Queued by every request that puts a licensed entry on a club's roster, whether or not
    another club holds the licence, and looked at after the response is sent
    (tournament.players.checks): the request does the same work in both cases, so neither its
    answer nor its time tells a club what another club's roster holds (issue 36)."""

    newcomer = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="+", verbose_name=_("nouvelle fiche")
    )
    # The account that registered it (None: a sign-up, a script): logged with the conflict.
    user = account_link(_("ajouté par"))
    created_at = models.DateTimeField(_("ajouté le"), auto_now_add=True)

    class Meta:
        verbose_name = _("licence à comparer")
        verbose_name_plural = _("licences à comparer")
        ordering = ["pk"]

    def __str__(self) -> str:
        return str(self.newcomer_id)
