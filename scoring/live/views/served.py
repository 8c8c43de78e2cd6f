"""One request's shared ranking (scoring.live.shared), read once and kept on the request: a page
and the fragments inside it show the same one, and say which revision it is of
(request_version: a page rendered from it is stored under that revision, scoring.live.versioned)."""

from __future__ import annotations

from scoring.live.shared import Served, shared_standings
from tournament.access.permissions import TournamentRequest


def request_standings(request: TournamentRequest, *, public: bool) -> Served:
    """The shared standings for this audience."""
    cache: dict[bool, Served] = request.__dict__.setdefault("served_standings", {})
    if public not in cache:
        cache[public] = shared_standings(request.tournament, public=public)
    return cache[public]


def request_version(request: TournamentRequest) -> str:
    """The revision of the public standings this request shows."""
    return request_standings(request, public=True).version
