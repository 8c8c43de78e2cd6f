"""Every live view is served by the one mechanism (scoring.live.versioned): the URL patterns are
walked, and a live view without the decorator fails here. A live view is one a page polls (a
template's poll attributes name it), one named below (the pages a browser revalidates with
their ETag, the hall screens' slides), or any view answering from an ETag of its own: no module
but the decorator's may make one."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import URLPattern, URLResolver, get_resolver

from scoring.live.views import cockpit, hall, public
from scoring.live.views.screens import privately

# The live views by URL name: those a page polls with its ETag, the hall screens' slides, and
# the event's public page (revalidated by the browser).
LIVE = {
    "public-standings-partial",
    "hall-slides",
    "event-hall-slides",
    "cockpit-live",
    "event-venue-live",
    "public-player",
    "table-sheet",
    "public-event",
}
# Pages that poll a view outside the mechanism, each with its reason.
POLLED_OUTSIDE = {
    # The desk's entry overview reloads its table for its arbiter every few seconds, whole,
    # without an ETag (the same URL is the full page, which sets the desk's position).
    "entry-overview": "an arbiter's desk page, refreshed whole (no ETag)",
}
# What a page polls: the URL of a poll attribute, of the phone's sheet, or an hx-get triggered
# every few seconds.
POLLS = (
    re.compile(r"""data-poll="\{% url '([\w-]+)'"""),
    re.compile(r"""data-url-sheet="\{% url '([\w-]+)'"""),
    re.compile(r"""<[^>]*hx-get="\{% url '([\w-]+)'[^>]*hx-trigger="every """),
)
# Making an ETag or a 304 by hand: only scoring.live.versioned may (the middleware reads them).
OWN_ETAG = re.compile(
    r"condition\(|etag_func|@etag\b|HttpResponseNotModified|[\"']ETag[\"']|IF_NONE_MATCH"
)
ETAG_MAKERS = {Path("scoring/live/versioned.py"), Path("tournament/middleware.py")}


def _patterns(resolver: URLResolver) -> dict[str, object]:
    found: dict[str, object] = {}
    for entry in resolver.url_patterns:
        if isinstance(entry, URLResolver):
            found.update(_patterns(entry))
        elif isinstance(entry, URLPattern) and entry.name:
            found[entry.name] = entry.callback
    return found


def polled(text: str) -> set[str]:
    """The URL names a template's text polls."""
    return {name for pattern in POLLS for name in pattern.findall(text)}


def _templates_polled() -> set[str]:
    root = Path(settings.BASE_DIR) / "templates"
    return {name for path in root.rglob("*.html") for name in polled(path.read_text())}


def test_the_walk_finds_every_live_view():
    views = _patterns(get_resolver())
    assert LIVE | set(POLLED_OUTSIDE) <= set(views)


@pytest.mark.parametrize("name", sorted(LIVE))
def test_a_live_view_is_versioned(name):
    view = _patterns(get_resolver())[name]
    assert getattr(view, "versioned", None), f"{name} is a live view without @versioned"


def test_every_url_a_page_polls_is_a_live_view():
    found = _templates_polled()
    assert {"table-sheet", "public-standings-partial", "cockpit-live"} <= found  # the scan works
    views = _patterns(get_resolver())
    outside = {
        name for name in found - set(POLLED_OUTSIDE) if not getattr(views[name], "versioned", None)
    }
    assert not outside, f"polled without @versioned: {sorted(outside)}"


def test_no_view_makes_an_etag_of_its_own():
    root = Path(settings.BASE_DIR)
    makers = {
        path.relative_to(root)
        for app in ("scoring", "tournament")
        for path in (root / app).rglob("*.py")
        if OWN_ETAG.search(path.read_text())
    }
    assert makers <= ETAG_MAKERS, sorted(map(str, makers - ETAG_MAKERS))


def test_a_view_without_the_decorator_is_caught():
    """The check reads what the decorator leaves: a live view wrapped otherwise fails it; the
    scans find a poll and a hand-made ETag."""
    bare = privately(lambda request: None)
    assert not getattr(bare, "versioned", None)
    assert hall.hall_slides.versioned == "hall"  # type: ignore[attr-defined]
    assert public.public_standings_partial.versioned == "standings"  # type: ignore[attr-defined]
    assert not getattr(cockpit.tournament_detail, "versioned", None)
    page = """<div hx-get="{% url 'new-live' t.pk %}" hx-trigger="every 5s">"""
    assert polled(page) == {"new-live"}
    assert OWN_ETAG.search("@condition(etag_func=_sheet_etag)")
    assert OWN_ETAG.search('response["ETag"] = tag')
