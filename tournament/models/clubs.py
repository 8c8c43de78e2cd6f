"""Clubs on one shared server: a club's accounts (administrators and arbiters), its tournaments,
events and roster entries point here."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from . import choices


class Club(models.Model):
    """A club hosted on this server: its tournaments, events and roster are its own."""

    name = models.CharField(_("nom"), max_length=200, unique=True)
    # The FFT club number where known; two clubs never share one.
    code = models.CharField(
        _("numéro de club FFT"), max_length=20, blank=True, null=True, default=None
    )
    created_at = models.DateTimeField(_("créé le"), auto_now_add=True)

    class Meta:
        verbose_name = _("club")
        verbose_name_plural = _("clubs")
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(
                fields=["code"],
                condition=Q(code__isnull=False) & ~Q(code=""),
                name="unique_club_code_when_given",
            )
        ]

    def __str__(self) -> str:
        return self.name

    def save(self, *args, **kwargs):
        # A blank code is stored as NULL so that the uniqueness only binds given numbers.
        self.code = (self.code or "").strip() or None
        super().save(*args, **kwargs)


class ClubMember(models.Model):
    """An account's place in a club: administrator (names the club's arbiters) or arbiter."""

    Role = choices.ClubRole

    club = models.ForeignKey(
        Club, verbose_name=_("club"), on_delete=models.CASCADE, related_name="members"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("utilisateur"),
        on_delete=models.CASCADE,
        related_name="club_memberships",
    )
    role = models.CharField(_("rôle"), max_length=10, choices=Role.choices, default=Role.ARBITER)
    created_at = models.DateTimeField(_("ajouté le"), auto_now_add=True)

    class Meta:
        verbose_name = _("membre d'un club")
        verbose_name_plural = _("membres des clubs")
        ordering = ["club", "role", "user__username"]
        constraints = [
            models.UniqueConstraint(fields=["club", "user"], name="unique_membership_per_user")
        ]

    def __str__(self) -> str:
        return f"{self.club}: {self.user} ({self.get_role_display()})"


class ClubInvitation(models.Model):
    """An administrator's invitation of an account into the club: the account becomes a
    member only when it accepts (tournament.clubs.services.invitation_answer)."""

    Role = choices.ClubRole

    club = models.ForeignKey(
        Club, verbose_name=_("club"), on_delete=models.CASCADE, related_name="invitations"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("compte invité"),
        on_delete=models.CASCADE,
        related_name="club_invitations",
    )
    role = models.CharField(_("rôle"), max_length=10, choices=Role.choices, default=Role.ARBITER)
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("invité par"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    created_at = models.DateTimeField(_("invité le"), auto_now_add=True)

    class Meta:
        verbose_name = _("invitation dans un club")
        verbose_name_plural = _("invitations dans un club")
        ordering = ["-created_at", "-pk"]
        constraints = [
            models.UniqueConstraint(fields=["club", "user"], name="unique_invitation_per_user")
        ]

    def __str__(self) -> str:
        return f"{self.club}: {self.user} ({self.get_role_display()})"
