"""The venue's hall screen: a bracket's secret hall link opens its event's whole session — who
sits where across the venue (table numbers are unique), then each bracket's standings in turn,
on the hall screen's own machinery (hall.js pours the sections into pages and cycles them)."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import get_language, gettext
from django.views.decorators.http import condition, require_safe

from scoring.events.venue import session_brackets, venue_hall
from scoring.live.cockpit import live_fingerprint
from scoring.live.views.cockpit import CLOCK_HEADER, clock_header_value
from scoring.live.views.screens import POLL_SECONDS, SCREEN_TEMPLATE, page_seconds, private
from tournament.access.permissions import TournamentRequest, hall_screen
from tournament.evening.clock import state_of


def _brackets(request: TournamentRequest):
    event = request.tournament.event
    if event is None:
        raise Http404  # a tournament of its own: its hall screen is hall-screen
    return session_brackets(event)


def _hall_etag(request: TournamentRequest, token: str) -> str:
    session, brackets = _brackets(request)
    prints = ":".join(live_fingerprint(b) for b in brackets)
    return f"{session}:{prints}-{get_language()}"


def clocked(view: Callable) -> Callable:
    """The session's main bracket's position clock rides along, even on a 304, as on a
    tournament's hall screen; the page is private (its URL is a credential)."""

    @wraps(view)
    def wrapper(request: TournamentRequest, token: str) -> HttpResponse:
        response = view(request, token)
        _session, brackets = _brackets(request)
        if brackets and response.status_code in (200, 304):
            response[CLOCK_HEADER] = clock_header_value(brackets[0])
        return private(response)

    return wrapper


def _context(request: TournamentRequest, token: str) -> dict[str, Any]:
    session, brackets = _brackets(request)
    content = venue_hall(brackets)
    return {
        "event": request.tournament.event,
        "session": session,
        "content": content,
        "clock": state_of(content.position) if content.position is not None else None,
        "slides_url": reverse("event-hall-slides", args=[token]),
        "page_seconds": page_seconds(request),
        "poll_seconds": POLL_SECONDS,
    }


@hall_screen
@require_safe
@clocked
def event_hall(request: TournamentRequest, token: str) -> HttpResponse:
    context = _context(request, token)
    event = context["event"]
    context.update(
        etag=_hall_etag(request, token),
        screen_name=event.name,
        screen_title=f"{event.name} — "
        + gettext("séance %(session)s") % {"session": context["session"]},
        slides_template="scoring/events/venue/_hall_slides.html",
    )
    return render(request, SCREEN_TEMPLATE, context)


@hall_screen
@require_safe
@clocked
@condition(etag_func=_hall_etag)
def event_hall_slides(request: TournamentRequest, token: str) -> HttpResponse:
    context = _context(request, token)
    return render(request, "scoring/events/venue/_hall_slides.html", context)
