"""The home page: the desk's tournaments, and the public ones."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from tournament.access.permissions import PUBLIC_TOURNAMENTS, Permission, may, visible_tournaments
from tournament.models import Tournament


def home(request: HttpRequest) -> HttpResponse:
    mine = visible_tournaments(request.user)
    context = {
        # The desk's people open their tournaments' desks; everyone reads public standings.
        "tournaments": mine,
        "public": Tournament.objects.filter(PUBLIC_TOURNAMENTS).exclude(pk__in=mine.values("pk")),
        "can_edit": may(request.user, Permission.CREATE),
    }
    return render(request, "home.html", context)
