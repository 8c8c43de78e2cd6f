"""An event's public page: each public bracket of a session with its standings side by side
(the cumulative ranking and the session's), each bracket's own public page one tap away.

What the public sees is scoring.live.counted's rule (public brackets only, counted deals only);
a private event answers 404 (tournament.access.permissions.event_required, hidden).

It is a live view (scoring.live.versioned): its scope is the event's, every bracket's revision
read in one statement and summed (each only grows, and a bracket once in an event stays there,
so the sum moves whenever one of them does: an event's own settings move each bracket's); an
unchanged event answers 304 with no body. The brackets' standings, PAGE_SIZE lines of each a
page, are computed once per revision, language, session and page (the first MAX_PAGES) and
shared by every viewer of every server process, stored beside the event's first bracket; the
page around them (the viewer's menu) is rendered for each viewer, with no query of its own.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.http import HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django.views.decorators.http import require_safe

from scoring.events.venue import bracket_revisions, session_brackets, venue_standings
from scoring.events.wording import carry_text, cut_text
from scoring.live.rendered import MAX_PAGES
from scoring.live.versioned import Versioned, serve, stored_text, versioned
from scoring.sheets.views.sheet_page import int_or_none
from tournament.access.permissions import EventRequest, Permission, event_required

# Lines of each bracket's standings a page, as on a tournament's public standings.
PAGE_SIZE = 50
BRACKETS_TEMPLATE = "scoring/events/venue/_public_brackets.html"
# The page in the live store's terms (computed for each viewer), and its brackets' render
# (stored per language, session and page).
EVENT_PAGE = "event"
EVENT_BRACKETS = "event-page"


def session_asked(request: EventRequest) -> int | None:
    value = request.GET.get("seance", "")
    return int(value) if value.isascii() and value.isdigit() and len(value) <= 3 else None


def page_asked(request: EventRequest) -> int:
    value = request.GET.get("page", "1")
    page = int_or_none(value) if value.isascii() and len(value) <= 4 else None
    return page if page is not None and page >= 1 else 1


@dataclass(frozen=True)
class EventScope:
    """The event's brackets (by id) with their sessions and revisions, read in one statement
    once a request (the scope, the variant, then the page), and the session shown (the one
    asked if it exists, else the latest, as session_brackets)."""

    brackets: list[tuple[int, int, int]]
    session: int

    @property
    def sessions(self) -> list[int]:
        return sorted({session for _pk, session, _number in self.brackets})

    @property
    def scope(self) -> tuple[int, int]:
        """Stored beside the first bracket, at the sum of the brackets' revisions."""
        home = self.brackets[0][0] if self.brackets else 0
        return home, sum(number for _pk, _session, number in self.brackets)


def event_scope(request: EventRequest) -> EventScope:
    found: EventScope | None = getattr(request, "event_scope", None)
    if found is None:
        brackets = bracket_revisions(request.event)
        sessions = {session for _pk, session, _number in brackets}
        asked = session_asked(request)
        session = asked if asked is not None and asked in sessions else max(sessions, default=1)
        found = EventScope(brackets, session)
        request.event_scope = found  # type: ignore[attr-defined]
    return found


def _scope(request: EventRequest, pk: int) -> tuple[int, int]:
    return event_scope(request).scope


def _variant(request: EventRequest, pk: int) -> str:
    return f"{get_language()}:{event_scope(request).session}:{page_asked(request)}"


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


def _shared_brackets(request: EventRequest, current: EventScope, page: int) -> Versioned:
    """The brackets' render at the event's revision: stored, or computed once and stored (the
    one mechanism, scoring.live.versioned); past MAX_PAGES, rendered for this viewer."""

    def html() -> HttpResponse:
        return HttpResponse(_brackets_html(request, current.session, page))

    variant = _variant(request, 0) if current.brackets and page <= MAX_PAGES else None
    return serve(
        request,
        what=EVENT_BRACKETS,
        variant=variant,
        scope=current.scope,
        compute=html,
        conditional=False,
    )


@event_required(Permission.EVENT_PUBLIC, hidden=True)
@require_safe
@versioned(EVENT_PAGE, _variant, scope=_scope, store=False)
def public_event(request: EventRequest, pk: int) -> HttpResponse:
    """The page holds its viewer's menu: computed for each (the brackets inside it shared),
    sent under the revision of the brackets it shows."""
    current = event_scope(request)
    brackets = _shared_brackets(request, current, page_asked(request))
    context = {
        "event": request.event,
        "session": current.session,
        "sessions": current.sessions,
        "brackets_html": mark_safe(stored_text(brackets) or ""),  # _brackets_html's, our template
    }
    response = render(request, "scoring/events/venue/public_event.html", context)
    response.revision = brackets.revision  # type: ignore[attr-defined]
    patch_cache_control(response, no_cache=True)
    patch_vary_headers(response, ["Accept-Language", "Cookie"])
    return response
