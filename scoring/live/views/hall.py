"""The hall screen: a full-screen, read-only page for the room's projector or TV, no login.

The secret link is the credential (tournament.access.permissions.hall_screen); the page shows only
what is published and polls its slides with an ETag, the position clock riding along in a header.
"""

from __future__ import annotations

from django.conf import settings
from django.http import HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language
from django.views.decorators.http import require_safe

from scoring.live.hall import HallContent, hall_content
from scoring.live.rendered import HALL_PLAN, fragment
from scoring.live.shared import request_standings
from scoring.live.versioned import serve, stored_text, tournament_scope, versioned
from scoring.live.views.cockpit import live
from scoring.live.views.screens import SCREEN_TEMPLATE, page_seconds, private, privately
from tournament.access.permissions import TournamentRequest, hall_screen
from tournament.evening.clock import state_of

# The slides in the live store: per language.
HALL = "hall"


def _language(request: TournamentRequest, token: str) -> str:
    return get_language()


def _hall_content(request: TournamentRequest) -> HallContent:
    """What the screen shows, from the shared public standings."""
    return hall_content(request.tournament, request_standings(request, public=True).standings)


@hall_screen
@require_safe
def hall_page(request: TournamentRequest, token: str) -> HttpResponse:
    """The screen, its slides those its polls get (stored ones if they are kept), so that its
    first poll neither answers 200 nor goes back to older standings than the page showed."""
    tournament = request.tournament
    content = _hall_content(request)
    served = serve(
        request,
        what=HALL,
        variant=get_language(),
        scope=tournament_scope(request),
        compute=lambda: _slides(request, content),
        conditional=False,
    )
    context = {
        "tournament": tournament,
        "content": content,
        "slides_html": mark_safe(stored_text(served) or ""),  # noqa: S308 - our own render
        "clock": state_of(content.position) if content.position is not None else None,
        "etag": served.etag,
        "slides_url": reverse("hall-slides", args=[token]),
        "screen_name": tournament.name,
        "screen_title": tournament.name,
        "slides_template": "hall/_slides.html",
        "page_seconds": page_seconds(request),
        "poll_seconds": settings.LIVE_POLL_SECONDS,
    }
    return private(render(request, SCREEN_TEMPLATE, context))


@hall_screen
@require_safe
@live
@privately
@versioned(HALL, _language)
def hall_slides(request: TournamentRequest, token: str) -> HttpResponse:
    """The slides, the same for every screen of a revision and language: computed once and
    shared."""
    return _slides(request, _hall_content(request))


def _slides(request: TournamentRequest, content: HallContent) -> HttpResponse:
    context = {"content": content, "plan_html": _plan_html(request, content)}
    response = render(request, "hall/_slides.html", context)
    response.revision = request_standings(request, public=True).version  # type: ignore[attr-defined]
    return response


def _plan_html(request: TournamentRequest, content: HallContent) -> SafeString:
    """The room plan's sections (who sits where, the tables), rendered once per plan and
    language and shared: a plan changes when a position is published or closed, a seat swapped
    or a name corrected, not at every deal, and it was half the slides' render (0.1 s at 200
    players, while the worker's other requests wait)."""
    if content.plan is None or content.position is None:
        return mark_safe("")
    context = {"position": content.position, "plan": content.plan, "in_play": content.in_play}
    return fragment(
        request.tournament,
        HALL_PLAN,
        get_language(),
        content.plan.version,
        lambda: render_to_string("hall/_plan.html", context, request=request),
    )
