"""Who may do what on a season championship: the predicates and the decorator of its pages,
registered with django-rules beside the tournament ones (tournament.access.permissions), which
cannot read a championship (scoring builds on tournament, not the reverse).

A championship gathers finished tournaments into a season ranking. Its owner and the
co-organisers the owner names define it, and may put in it only tournaments they run.
Imported by ScoringConfig.ready(), so the permissions exist before any request.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

import rules
from django.db.models import Q
from django.http import Http404, HttpRequest, HttpResponse

from scoring.models import Championship
from tournament.access.clubs import is_club_member
from tournament.access.permissions import (
    Permission,
    is_active,
    may,
    refuse,
    runs_some_tournament,
)


class ChampionshipRequest(HttpRequest):
    """The request a view gets behind championship_required: the championship is on it."""

    championship: Championship


def _organiser_ids(championship) -> set[int]:
    """The co-organisers' ids, read once per championship object."""
    cached = getattr(championship, "_organiser_ids", None)
    if cached is None:
        cached = set(championship.organisers.values_list("pk", flat=True))
        championship._organiser_ids = cached
    return cached


@rules.predicate
def organises_championship(user, championship) -> bool:
    if user.pk is None:
        return False
    return championship.owner_id == user.pk or user.pk in _organiser_ids(championship)


# The championships anyone may read, as a query (championship_is_public below, for one): the
# clubs' public pages list these and no other.
PUBLIC_CHAMPIONSHIPS = Q(is_public=True)


@rules.predicate
def championship_is_public(user, championship) -> bool:
    return championship.is_public


rules.add_perm(Permission.CHAMPIONSHIPS, is_active & (is_club_member | runs_some_tournament))
rules.add_perm(Permission.CHAMPIONSHIP_MANAGE, is_active & organises_championship)
rules.add_perm(
    Permission.CHAMPIONSHIP_PUBLIC, championship_is_public | (is_active & organises_championship)
)


def visible_championships(user):
    """The championships a user organises (all of them for a superuser)."""
    if not (user.is_authenticated and user.is_active):
        return Championship.objects.none()
    if user.is_superuser:
        return Championship.objects.all()
    return Championship.objects.filter(Q(owner=user) | Q(organisers=user)).distinct()


def championship_required(
    permission: Permission, kwarg: str = "pk"
) -> Callable[[Callable[..., HttpResponse]], Callable[..., HttpResponse]]:
    """Check `permission` on the championship the URL points at, then run the view.

    The championship is left on `request.championship`. A championship the user may not see
    publicly answers 404 (as the public tournament pages do); the organisers' pages send
    anonymous users to log in and refuse the others.
    """

    def decorator(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        @wraps(view)
        def wrapper(request: ChampionshipRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            championship = Championship.objects.filter(pk=kwargs[kwarg]).first()
            if championship is None:
                raise Http404
            if not may(request.user, permission, championship):
                if permission == Permission.CHAMPIONSHIP_PUBLIC:
                    raise Http404
                return refuse(request)
            request.championship = championship
            return view(request, *args, **kwargs)

        # Read by the tests that walk every URL (a function attribute mypy cannot declare).
        setattr(wrapper, "permission", permission)  # noqa: B010
        return wrapper

    return decorator
