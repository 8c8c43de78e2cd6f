"""Circuits across clubs: a championship (often a comité's) invites clubs, and each invited
club's arbiters put their own tournaments in it or take them out. Who may is asked of
scoring.season.access (Permission.CIRCUIT_ENTER on a CircuitEntry); every entry and exit is
logged in the tournament's club.

An invited club's arbiter sees the circuit's tournaments of their own clubs, the other clubs'
public ones, and only the number of the others: another club's private tournament is never
named to them. The organisers' ranking is the championship's own (scoring.season.championships).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.http import Http404

from scoring.live.counted import public_tournaments
from scoring.models import Championship
from scoring.season.access import CircuitEntry, participating_club_ids
from tournament.access.audit import change_record
from tournament.access.clubs import club_roles
from tournament.access.permissions import Permission, may
from tournament.access.scopes import managed_tournaments
from tournament.models import ChangeLog, Club, Tournament


@dataclass(frozen=True)
class CircuitPage:
    """What an invited club's arbiter sees of a circuit."""

    championship: Championship
    host_club: Club | None
    clubs: list[Club]  # the invited clubs
    mine: list[Tournament]  # the circuit's tournaments of the user's clubs
    removable: set[int]  # which of them the user may take out
    others_public: list[Tournament]  # the other clubs' public tournaments in it
    others_private: int  # how many other tournaments, never named
    addable: list[Tournament]  # the user's tournaments they may put in


def circuit_page(championship: Championship, user) -> CircuitPage:
    """The circuit as the user's clubs see it (a constant number of queries)."""
    invited = participating_club_ids(championship)
    mine_clubs = invited if user.is_superuser else invited & set(club_roles(user))
    entered = list(championship.tournaments.select_related("host_club").order_by("date", "pk"))
    mine = [t for t in entered if t.host_club_id in mine_clubs]
    others = [t for t in entered if t.host_club_id not in mine_clubs]
    others_public = public_tournaments(others)
    candidates = (
        managed_tournaments(user)
        .filter(host_club_id__in=mine_clubs)
        .exclude(pk__in=[t.pk for t in entered])
        .order_by("-date", "name")
    )
    addable = [t for t in candidates if _may_enter(user, championship, t)]
    return CircuitPage(
        championship=championship,
        host_club=championship.host_club,
        clubs=invited_clubs(championship),
        mine=mine,
        removable={t.pk for t in mine if _may_enter(user, championship, t)},
        others_public=others_public,
        others_private=len(others) - len(others_public),
        addable=addable,
    )


def invited_clubs(championship: Championship) -> list[Club]:
    """The clubs a circuit invites, by name (none for a club's own championship)."""
    return list(championship.participating_clubs.order_by("name"))


def circuit_entry_or_404(championship: Championship, tournament: int) -> CircuitEntry:
    """The tournament the URL names, as an entry of this circuit (404 when there is none)."""
    found = Tournament.objects.filter(pk=tournament).select_related("host_club").first()
    if found is None:
        raise Http404
    return CircuitEntry(championship, found)


def _may_enter(user, championship: Championship, tournament: Tournament) -> bool:
    return may(user, Permission.CIRCUIT_ENTER, CircuitEntry(championship, tournament))


@transaction.atomic
def circuit_tournament_add(*, user, championship: Championship, tournament: Tournament) -> bool:
    """Put the tournament in the circuit; False when it already was. Refused (PermissionDenied)
    unless the user runs it and its club is invited."""
    return _circuit_entry_set(user=user, championship=championship, tournament=tournament, on=True)


@transaction.atomic
def circuit_tournament_remove(*, user, championship: Championship, tournament: Tournament) -> bool:
    """Take the tournament out of the circuit; False when it was not in. Refused as adding."""
    return _circuit_entry_set(user=user, championship=championship, tournament=tournament, on=False)


def _circuit_entry_set(*, user, championship, tournament, on: bool) -> bool:
    if not _may_enter(user, championship, tournament):
        raise PermissionDenied
    # The championship row locked: two arbiters adding at once are recorded one after the other.
    Championship.objects.select_for_update().filter(pk=championship.pk).first()
    present = championship.tournaments.filter(pk=tournament.pk).exists()
    if present == on:
        return False
    if on:
        championship.tournaments.add(tournament)
    else:
        championship.tournaments.remove(tournament)
    state = {"circuit": [championship.pk, championship.name], "tournament": tournament.name}
    change_record(
        tournament=tournament,
        obj=championship,
        action=ChangeLog.Action.UPDATE,
        before={**state, "in_circuit": present},
        after={**state, "in_circuit": on},
        user=user,
        club=tournament.host_club,
    )
    return True
