"""An event's public page: each public bracket of a session with its standings side by side
(the cumulative ranking and the session's), each bracket's own public page one tap away.

What the public sees is scoring.live.counted's rule (public brackets only, counted deals only);
a private event answers 404 (tournament.access.permissions.event_required, hidden).
"""

from __future__ import annotations

import hashlib
from typing import Any

from django.http import HttpResponse
from django.shortcuts import render
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.utils.translation import get_language
from django.views.decorators.http import condition, require_safe

from scoring.events.venue import session_brackets, sessions_of, venue_standings
from scoring.events.wording import carry_text, cut_text
from scoring.live.standings import standings_fingerprint
from tournament.access.permissions import EventRequest, Permission, event_required


def session_asked(request: EventRequest) -> int | None:
    value = request.GET.get("seance", "")
    return int(value) if value.isascii() and value.isdigit() and len(value) <= 3 else None


def _public_etag(request: EventRequest, pk: int) -> str:
    """The fingerprints of every bracket of the event: a cumulative ranking reads the earlier
    sessions too (one query a bracket)."""
    brackets = list(request.event.brackets.order_by("pk"))
    prints = ":".join(f"{b.pk}={b.is_public}={standings_fingerprint(b)}" for b in brackets)
    key = f"{request.GET.get('seance', '')}:{request.event.is_public}:{prints}"
    return f"{hashlib.sha256(key.encode()).hexdigest()[:20]}-{get_language()}"


def brackets_shown(standings_list) -> list[dict[str, Any]]:
    return [
        {
            "standings": standings,
            "carry": carry_text(standings.tournament),
            "cut": cut_text(standings.cumulative.cut, standings.tournament),
        }
        for standings in standings_list
    ]


@event_required(Permission.EVENT_PUBLIC, hidden=True)
@require_safe
@condition(etag_func=_public_etag)
def public_event(request: EventRequest, pk: int) -> HttpResponse:
    event = request.event
    session, brackets = session_brackets(event, session_asked(request))
    context = {
        "event": event,
        "session": session,
        "sessions": sessions_of(event),
        "brackets": brackets_shown(venue_standings(brackets, public=True)),
    }
    response = render(request, "scoring/events/venue/public_event.html", context)
    patch_cache_control(response, no_cache=True)
    patch_vary_headers(response, ["Accept-Language", "Cookie"])
    return response
