"""A club's public pages (the list of clubs with something public, and a club's home: its
calendar, results archive and championships) and a licence holder's own page of results across
every club's public tournaments. What they read is scoring.season.club_pages, public only."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.views.decorators.http import require_safe

from scoring.season.club_pages import (
    club_archive,
    club_calendar,
    club_championships,
    person_results,
    public_club_or_404,
    public_clubs,
    signup_open_now,
)
from tournament.access.permissions import TournamentRequest, public_page
from tournament.players.selectors import registration_or_404


@require_safe
def public_club_list(request: HttpRequest) -> HttpResponse:
    """The clubs of this server that publish something."""
    return render(request, "clubs/public_club_list.html", {"clubs": list(public_clubs())})


@require_safe
def public_club(request: HttpRequest, pk: int) -> HttpResponse:
    """A club's home: coming public tournaments (with their sign-up while it is open), the
    finished ones newest first, and its public championships. A club with nothing public
    answers 404."""
    club = public_club_or_404(pk)
    now = timezone.now()
    calendar = [
        {"tournament": one, "signup": signup_open_now(one, now)}
        for one in club_calendar(club, timezone.localdate())
    ]
    context = {
        "club": club,
        "calendar": calendar,
        "archive": club_archive(club, request.GET.get("page")),
        "championships": club_championships(club),
    }
    return render(request, "clubs/public_club.html", context)


@public_page(kwarg="pk")
@require_safe
def public_person(request: TournamentRequest, pk: int, registration: int) -> HttpResponse:
    """A person's results in every club's public tournaments, newest first: the roster entries
    sharing the licence of this public tournament's registration (the entry alone without a
    licence). Keyed by a public registration, so a visitor reaches only people the public
    pages already show, and never by a licence number, which the page does not print."""
    entry = registration_or_404(request.tournament, registration)
    shown, rows = person_results(entry.player, request.GET.get("page"))
    context = {"tournament": request.tournament, "entry": entry, "page": shown, "rows": rows}
    return render(request, "scoring/public_person.html", context)
