"""The venue's hall screen: a bracket's secret hall link opens its event's whole session — who
sits where across the venue (table numbers are unique), then each bracket's standings in turn,
on the hall screen's own machinery (hall.js pours the sections into pages and cycles them).

As a tournament's hall slides (scoring.live.views.hall), the slides are versioned by the public
standings each bracket serves (shared and coalesced: scoring.live.shared), rendered once per
version and language and shared by every screen of every server process."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from functools import wraps
from typing import TYPE_CHECKING, Any

from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import get_language, gettext
from django.views.decorators.http import condition, require_safe

from scoring.events.venue import session_brackets, venue_hall
from scoring.live.rendered import EVENT_HALL, served_fragment
from scoring.live.shared import Served, shared_standings
from scoring.live.views.cockpit import CLOCK_HEADER, clock_header_value
from scoring.live.views.screens import POLL_SECONDS, SCREEN_TEMPLATE, page_seconds, private
from tournament.access.permissions import TournamentRequest, hall_screen
from tournament.evening.clock import state_of

if TYPE_CHECKING:
    from tournament.models import Tournament


def _brackets(request: TournamentRequest) -> tuple[int, list[Tournament]]:
    """The session shown and its brackets, read once a request."""
    found: tuple[int, list[Tournament]] | None = getattr(request, "venue_brackets", None)
    if found is None:
        event = request.tournament.event
        if event is None:
            raise Http404  # a tournament of its own: its hall screen is hall-screen
        found = request.venue_brackets = session_brackets(event)  # type: ignore[attr-defined]
    return found


def _served(request: TournamentRequest) -> list[Served]:
    """Each bracket's shared public standings, read once a request."""
    found: list[Served] | None = getattr(request, "venue_served", None)
    if found is None:
        _session, brackets = _brackets(request)
        found = [shared_standings(bracket, public=True) for bracket in brackets]
        request.venue_served = found  # type: ignore[attr-defined]
    return found


def _hall_version(request: TournamentRequest) -> str:
    """The session and the version of each bracket's public standings served: a logged write
    moves it (the standings' fingerprint reads the latest history record), at most a poll
    period late while a big field's deals come."""
    session, brackets = _brackets(request)
    served = _served(request)
    pairs = zip(brackets, served, strict=True)
    key = f"{session}:" + ":".join(f"{bracket.pk}={s.version}" for bracket, s in pairs)
    return hashlib.sha256(key.encode()).hexdigest()[:20]


def _hall_etag(request: TournamentRequest, token: str) -> str:
    return f"{_hall_version(request)}-{get_language()}"


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
    content = venue_hall(brackets, [served.standings for served in _served(request)])
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
    """The same for every screen of a version and language: rendered once and shared."""
    session, brackets = _brackets(request)
    version = _hall_version(request)
    if not brackets:
        return _slides(request, token)[0]
    key = f"{session}:{get_language()}"
    return served_fragment(brackets[0], EVENT_HALL, key, version, lambda: _slides(request, token))


def _slides(request: TournamentRequest, token: str) -> tuple[HttpResponse, str]:
    context = _context(request, token)
    template = "scoring/events/venue/_hall_slides.html"
    return render(request, template, context), _hall_version(request)
