"""What every hall screen's views share (a tournament's, scoring.live.views.hall, and a venue's,
scoring.events.views.hall): the pace of its pages and polls, and its privacy."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.utils.cache import patch_cache_control

# Seconds each page of the screen stays up (it polls every settings.LIVE_POLL_SECONDS); ?duree=
# changes it (3 to 120 s) for a slower hall or a quick check.
PAGE_SECONDS = 15
# The one page template of every hall screen: its context names the slides' template.
SCREEN_TEMPLATE = "hall/screen.html"


def page_seconds(request: HttpRequest) -> int:
    """The seconds each page stays up: ?duree= within 3 to 120 s, else PAGE_SECONDS."""
    try:
        seconds = int(request.GET.get("duree", PAGE_SECONDS))
    except ValueError:
        seconds = PAGE_SECONDS
    return min(max(seconds, 3), 120)


def private(response: HttpResponse) -> HttpResponse:
    """The URL is a credential: no search engine, no referrer, no shared cache."""
    patch_cache_control(response, no_store=True)
    response["X-Robots-Tag"] = "noindex, nofollow"
    response["Referrer-Policy"] = "no-referrer"
    return response


def privately(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """A screen's view whose every answer (a 304 too) is private."""

    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        return private(view(request, *args, **kwargs))

    return wrapper
