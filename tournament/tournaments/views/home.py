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


def home(request: HttpRequest) -> HttpResponse:
    mine = visible_tournaments(request.user)
    context = {
        # The desk's people open their tournaments' desks; everyone reads public standings.
        "tournaments": mine,
        "public": public_tournaments(besides=mine),
        "can_edit": may(request.user, Permission.CREATE),
    }
    return render(request, "home.html", context)
