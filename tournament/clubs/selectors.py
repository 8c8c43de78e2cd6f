"""Reads of clubs: a user's clubs, the club a new tournament of theirs belongs to."""

from __future__ import annotations

from django.db.models import QuerySet
from django.shortcuts import get_object_or_404

from tournament.models import Club, ClubMember


def clubs_of(user) -> QuerySet[Club]:
    """The clubs an account belongs to (any role), by name; none for anonymous users."""
    if not (user is not None and user.is_authenticated and user.is_active):
        return Club.objects.none()
    return Club.objects.filter(members__user=user).distinct().order_by("name", "pk")


def home_club(user) -> Club | None:
    """The club an account's new tournaments and restored backups go to when it has not
    chosen one: its first club by name (most accounts have one)."""
    return clubs_of(user).first()


def restorable_clubs(user) -> QuerySet[Club]:
    """The clubs a backup restored by this account may go to: its own (any role, as for the
    tournaments it creates), every club for a superuser; by name, the default first."""
    if user is not None and user.is_active and user.is_superuser:
        return Club.objects.order_by("name", "pk")
    return clubs_of(user)


def club_named(name: str) -> Club | None:
    """The club of this exact name, None when there is none."""
    return Club.objects.filter(name=name).first()


def administered_clubs(user) -> QuerySet[Club]:
    """The clubs whose arbiters this account names (every club for a superuser)."""
    if not (user is not None and user.is_authenticated and user.is_active):
        return Club.objects.none()
    if user.is_superuser:
        return Club.objects.order_by("name", "pk")
    return Club.objects.filter(members__user=user, members__role=ClubMember.Role.ADMIN).order_by(
        "name", "pk"
    )


ROLE_CHOICES = ClubMember.Role.choices


def members_of(club: Club) -> QuerySet[ClubMember]:
    """A club's members with their accounts, administrators first."""
    return club.members.select_related("user").order_by("role", "user__username")


def member_or_404(club_pk: int, pk: int) -> ClubMember:
    """One member of the club, with its account and club; 404 when there is none."""
    return get_object_or_404(ClubMember.objects.select_related("user", "club"), pk=pk, club=club_pk)
