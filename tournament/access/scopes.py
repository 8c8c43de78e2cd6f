"""What a user may see, as querysets: the events they own, the tournaments they run."""

from __future__ import annotations

from django.db.models import Q, QuerySet

from tournament.models import Event, Tournament, TournamentRole


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
