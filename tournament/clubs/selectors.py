"""Reads of clubs: a user's clubs, the club a new tournament of theirs belongs to."""

from __future__ import annotations

from django.db.models import QuerySet
from django.shortcuts import get_object_or_404

from tournament.models import Club, ClubInvitation, ClubMember, Tournament


def clubs_of(user) -> QuerySet[Club]:
    """The clubs an account belongs to (any role), by name; none for anonymous users."""
    if not (user is not None and user.is_authenticated and user.is_active):
        return Club.objects.none()
    return Club.objects.filter(members__user=user).distinct().order_by("name", "pk")


def home_club(user) -> Club | None:
    """The club offered first for an account's new tournament or restored backup: the club of
    the tournament it created last among its clubs (the one it chose last), else its first club
    by name. Only a default, shown in the form: joining a club never moves anything."""
    clubs = clubs_of(user)
    last = (
        Tournament.objects.filter(owner_id=getattr(user, "pk", None), host_club__in=clubs)
        .order_by("-created_at", "-pk")
        .values_list("host_club_id", flat=True)
        .first()
    )
    return clubs.filter(pk=last).first() if last else clubs.first()


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


def invitations_of(user) -> QuerySet[ClubInvitation]:
    """The invitations an account has to answer, with their clubs."""
    if not (user is not None and user.is_authenticated and user.is_active):
        return ClubInvitation.objects.none()
    return ClubInvitation.objects.filter(user=user).select_related("club", "invited_by")


def invitations_sent(club: Club) -> QuerySet[ClubInvitation]:
    """A club's invitations waiting for an answer (its members page)."""
    return club.invitations.select_related("user").order_by("user__username")


def invitation_or_404(user, pk: int) -> ClubInvitation:
    """One of the account's own invitations; 404 for anybody else's."""
    return get_object_or_404(invitations_of(user), pk=pk)
