"""What a user may see, as querysets: the events they own, the tournaments they run, the
roster entries of their clubs."""

from __future__ import annotations

from django.db.models import Exists, OuterRef, Q, QuerySet

from tournament.access.clubs import club_roles
from tournament.models import Event, Player, Registration, Tournament, TournamentRole


def visible_events(user) -> QuerySet[Event]:
    """The events a user owns (all of them for a superuser)."""
    if not (user.is_authenticated and user.is_active):
        return Event.objects.none()
    if user.is_superuser:
        return Event.objects.all()
    return Event.objects.filter(owner=user)


# Season championships: their predicates read scoring's Championship, so scoring.season.access
# registers them (this app never imports scoring); which tournaments one may put in a
# championship is a question about tournaments, answered here.


def managed_tournaments(user) -> QuerySet[Tournament]:
    """The tournaments a user runs (owner or co-arbiter; all of them for a superuser): the only
    ones they may put in a championship."""
    if not (user.is_authenticated and user.is_active):
        return Tournament.objects.none()
    if user.is_superuser:
        return Tournament.objects.all()
    return Tournament.objects.filter(
        Q(owner=user) | Q(roles__user=user, roles__role=TournamentRole.Role.ARBITER)
    ).distinct()


def visible_players(user) -> QuerySet[Player]:
    """The roster entries a user may see (search, register by id, merge): those one of their
    clubs added (origin_club) or that registered in one of its tournaments, and the players of
    the tournaments they work on; every entry for a superuser, none for anyone else. Another
    club's entries stay out of sight: the roster is one table, not one club's."""
    if not (user.is_authenticated and user.is_active):
        return Player.objects.none()
    if user.is_superuser:
        return Player.objects.all()
    clubs = list(club_roles(user))
    registered = Registration.objects.filter(player=OuterRef("pk")).filter(
        Q(tournament__host_club_id__in=clubs)
        | Q(tournament__owner_id=user.pk)
        | Q(tournament__roles__user_id=user.pk)
    )
    return Player.objects.filter(Q(origin_club_id__in=clubs) | Exists(registered))


def club_players(club_id: int | None) -> QuerySet[Player]:
    """A club's roster entries: those it added and those registered in one of its tournaments
    (the roster a tournament of this club checks a typed licence against); the whole roster for
    a tournament of no club (an install from before clubs)."""
    if club_id is None:
        return Player.objects.all()
    registered = Registration.objects.filter(
        player=OuterRef("pk"), tournament__host_club_id=club_id
    )
    return Player.objects.filter(Q(origin_club_id=club_id) | Exists(registered))
