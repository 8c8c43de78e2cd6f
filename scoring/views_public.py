"""The players' live standings: read-only pages of published tournaments, no login."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.utils.translation import get_language
from django.views.decorators.http import condition, require_safe

from scoring.standings import standings_fingerprint
from scoring.views_reports import player_context, ranking_context
from tournament.access import Permission, may
from tournament.models import Registration, Tournament

# How often the public page asks for fresh standings while the tournament runs.
POLL_SECONDS = 5


def public_tournament_or_404(request: HttpRequest, pk: int) -> Tournament:
    """Anyone reads a tournament whose standings are public; its staff may preview it."""
    tournament = get_object_or_404(Tournament, pk=pk)
    if not may(request.user, Permission.VIEW_PUBLIC, tournament):
        raise Http404
    return tournament


def _etag(request: HttpRequest, pk: int, **kwargs) -> str | None:
    # Polling asks every few seconds: an unchanged tournament answers 304 after one query.
    tournament = Tournament.objects.filter(pk=pk, is_public=True).first()
    if tournament is None:
        return None
    return f"{standings_fingerprint(tournament)}-{get_language()}"


def _public_context(request: HttpRequest, tournament: Tournament) -> dict:
    context = ranking_context(request, tournament, public=True)
    context["polling"] = tournament.status != Tournament.Status.FINISHED
    context["poll_seconds"] = POLL_SECONDS
    return context


def _revalidate(response: HttpResponse) -> HttpResponse:
    patch_cache_control(response, no_cache=True)
    patch_vary_headers(response, ["HX-Request", "Accept-Language", "Cookie"])
    return response


@require_safe
def public_tournament(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = public_tournament_or_404(request, pk)
    response = render(
        request, "scoring/public_tournament.html", _public_context(request, tournament)
    )
    return _revalidate(response)


@require_safe
@condition(etag_func=_etag)
def public_standings_partial(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = public_tournament_or_404(request, pk)
    response = render(
        request, "scoring/_public_standings.html", _public_context(request, tournament)
    )
    return _revalidate(response)


@require_safe
def public_player(request: HttpRequest, pk: int, registration: int) -> HttpResponse:
    tournament = public_tournament_or_404(request, pk)
    entry = get_object_or_404(
        Registration.objects.select_related("player", "team"),
        pk=registration,
        tournament=tournament,
    )
    context = player_context(tournament, entry, True)
    return _revalidate(render(request, "scoring/public_player.html", context))
