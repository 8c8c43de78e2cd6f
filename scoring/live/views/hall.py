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
from django.views.decorators.http import condition, require_safe

from scoring.live.hall import HallContent, hall_content
from scoring.live.rendered import (
    HALL,
    HALL_PLAN,
    recent_version,
    served_fragment,
    shared_fragment,
    store_fragment,
)
from scoring.live.views.cockpit import live
from scoring.live.views.screens import POLL_SECONDS, SCREEN_TEMPLATE, page_seconds, private
from scoring.live.views.served import request_standings, request_version
from tournament.access.permissions import TournamentRequest, hall_screen
from tournament.evening.clock import state_of

# Slides rendered this recently are kept, new data or not (a poll period: the screen polls every
# 5 s); only while the public standings are coalesced (LIVE_STANDINGS_COALESCE), as served.
KEEP_SECONDS = 5


def _hall_version(request: TournamentRequest, version: str | None = None) -> str:
    """The version of the public standings the slides show (those served unless said). Every
    logged write moves it (a seat swapped, a position published: the standings' fingerprint
    reads the latest history record), at most a few seconds late while a big field's deals
    come (scoring.live.shared coalesces the public ranking), so a deal does not re-render the
    whole room's table plan; the clock rides in a header of every answer. Slides rendered less
    than KEEP_SECONDS ago are kept, whatever came since (the whole room's plan and standings
    cost a tenth of a second to render at 200 players, which every other request of the
    server process waits for): a change shows within two poll periods."""
    if version is not None:
        return version
    versions: dict[str, str] = request.__dict__.setdefault("hall_versions", {})
    if "kept" not in versions:
        keep = KEEP_SECONDS if settings.LIVE_STANDINGS_COALESCE else 0
        kept = recent_version(request.tournament, HALL, get_language(), keep)
        versions["kept"] = kept or request_version(request)
    return versions["kept"]


def _hall_etag(request: TournamentRequest, token: str, version: str | None = None) -> str:
    return f"{_hall_version(request, version)}-{get_language()}"


def _hall_content(request: TournamentRequest, token: str) -> tuple[HallContent, str]:
    """What the screen shows, from the shared public standings, and its ETag."""
    served = request_standings(request, public=True)
    return hall_content(request.tournament, served.standings), _hall_etag(
        request, token, served.version
    )


@hall_screen
@require_safe
def hall_page(request: TournamentRequest, token: str) -> HttpResponse:
    """The screen, its slides those its polls get: kept ones if they are (KEEP_SECONDS), so that
    its first poll neither answers 200 nor goes back to older standings than the page showed."""
    tournament = request.tournament
    content, etag = _hall_content(request, token)
    kept = _hall_version(request)
    slides = shared_fragment(tournament, HALL, get_language(), kept)
    if slides is not None:
        etag = _hall_etag(request, token, kept)
    context = {
        "tournament": tournament,
        "content": content,
        "slides_html": None if slides is None else mark_safe(slides),  # noqa: S308 - ours
        "plan_html": _plan_html(request, content) if slides is None else "",
        "clock": state_of(content.position) if content.position is not None else None,
        "etag": etag,
        "slides_url": reverse("hall-slides", args=[token]),
        "screen_name": tournament.name,
        "screen_title": tournament.name,
        "slides_template": "hall/_slides.html",
        "page_seconds": page_seconds(request),
        "poll_seconds": POLL_SECONDS,
    }
    return private(render(request, SCREEN_TEMPLATE, context))


@hall_screen
@require_safe
@live
@condition(etag_func=_hall_etag)
def hall_slides(request: TournamentRequest, token: str) -> HttpResponse:
    """The slides, the same for every screen of a version and language: rendered once and
    shared (scoring.live.rendered)."""
    version = _hall_version(request)
    return private(
        served_fragment(
            request.tournament, HALL, get_language(), version, lambda: _slides(request, token)
        )
    )


def _slides(request: TournamentRequest, token: str) -> tuple[HttpResponse, str]:
    """The slides rendered from the shared standings, and the version they show."""
    content, _etag = _hall_content(request, token)
    context = {"content": content, "plan_html": _plan_html(request, content)}
    return render(request, "hall/_slides.html", context), _hall_version(request)


def _plan_html(request: TournamentRequest, content: HallContent) -> SafeString:
    """The room plan's sections (who sits where, the tables), rendered once per plan and
    language and shared: a plan changes when a position is published or closed, a seat swapped
    or a name corrected, not at every deal, and it was half the slides' render (0.1 s at 200
    players, while the worker's other requests wait)."""
    if content.plan is None or content.position is None:
        return mark_safe("")
    key, version = get_language(), content.plan.version
    body = shared_fragment(request.tournament, HALL_PLAN, key, version)
    if body is None:
        context = {"position": content.position, "plan": content.plan, "in_play": content.in_play}
        body = render_to_string("hall/_plan.html", context, request=request)
        store_fragment(request.tournament, HALL_PLAN, key, version, body)
    return mark_safe(body)  # noqa: S308 - rendered by our own template, escaped there
