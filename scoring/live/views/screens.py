"""What every hall screen's views share (a tournament's, scoring.live.views.hall, and a venue's,
scoring.events.views.hall): the pace of its pages and polls, and its privacy."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.utils.cache import patch_cache_control

# Seconds each page of the screen stays up, and between two polls; ?duree= changes the first
# (3 to 120 s) for a slower hall or a quick check.
PAGE_SECONDS = 15
POLL_SECONDS = 5
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
