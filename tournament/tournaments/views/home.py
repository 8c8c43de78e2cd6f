"""The home page: the desk's tournaments, and the public ones."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from tournament.access.permissions import (
    Permission,
    may,
    public_tournaments,
    visible_tournaments,
)
from tournament.clubs.selectors import invitations_of
from tournament.players.conflicts import open_conflicts_by_club


def home(request: HttpRequest) -> HttpResponse:
    mine = visible_tournaments(request.user)
    context = {
        # The desk's people open their tournaments' desks; everyone reads public standings.
        "tournaments": mine,
        "public": public_tournaments(besides=mine),
        "can_edit": may(request.user, Permission.CREATE),
        # Licence conflicts waiting in the user's clubs (issue 27: flagged, resolved later).
        "licence_conflicts": open_conflicts_by_club(request.user),
        # Invitations into a club wait for the account's own answer (issue 36).
        "invitations": invitations_of(request.user).count(),
    }
    return render(request, "home.html", context)
