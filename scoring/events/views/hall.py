"""The venue's hall screen: a bracket's secret hall link opens its event's whole session — who
sits where across the venue (table numbers are unique), then each bracket's standings in turn,
on the hall screen's own machinery (hall.js pours the sections into pages and cycles them).

As a tournament's hall slides (scoring.live.views.hall), the slides are @versioned: by the
session's revision, computed once per revision and language and shared by every screen of every
server process."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import get_language, gettext
from django.views.decorators.http import require_safe

from scoring.events.venue import session_brackets, venue_hall
from scoring.live.shared import Served, shared_standings
from scoring.live.versioned import brackets_scope, versioned
from scoring.live.views.cockpit import CLOCK_HEADER, clock_header_value
from scoring.live.views.screens import SCREEN_TEMPLATE, page_seconds, private
from tournament.access.permissions import TournamentRequest, hall_screen
from tournament.evening.clock import state_of

# A venue's hall slides in the live store: per session and language, beside its first bracket.
EVENT_HALL = "event-hall"

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


def _scope(request: TournamentRequest, token: str = "") -> tuple[int, int]:
    """The session's slides are stored beside its first bracket, at the session's revision: the
    sum of its brackets' (each only grows, so the sum moves whenever one does)."""
    _session, brackets = _brackets(request)
    if not brackets:
        return request.tournament.pk, 0
    return brackets_scope([bracket.pk for bracket in brackets])


def _variant(request: TournamentRequest, token: str = "") -> str | None:
    session, brackets = _brackets(request)
    return f"{session}:{get_language()}" if brackets else None


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
        "poll_seconds": settings.LIVE_POLL_SECONDS,
    }


@hall_screen
@require_safe
@clocked
def event_hall(request: TournamentRequest, token: str) -> HttpResponse:
    context = _context(request, token)
    event = context["event"]
    context.update(
        # The slides drawn are those its polls get at the revision they show: the first is a 304.
        etag=f"{_shown(request)}-{_variant(request)}",
        screen_name=event.name,
        screen_title=f"{event.name} — "
        + gettext("séance %(session)s") % {"session": context["session"]},
        slides_template="scoring/events/venue/_hall_slides.html",
    )
    return render(request, SCREEN_TEMPLATE, context)


@hall_screen
@require_safe
@clocked
@versioned(EVENT_HALL, _variant, scope=_scope)
def event_hall_slides(request: TournamentRequest, token: str) -> HttpResponse:
    """The same for every screen of a revision and language: computed once and shared."""
    return _slides(request, token)


def _slides(request: TournamentRequest, token: str) -> HttpResponse:
    context = _context(request, token)
    response = render(request, "scoring/events/venue/_hall_slides.html", context)
    response.revision = _shown(request)  # type: ignore[attr-defined]
    return response


def _shown(request: TournamentRequest) -> int:
    """The revision the rankings shown are of (each bracket's, summed as _scope sums them)."""
    return sum(int(served.version) for served in _served(request))
