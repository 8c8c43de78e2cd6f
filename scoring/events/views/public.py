"""An event's public page: each public bracket of a session with its standings side by side
(the cumulative ranking and the session's), each bracket's own public page one tap away.

What the public sees is scoring.live.counted's rule (public brackets only, counted deals only);
a private event answers 404 (tournament.access.permissions.event_required, hidden).

Its version is read in one statement whatever the number of brackets and players (the
version of the public ranking every bracket serves, shared and coalesced:
scoring.live.shared.event_versions) and names its ETag: an unchanged event answers 304 with no
body. The brackets' standings, PAGE_SIZE lines of each a page, are rendered once per version,
language, session and page (the first MAX_PAGES) and shared by every viewer of every server
process (scoring.live.rendered); the page around them (the viewer's menu) is rendered for each
viewer, with no query of its own.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

from django.http import HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django.views.decorators.http import condition, require_safe

from scoring.events.venue import session_brackets, venue_standings
from scoring.events.wording import carry_text, cut_text
from scoring.live.rendered import EVENT_PAGE, MAX_PAGES, shared_fragment, store_fragment
from scoring.live.shared import event_versions
from scoring.sheets.views.sheet_page import int_or_none
from tournament.access.permissions import EventRequest, Permission, event_required

# Lines of each bracket's standings a page, as on a tournament's public standings.
PAGE_SIZE = 50
BRACKETS_TEMPLATE = "scoring/events/venue/_public_brackets.html"


def session_asked(request: EventRequest) -> int | None:
    value = request.GET.get("seance", "")
    return int(value) if value.isascii() and value.isdigit() and len(value) <= 3 else None


def page_asked(request: EventRequest) -> int:
    value = request.GET.get("page", "1")
    page = int_or_none(value) if value.isascii() and len(value) <= 4 else None
    return page if page is not None and page >= 1 else 1


@dataclass(frozen=True)
class EventVersion:
    """The event's version, its sessions, the session shown (the one asked if it exists, else
    the latest, as session_brackets) and the bracket its renders are stored beside."""

    version: str
    sessions: list[int]
    session: int
    home: int | None


def event_version(request: EventRequest) -> EventVersion:
    """Read once a request (by the ETag check, then by the page): one statement."""
    found: EventVersion | None = getattr(request, "event_version", None)
    if found is None:
        event = request.event
        rows = event_versions(event.pk)
        sessions = sorted({row[1] or 0 for row in rows})
        asked = session_asked(request)
        session = asked if asked is not None and asked in sessions else max(sessions, default=1)
        key = repr((event.updated_at, event.is_public, rows))
        found = EventVersion(
            version=hashlib.sha256(key.encode()).hexdigest()[:20],
            sessions=sessions,
            session=session,
            home=rows[0][0] if rows else None,
        )
        request.event_version = found  # type: ignore[attr-defined]
    return found


def _public_etag(request: EventRequest, pk: int) -> str:
    current = event_version(request)
    page = page_asked(request)
    return f"{current.version}-{current.session}-{page}-{get_language()}"


def brackets_shown(standings_list, page: int = 1) -> tuple[list[dict[str, Any]], int, int]:
    """Each bracket's standings with its lines of `page` (the last page if past it), the page
    shown and the number of pages (that of the longest bracket)."""
    shown = []
    for standings in standings_list:
        lines = standings.lines
        session_lines = standings.session_lines
        shown.append(
            {
                "standings": standings,
                "lines": lines,
                "session_lines": session_lines,
                "carry": carry_text(standings.tournament),
                "cut": cut_text(standings.cumulative.cut, standings.tournament),
            }
        )
    pages = max([(len(item["lines"]) - 1) // PAGE_SIZE + 1 for item in shown], default=1)
    page = min(page, pages)
    start = (page - 1) * PAGE_SIZE
    for item in shown:
        item["ranked"] = len(item["lines"])
        item["lines"] = item["lines"][start : start + PAGE_SIZE]
        item["session_lines"] = item["session_lines"][start : start + PAGE_SIZE]
    return shown, page, pages


def _brackets_html(request: EventRequest, session: int, page: int) -> str:
    """The session's public brackets, their lines of `page`: the part every viewer shares (no
    request in its context, so nothing of the viewer's)."""
    _session, brackets = session_brackets(request.event, session)
    shown, page, pages = brackets_shown(venue_standings(brackets, public=True), page)
    context = {
        "session": session,
        "brackets": shown,
        "page": page,
        "pages": range(1, pages + 1) if pages > 1 else [],
    }
    return render_to_string(BRACKETS_TEMPLATE, context)


def _shared_brackets(request: EventRequest, current: EventVersion, page: int) -> str:
    """The brackets' render stored at the version the ETag check read (the data it is rendered
    from is read after that version, so never older), or rendered and stored."""
    if current.home is None or page > MAX_PAGES:
        return _brackets_html(request, current.session, page)
    home = current.home
    key = f"{get_language()}:{current.session}:{page}"
    body = shared_fragment(home, EVENT_PAGE, key, current.version)
    if body is None:
        body = _brackets_html(request, current.session, page)
        store_fragment(home, EVENT_PAGE, key, current.version, body)
    return body


@event_required(Permission.EVENT_PUBLIC, hidden=True)
@require_safe
@condition(etag_func=_public_etag)
def public_event(request: EventRequest, pk: int) -> HttpResponse:
    current = event_version(request)
    body = _shared_brackets(request, current, page_asked(request))
    context = {
        "event": request.event,
        "session": current.session,
        "sessions": current.sessions,
        "brackets_html": mark_safe(body),  # rendered by _brackets_html from our template
    }
    response = render(request, "scoring/events/venue/public_event.html", context)
    patch_cache_control(response, no_cache=True)
    patch_vary_headers(response, ["Accept-Language", "Cookie"])
    return response
