"""One request's standings: the fingerprint read once (by the ETag check, then by the page) and
the shared ranking it names (scoring.live.shared), each kept on the request.

The public's pages are versioned by the public ranking they serve (request_version), which
may be the previous one (coalesced, or while another process computes the new one): their ETag
checks, shared renders and the players' rows are all of that version."""

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
            request.tournament, public=public, version=lambda: request_fingerprint(request)
        )
    return cache[public]


def request_version(request: TournamentRequest) -> str:
    """The version of the public standings this request serves, and builds its ETags from."""
    return request_standings(request, public=True).version


def served_etag(
    response: HttpResponse, request: TournamentRequest, served: Served, etag: Callable[[str], str]
) -> HttpResponse:
    """While another process computes the new version, the previous one is served: under its
    own ETag (`etag(version)`), never the one the ETag check built from the fingerprint (the
    arbiter's pages; the public's are versioned by what they serve, request_version)."""
    if served.version != request_fingerprint(request):
        response["ETag"] = quote_etag(etag(served.version))
    return response
