"""The tournament's ranking computed once per revision and shared by every request of every
server process, through one row of the live store per tournament and audience (LiveArtifact),
with the claims and keeps of scoring.live.versioned: the revision is read before the data, so a
ranking is never older than the revision it is stored under; the first process to claim a new
revision computes it while the others serve the previous one under its own revision (a stale
answer never carries the new ETag); the public's ranking is coalesced (versioned.kept: at 800
players a deal comes every second, and each would otherwise cost a fifth of a second of CPU),
the arbiter's never.

A player's card shows one row of the public ranking: the rows are stored apart too, in
ROW_BUCKETS rows under the same revision, so that a card's poll reads its bucket rather than
decoding the field's ranking (none at its revision: it reads the ranking).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property

from django.utils import timezone

from scoring.core import ranking
from scoring.live import versioned
from scoring.live.counted import standings_fingerprint
from scoring.live.provisional import PartialPosition, mark_provisional, provisional_text
from scoring.live.rendered import STANDINGS_ROWS, shared_fragment, store_fragments
from scoring.live.snapshot import decode, decode_row, encode, encode_rows
from scoring.live.standings import Standings, standings_for
from scoring.models import LiveArtifact
from tournament.models import Tournament

# A ranking stored larger than this (far beyond thousands of players) is served uncached.
PAYLOAD_LIMIT = 8 * 1024 * 1024
# The public ranking's rows are also stored in this many buckets (by registration id), for the
# players' cards: a card reads its bucket, about 1/64th of the field (a dozen rows at 800
# players), and storing them is one statement (64 rows) whatever the field's size.
ROW_BUCKETS = 64


class Served:
    """A ranking (its provisional positions filled in) and the version it is of; a stored one
    is read from its row only when a page shows it (an ETag check needs the version alone)."""

    def __init__(
        self,
        version: str,
        standings: Standings | None = None,
        load: Callable[[], Standings] | None = None,
    ) -> None:
        self.version = version
        if standings is not None:
            self.__dict__["standings"] = standings
        self._load: Callable[[], Standings] | None = load

    @cached_property
    def standings(self) -> Standings:
        assert self._load is not None
        return self._load()


def shared_standings(
    tournament: Tournament, *, public: bool, version: str | Callable[[], str] | None = None
) -> Served:
    """The tournament's standings at `version` (its current fingerprint: read if not given, or
    asked of the callable when needed), or the previous ones while another process computes
    that version or while the public's ranking keeps its version (versioned.kept: then the
    fingerprint is not even read)."""
    row = _header(tournament.pk, public)
    if row is not None and public and versioned.kept(row):
        return _served_stored(tournament, row, public=public)
    if version is None:
        version = standings_fingerprint(tournament)
    elif callable(version):
        version = version()
    return _resolved(tournament, row, public=public, version=version)


def _resolved(
    tournament: Tournament, row: versioned.Header | None, *, public: bool, version: str
) -> Served:
    """The ranking at `version`: stored, or the stored one while another process computes
    it, or computed and stored here."""
    if row is not None and (
        row.revision == version or not versioned.claim(row, version)  # another process claimed it
    ):
        return _served_stored(tournament, row, public=public)
    return Served(version, _computed(tournament, public=public, version=version))


def _computed(tournament: Tournament, *, public: bool, version: str) -> Standings:
    """The ranking computed now (its data read after `version` was), stored under it."""
    started = time.monotonic()
    standings = _compute(tournament, public=public)
    payload = encode(standings)
    if len(payload) <= PAYLOAD_LIMIT:
        seconds = time.monotonic() - started
        _store(tournament, public=public, version=version, payload=payload, seconds=seconds)
        if public:
            _store_rows(tournament, version=version, standings=standings)
    return standings


# The ranking's row in the live store: its `what` (the pages rendered from it are others), and
# its `variant` by audience.
RANKING = "ranking"


def _variant(public: bool) -> str:
    return "public" if public else "arbiter"


def _header(tournament_id: int, public: bool) -> versioned.Header | None:
    """The row of the tournament's ranking for this audience, without the ranking."""
    return versioned.stored_header(tournament_id, RANKING, _variant(public))


def _served_stored(tournament: Tournament, row: versioned.Header, *, public: bool) -> Served:
    return Served(
        row.revision, load=lambda: _stored(tournament, row.pk, row.revision, public=public)
    )


def _stored(tournament: Tournament, pk: int, version: str, *, public: bool) -> Standings:
    """The ranking stored at `version`; computed afresh if the row has moved on since (a newer
    ranking under the older version: its next poll asks again), or if it is in an older
    format (then stored again, in this one)."""
    payload = (
        LiveArtifact.objects.filter(pk=pk, revision=version).values_list("body", flat=True).first()
    )
    if payload is None:
        return _compute(tournament, public=public)
    standings = decode(bytes(payload), tournament, public=public)
    if standings is None:
        standings = _computed(tournament, public=public, version=version)
    return standings


def shared_player_row(tournament: Tournament, key: int, version: str) -> CardStanding | None:
    """The player's row of the public standings at `version` (None if not ranked) and the
    number of ranked players, if stored: read from the player's bucket of rows, not the
    whole ranking."""
    text = shared_fragment(tournament, STANDINGS_ROWS, str(key % ROW_BUCKETS), version)
    return None if text is None else CardStanding(*decode_row(text, key))


@dataclass(frozen=True)
class CardStanding:
    """A player's ranked row (None if not ranked), the number of ranked players and the counted
    positions still in play (the standings' own: the card is provisional when they are)."""

    ranked: ranking.Ranked | None
    players: int
    partial: list[PartialPosition]

    @property
    def provisional(self) -> str:
        return provisional_text(self.partial)


def _store_rows(tournament: Tournament, *, version: str, standings: Standings) -> None:
    """The players' rows in ROW_BUCKETS buckets, every bucket stored (an empty one says that
    its players are not ranked), in one statement whatever the field's size."""
    buckets: list[list[ranking.Ranked]] = [[] for _ in range(ROW_BUCKETS)]
    for ranked in standings.players:
        buckets[int(ranked.row.key) % ROW_BUCKETS].append(ranked)
    players = len(standings.players)
    bodies = {
        str(i): encode_rows(rows, players, standings.partial) for i, rows in enumerate(buckets)
    }
    store_fragments(tournament, STANDINGS_ROWS, version, bodies)


def _compute(tournament: Tournament, *, public: bool) -> Standings:
    return mark_provisional(standings_for(tournament, public=public))


def _store(
    tournament: Tournament, *, public: bool, version: str, payload: bytes, seconds: float
) -> None:
    """Replace the tournament's row for this audience (or create it), in one statement."""
    now = timezone.now()
    LiveArtifact.objects.bulk_create(
        [
            LiveArtifact(
                tournament=tournament,
                what=RANKING,
                variant=_variant(public),
                revision=version,
                body=payload,
                computed_at=now,
                claim=version,
                claimed_at=now,
                compute_seconds=seconds,
            )
        ],
        update_conflicts=True,
        unique_fields=["tournament", "what", "variant"],
        update_fields=[
            "revision",
            "body",
            "computed_at",
            "claim",
            "claimed_at",
            "compute_seconds",
        ],
    )
