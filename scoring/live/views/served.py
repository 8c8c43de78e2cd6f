"""One request's standings: the fingerprint read once (by the ETag check, then by the page) and
the shared ranking it names (scoring.live.shared), each kept on the request."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpResponse
from django.utils.http import quote_etag

from scoring.live.counted import standings_fingerprint
from scoring.live.shared import Served, shared_standings
from tournament.access.permissions import TournamentRequest


def request_fingerprint(request: TournamentRequest) -> str:
    fingerprint: str | None = getattr(request, "standings_fingerprint", None)
    if fingerprint is None:
        fingerprint = standings_fingerprint(request.tournament)
        request.standings_fingerprint = fingerprint  # type: ignore[attr-defined]
    return fingerprint


def request_standings(request: TournamentRequest, *, public: bool) -> Served:
    """The shared standings for this audience, at the version the ETag check read."""
    cache: dict[bool, Served] = request.__dict__.setdefault("served_standings", {})
    if public not in cache:
        cache[public] = shared_standings(
            request.tournament, public=public, version=request_fingerprint(request)
        )
    return cache[public]


def served_etag(
    response: HttpResponse, request: TournamentRequest, served: Served, etag: Callable[[str], str]
) -> HttpResponse:
    """While another process computes the new version, the previous one is served: under its
    own ETag (`etag(version)`), never the one the ETag check built from the new version."""
    return version_etag(response, request, served.version, etag(served.version))


def version_etag(
    response: HttpResponse, request: TournamentRequest, version: str, etag: str
) -> HttpResponse:
    """The same for a response made from data of `version`, to be sent under `etag` if that
    is not the version the ETag check read."""
    if version != request_fingerprint(request):
        response["ETag"] = quote_etag(etag)
    return response
