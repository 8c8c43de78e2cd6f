"""The players' live pages: standings, "find me" and a player's own page, read-only, no login.

Made for phones on a tournament evening: the standings come one page at a time, and the
5-second refreshes carry the ETag the page was sent with, so an unchanged tournament answers
304 with no body; a change sends only the page being looked at.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.http import HttpResponse
from django.shortcuts import render
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django.views.decorators.http import require_safe

from scoring.live.card import card_deals_html
from scoring.live.rendered import MAX_PAGES
from scoring.live.shared import request_standings
from scoring.live.versioned import etag_header, serve, stored_text, tournament_scope, versioned
from scoring.live.views.reports import VIEWS, ranking_context
from scoring.sheets.views.sheet_page import int_or_none
from tournament.access.permissions import TournamentRequest, public_page
from tournament.core.collation import matches, person_key
from tournament.evening.selectors import player_seating
from tournament.players.selectors import registration_or_404, roster

if TYPE_CHECKING:
    from tournament.models import Tournament

# Rows per page of the public standings: the first screen stays light at 800 players.
PAGE_SIZE = 50
# Names listed by "find me"; past that, the player types a few more letters.
FOUND_LIMIT = 20
QUERY_MAX_LENGTH = 80
# The public standings' pages in the live store (the first MAX_PAGES of a default request).
STANDINGS_PAGE = "standings"
# A player's card (or whole page) in the live store's terms: computed for each viewer, never
# stored (its deals are, scoring.live.card). It shows the shared ranking's row (kept a few
# seconds while deals come: scoring.live.shared) beside what is read fresh (its deals,
# penalties and seat): its ETag names both the tournament's revision and the ranking's.
CARD = "card"


def _card_variant(request: TournamentRequest, pk: int, registration: int) -> str:
    """The language, the player, the ranking's version shown, and the card alone (asked by
    htmx) or the whole page: two representations, two ETags."""
    ranking = request_standings(request, public=True).version
    return f"{get_language()}:{registration}:{ranking}:{'card' if request.htmx else 'page'}"


def _card_scope(request: TournamentRequest, pk: int, registration: int) -> tuple[int, int]:
    registration_or_404(request.tournament, registration)  # no ETag answers for a 404
    return tournament_scope(request)


def _revalidated(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """A public page revalidated at every visit, varying with what it is rendered from."""

    @wraps(view)
    def wrapper(request: TournamentRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        response = view(request, *args, **kwargs)
        patch_cache_control(response, no_cache=True)
        patch_vary_headers(response, ["HX-Request", "Accept-Language", "Cookie"])
        return response

    return wrapper


def _standings_context(request: TournamentRequest, tournament: Tournament) -> dict[str, Any]:
    standings = request_standings(request, public=True).standings
    ranking = ranking_context(
        request, tournament, public=True, per_page=PAGE_SIZE, standings=standings
    )
    return _page_context(tournament) | ranking


@public_page()
@require_safe
@_revalidated
def public_tournament(request: TournamentRequest, pk: int) -> HttpResponse:
    """The standings page: the partial its refreshes poll (stored once for every viewer of a
    default page) inside the page around it, which holds the viewer's own (a CSRF token)."""
    tournament = request.tournament
    variant = _shared_page_key(request)
    if variant is None:  # a search, a sort, a position: the page's form shows it
        context = _standings_context(request, tournament)
    else:  # a default page: no ranking is read unless the partial is computed
        context = _page_context(tournament)
    served = serve(
        request,
        what=STANDINGS_PAGE,
        variant=variant,
        scope=tournament_scope(request),
        compute=lambda: _partial_response(request, context),
        conditional=False,
    )
    # Its refreshes send it back: nothing is re-sent until what they would get changes.
    context["etag"] = etag_header(served.etag)
    text = stored_text(served)
    assert text is not None  # the partial always answers 200
    context["standings_html"] = mark_safe(text)  # rendered by _partial_response from our template
    return render(request, "scoring/public_tournament.html", context)


def _page_context(tournament: Tournament) -> dict[str, Any]:
    """The page around a partial (a default request's: first view, no position, no search)."""
    return {
        "tournament": tournament,
        "view": VIEWS[0],
        "position": None,
        "query": "",
        "polling": tournament.status != tournament.Status.FINISHED,
        "poll_seconds": settings.LIVE_POLL_SECONDS,
    }


def _shared_page_key(request: TournamentRequest, pk: int | None = None) -> str | None:
    """The language and page of a default request for one of the first MAX_PAGES pages, its
    number written as the site's links write it: the render's sort links repeat the query, so
    another spelling ("+1", "1_0", "01", spaces, two pages) is rendered for its viewer alone."""
    if set(request.GET) - {"page"} or len(request.GET.getlist("page")) > 1:
        return None
    asked = request.GET.get("page", "1")
    page = int_or_none(asked)
    if page is None or str(page) != asked or not 1 <= page <= MAX_PAGES:
        return None
    return f"{get_language()}:{page}"


@public_page()
@require_safe
@_revalidated
@versioned(STANDINGS_PAGE, _shared_page_key)
def public_standings_partial(request: TournamentRequest, pk: int) -> HttpResponse:
    """The visible page of the standings, for the refreshes and the search as you type: a
    default page (no search, sort nor other view) is the same for every viewer of a revision
    and language, computed once and shared."""
    return _partial_response(request)


def _partial_response(
    request: TournamentRequest, context: dict[str, Any] | None = None
) -> HttpResponse:
    """The partial rendered from the shared standings (in `context` if already read)."""
    if context is None or "table" not in context:
        context = _standings_context(request, request.tournament)
    response = render(request, "scoring/_public_standings.html", context)
    response.revision = request_standings(request, public=True).version  # type: ignore[attr-defined]
    return response


def found_players(tournament: Tournament, query: str) -> dict[str, Any]:
    """Players whose name holds every typed word, accents and case aside ("cote" → CÔTÉ).

    Folded in Python over the tournament's registrations, which are a few hundred at most.
    """
    query = query.strip()[:QUERY_MAX_LENGTH]
    if not query:
        return {"query": "", "entries": [], "more": 0}
    entries = [
        entry
        for entry in roster(tournament)
        if matches(query, entry.player.last_name, entry.player.first_name)
    ]
    entries.sort(key=lambda e: person_key(e.player.last_name, e.player.first_name))
    return {
        "query": query,
        "entries": entries[:FOUND_LIMIT],
        "more": max(len(entries) - FOUND_LIMIT, 0),
    }


def _found_page(request: TournamentRequest, template: str) -> HttpResponse:
    """A page listing the players whose name matches the query `q`."""
    tournament = request.tournament
    found = found_players(tournament, request.GET.get("q", ""))
    return render(request, template, {"tournament": tournament, "found": found})


@public_page()
@require_safe
@_revalidated
def public_me(request: TournamentRequest, pk: int) -> HttpResponse:
    """The phone page: a player finds themself (or the phone remembers them) in two taps."""
    return _found_page(request, "scoring/public_me.html")


@public_page()
@require_safe
@_revalidated
def public_players(request: TournamentRequest, pk: int) -> HttpResponse:
    """The names matching what the player is typing, as a list of links to their pages."""
    return _found_page(request, "scoring/_public_found.html")


@public_page()
@require_safe
@_revalidated
@versioned(CARD, _card_variant, scope=_card_scope, store=False)
def public_player(request: TournamentRequest, pk: int, registration: int) -> HttpResponse:
    """A player's own page: rank, total, tables, bilans and deals (published and counted only).

    Asked by htmx (the "me" page, the refreshes), it answers the card alone.
    """
    tournament = request.tournament
    entry = registration_or_404(tournament, registration)
    standings = request_standings(request, public=True).standings
    ranked = standings.rank_of(entry.pk)
    # Rendered once per content and shared: they move only with the player's own tables.
    deals, deals_html = card_deals_html(tournament, entry.pk)
    context = {
        "tournament": tournament,
        "entry": entry,
        "normalised": tournament.normalise_tables,
        "ranked": ranked,
        "deals": deals,
        "deals_html": deals_html,
        "current": player_seating(tournament, entry.pk).in_play,
        "players_count": len(standings.players),
        # "Classement provisoire — position 2 en cours (7/12 tables)", as the standings say it.
        "provisional": standings.provisional,
        "results": sorted(ranked.row.results.values(), key=lambda r: r.position) if ranked else [],
        "polling": tournament.status != tournament.Status.FINISHED,
        "poll_seconds": settings.LIVE_POLL_SECONDS,
    }
    if request.htmx:
        return render(request, "scoring/_public_player_card.html", context)
    # The page's refreshes ask for the card alone, with the card's ETag.
    page_etag: str = request.live_etag  # type: ignore[attr-defined]  # set by @versioned
    context["etag"] = etag_header(page_etag.removesuffix(":page") + ":card")
    return render(request, "scoring/public_player.html", context)
