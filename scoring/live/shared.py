"""The tournament's ranking computed once per revision and shared by every server process: one
row of the live store per audience (`what` RANKING), claimed, kept and stored as
scoring.live.versioned stores a page (README, Architecture). The revision is read before the
data, so a ranking is never older than its revision; the public's is coalesced, the arbiter's
never. A request reads it once (request_standings): a page shows one ranking and its revision.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property

from scoring.live import versioned
from scoring.live.provisional import mark_provisional
from scoring.live.snapshot import decode, encode
from scoring.live.standings import Standings, standings_for
from scoring.models import LiveArtifact
from tournament.access.audit import revision_of
from tournament.access.permissions import TournamentRequest
from tournament.models import Tournament

# The ranking's row in the live store: its `what` (the pages rendered from it are others), and
# its `variant` by audience.
RANKING = "ranking"
VARIANTS = {True: "public", False: "arbiter"}


@dataclass
class Served:
    """A ranking (its provisional positions filled in) and the version it is of; a stored one
    is read from its row only when a page shows it (an ETag check needs the version alone)."""

    version: str
    load: Callable[[], Standings]

    @cached_property
    def standings(self) -> Standings:
        return self.load()


def request_standings(request: TournamentRequest, *, public: bool) -> Served:
    """The request's shared standings for this audience, read once."""
    cache: dict[bool, Served] = request.__dict__.setdefault("served_standings", {})
    if public not in cache:
        cache[public] = shared_standings(request.tournament, public=public)
    return cache[public]


def shared_standings(tournament: Tournament, *, public: bool) -> Served:
    """The tournament's standings at its revision: stored, or the previous ones while another
    process computes that revision or while the public's ranking keeps its revision
    (versioned.kept: then the revision is not even read), else computed and stored here."""
    row = versioned.stored_header(tournament.pk, RANKING, VARIANTS[public])
    kept = row is not None and public and versioned.kept(row)
    version = row.revision if kept and row else str(revision_of(tournament.pk))
    if row is not None and (row.revision == version or not versioned.claim(row, version)):
        stored = row  # claimed by another process, or current
        return Served(stored.revision, lambda: _stored(tournament, stored, public=public))
    standings = _computed(tournament, public=public, version=version)
    return Served(version, lambda: standings)


def _computed(tournament: Tournament, *, public: bool, version: str) -> Standings:
    """The ranking computed now (its data read after `version` was), stored under it."""
    started = time.monotonic()
    standings = mark_provisional(standings_for(tournament, public=public))
    content = encode(standings)
    versioned._store(tournament.pk, RANKING, VARIANTS[public], (version, version), content, started)
    return standings


def _stored(tournament: Tournament, row: versioned.Header, *, public: bool) -> Standings:
    """The ranking stored at `version`; computed afresh if the row has moved on since (a newer
    ranking under the older version: its next poll asks again), or if it is in an older
    format (then stored again, in this one)."""
    version = row.revision
    found = LiveArtifact.objects.filter(pk=row.pk, revision=version)
    payload = found.values_list("body", flat=True).first()
    if payload is None:
        return mark_provisional(standings_for(tournament, public=public))
    standings = decode(bytes(payload), tournament, public=public)
    if standings is None:
        standings = _computed(tournament, public=public, version=version)
    return standings
