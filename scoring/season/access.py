"""Who may do what on a season championship: the predicates and the decorator of its pages,
registered with django-rules beside the tournament ones (tournament.access.permissions), which
cannot read a championship (scoring builds on tournament, not the reverse).

A championship gathers finished tournaments into a season ranking. Its owner and the
co-organisers the owner names define it, and may put in it only tournaments they run. A circuit
is a championship across the clubs it invites (a comité's): each invited club's members see
what their club put in it, and whoever runs one of their club's tournaments adds or removes it
(CircuitEntry); only the organisers read the circuit's whole ranking.
Imported by ScoringConfig.ready(), so the permissions exist before any request.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import wraps
from typing import Any

import rules
from django.db.models import Q
from django.http import Http404, HttpRequest, HttpResponse

from scoring.models import Championship
from tournament.access.clubs import club_roles, is_club_member
from tournament.access.permissions import (
    Permission,
    is_active,
    is_co_arbiter,
    is_owner,
    may,
    refuse,
    runs_some_tournament,
)
from tournament.models import Tournament


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


def participating_club_ids(championship) -> set[int]:
    """The ids of the clubs a circuit invites, read once per championship object."""
    cached = getattr(championship, "_participating_club_ids", None)
    if cached is None:
        cached = set(championship.participating_clubs.values_list("pk", flat=True))
        championship._participating_club_ids = cached
    return cached


@dataclass(frozen=True)
class CircuitEntry:
    """One tournament going into or out of a circuit: what Permission.CIRCUIT_ENTER is asked
    about (django-rules passes one object)."""

    championship: Championship
    tournament: Tournament


@rules.predicate
def in_an_invited_club(user, championship) -> bool:
    return bool(set(club_roles(user)) & participating_club_ids(championship))


@rules.predicate
def enters_their_clubs_tournament(user, entry: CircuitEntry) -> bool:
    """The tournament is of one of the user's clubs, that club is invited, and the user runs
    the tournament (owner or co-arbiter): another club's tournament never goes in this way."""
    tournament = entry.tournament
    club = tournament.host_club_id
    if club is None or club not in club_roles(user):
        return False
    if club not in participating_club_ids(entry.championship):
        return False
    return bool(is_owner(user, tournament) or is_co_arbiter(user, tournament))


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

rules.add_perm(Permission.CIRCUIT_CONTRIBUTE, is_active & in_an_invited_club)
rules.add_perm(Permission.CIRCUIT_ENTER, is_active & enters_their_clubs_tournament)


def visible_circuits(user):
    """The circuits one of the user's clubs is invited to (every circuit for a superuser)."""
    if not (user.is_authenticated and user.is_active):
        return Championship.objects.none()
    circuits = Championship.objects.filter(participating_clubs__isnull=False)
    if not user.is_superuser:
        circuits = circuits.filter(participating_clubs__in=list(club_roles(user)))
    return circuits.distinct()


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
