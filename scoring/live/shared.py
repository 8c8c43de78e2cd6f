"""Standings computed once per version of their data and shared by every request of every
server process, through one database row per tournament and audience (StandingsSnapshot).

The version is the standings' fingerprint (counted.standings_fingerprint), the ETag the live
pages already send: it is derived from the data in one query, so no write can forget to move
it (a deal, a correction, a sheet validated, an incident, a position published or closed, a
check-in, a tournament setting, an import or a restored backup alike). It is read before the
data, so a ranking is never older than the version it is served under.

When the version moves, the first process to claim it computes (one atomic UPDATE); while it
does, the others serve the previous ranking under the previous version, so a stale answer never
carries the new version's ETag and the next poll asks again. A claim left by a process that died
lapses after CLAIM_SECONDS. The new ranking replaces the row in one atomic upsert.

A player's card shows one row of the public ranking: the rows are stored apart too, in
ROW_BUCKETS rows of shared renders under the same version, so that a card's poll reads its
bucket rather than decoding the field's ranking. A card finding no bucket at its version (not
stored yet, or overwritten by a slower process storing an older version) reads the ranking.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.utils import timezone

from scoring.core import ranking
from scoring.live.counted import standings_fingerprint
from scoring.live.provisional import mark_provisional
from scoring.live.rendered import STANDINGS_ROWS, shared_fragment, store_fragments
from scoring.live.snapshot import decode, decode_row, encode, encode_rows
from scoring.live.standings import Standings, standings_for
from scoring.models import StandingsSnapshot
from tournament.models import Tournament

# How long other processes leave a new version to the process computing it.
CLAIM_SECONDS = 5
# A ranking stored larger than this (far beyond thousands of players) is served uncached.
PAYLOAD_LIMIT = 8 * 1024 * 1024
# The public ranking's rows are also stored in this many buckets (by registration id), for the
# players' cards: a card reads its bucket, about 1/64th of the field (a dozen rows at 800
# players), and storing them is one statement (64 rows) whatever the field's size.
ROW_BUCKETS = 64


@dataclass(frozen=True)
class Served:
    """A ranking (its provisional positions filled in) and the version it is of."""

    version: str
    standings: Standings


def shared_standings(tournament: Tournament, *, public: bool, version: str | None = None) -> Served:
    """The tournament's standings at `version` (its current fingerprint, read if not given), or
    the previous ones while another process computes that version."""
    if version is None:
        version = standings_fingerprint(tournament)
    row = (
        StandingsSnapshot.objects.filter(tournament=tournament, public=public)
        .values_list("pk", "version", "payload", "claim", "claimed_at")
        .first()
    )
    if row is not None:
        pk, stored, payload, claim, claimed_at = row
        if stored == version or (claim == version and _fresh(claimed_at)):
            standings = decode(bytes(payload), tournament, public=public)
            if standings is not None:
                return Served(stored, standings)
        if not _claim(pk, version):  # another process has just claimed it: compute anyway
            return Served(version, _compute(tournament, public=public))
    standings = _compute(tournament, public=public)
    payload = encode(standings)
    if len(payload) <= PAYLOAD_LIMIT:
        _store(tournament, public=public, version=version, payload=payload)
        if public:
            _store_rows(tournament, version=version, standings=standings)
    return Served(version, standings)


def shared_player_row(tournament: Tournament, key: int, version: str) -> CardStanding | None:
    """The player's row of the public standings at `version` (None if not ranked) and the
    number of ranked players, if stored: read from the player's bucket of rows, not the
    whole ranking."""
    text = shared_fragment(tournament, STANDINGS_ROWS, str(key % ROW_BUCKETS), version)
    return None if text is None else CardStanding(*decode_row(text, key))


@dataclass(frozen=True)
class CardStanding:
    """A player's ranked row (None if not ranked) and the number of ranked players."""

    ranked: ranking.Ranked | None
    players: int


def _store_rows(tournament: Tournament, *, version: str, standings: Standings) -> None:
    """The players' rows in ROW_BUCKETS buckets, every bucket stored (an empty one says that
    its players are not ranked), in one statement whatever the field's size."""
    buckets: list[list[ranking.Ranked]] = [[] for _ in range(ROW_BUCKETS)]
    for ranked in standings.players:
        buckets[int(ranked.row.key) % ROW_BUCKETS].append(ranked)
    players = len(standings.players)
    bodies = {str(i): encode_rows(rows, players) for i, rows in enumerate(buckets)}
    store_fragments(tournament, STANDINGS_ROWS, version, bodies)


def _compute(tournament: Tournament, *, public: bool) -> Standings:
    return mark_provisional(standings_for(tournament, public=public))


def _fresh(claimed_at: datetime | None) -> bool:
    return claimed_at is not None and claimed_at > timezone.now() - timedelta(seconds=CLAIM_SECONDS)


def _claim(pk: int, version: str) -> bool:
    """Claim the computation of `version`, unless another process holds a live claim on it."""
    now = timezone.now()
    claimed = (
        StandingsSnapshot.objects.filter(pk=pk)
        .exclude(claim=version, claimed_at__gt=now - timedelta(seconds=CLAIM_SECONDS))
        .update(claim=version, claimed_at=now)
    )
    return claimed == 1


def _store(tournament: Tournament, *, public: bool, version: str, payload: bytes) -> None:
    """Replace the tournament's row for this audience (or create it), in one statement."""
    now = timezone.now()
    StandingsSnapshot.objects.bulk_create(
        [
            StandingsSnapshot(
                tournament=tournament,
                public=public,
                version=version,
                payload=payload,
                computed_at=now,
                claim=version,
                claimed_at=now,
            )
        ],
        update_conflicts=True,
        unique_fields=["tournament", "public"],
        update_fields=["version", "payload", "computed_at", "claim", "claimed_at"],
    )
