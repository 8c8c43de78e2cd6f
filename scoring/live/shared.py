"""Standings computed once per version of their data and shared by every request of every
server process, through one row of the live store per tournament and audience (LiveArtifact).

The version is the standings' fingerprint (counted.standings_fingerprint), the ETag the live
pages already send: it is derived from the data in one query, so no write can forget to move
it (a deal, a correction, a sheet validated, an incident, a position published or closed, a
check-in, a tournament setting, an import or a restored backup alike). It is read before the
data, so a ranking is never older than the version it is served under.

When the version moves, the first process to claim it computes (one atomic UPDATE); while it
does, the others serve the previous ranking under the previous version, so a stale answer never
carries the new version's ETag and the next poll asks again. A claim left by a process that died
lapses after CLAIM_SECONDS. The new ranking replaces the row in one atomic upsert.

The public's ranking is also coalesced: once computed, it keeps its version for a few times what
computing it took (coalesce_seconds), however many deals come meanwhile. At 800 players and a
deal confirmed every second, every new deal would otherwise cost a ranking (a fifth of a second
of CPU) and every poll a new page; a phone polling every 5 s sees the standings at most a few
seconds late. The arbiter's ranking is never coalesced.

A player's card shows one row of the public ranking: the rows are stored apart too, in
ROW_BUCKETS rows of shared renders under the same version, so that a card's poll reads its
bucket rather than decoding the field's ranking. A card finding no bucket at its version (not
stored yet, or overwritten by a slower process storing an older version) reads the ranking.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from functools import cached_property
from typing import Any, NamedTuple

from django.conf import settings
from django.db import connection
from django.utils import timezone

from scoring.core import ranking
from scoring.live.counted import event_fingerprints, standings_fingerprint
from scoring.live.provisional import PartialPosition, mark_provisional, provisional_text
from scoring.live.rendered import STANDINGS_ROWS, shared_fragment, store_fragments
from scoring.live.snapshot import decode, decode_row, encode, encode_rows
from scoring.live.standings import Standings, standings_for
from scoring.models import LiveArtifact
from tournament.models import Tournament

# How long other processes leave a new version to the process computing it.
CLAIM_SECONDS = 5
# The longest the public's ranking keeps its version once new data has come (coalesce_seconds).
COALESCE_MAX_SECONDS = 5.0
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
    that version or while the public's ranking keeps its version (coalesce_seconds: then the
    fingerprint is not even read)."""
    row = _header(tournament.pk, public)
    if row is not None and public and _kept(row):
        return _served_stored(tournament, row, public=public)
    if version is None:
        version = standings_fingerprint(tournament)
    elif callable(version):
        version = version()
    return _resolved(tournament, row, public=public, version=version)


def _resolved(tournament: Tournament, row: _Header | None, *, public: bool, version: str) -> Served:
    """The ranking at `version`: stored, or the stored one while another process computes
    it, or computed and stored here."""
    if row is not None and (
        row.version == version
        or (row.claim == version and _fresh(row.claimed_at))
        or not _claim(row.pk, version)  # another process has just claimed it
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


def event_versions(event_id: int) -> list[tuple[int, int, bool, str]]:
    """(id, session, is_public, version) of every bracket of the event, by id: the version of
    the public ranking each serves, as shared_standings would serve it. One statement while
    every public bracket's ranking keeps its version (a private bracket's is its
    fingerprint); else the fingerprints in a second, and a bracket whose version moved is
    resolved as shared_standings resolves it (computed by the first process to claim it)."""
    rows = _snapshot_rows(f"t.{connection.ops.quote_name('event_id')} = %s", event_id, True)
    fingerprints: dict[int, str] = {}
    versions = []
    for pk, session, is_public, *snapshot in rows:
        row = _header_of(snapshot)
        if is_public and row is not None and _kept(row):
            versions.append((pk, session, bool(is_public), row.version))
            continue
        fingerprints = fingerprints or event_fingerprints(event_id)
        version = fingerprints[pk]
        if is_public and (row is None or row.version != version):
            tournament = Tournament.objects.get(pk=pk)
            version = _resolved(tournament, row, public=True, version=version).version
        versions.append((pk, session, bool(is_public), version))
    return versions


def coalesce_seconds(compute_seconds: float) -> timedelta:
    """How long the public's ranking keeps its version after being computed, new data or not:
    LIVE_STANDINGS_COALESCE times what computing it took (a tenth of a second at 40 players,
    a few at 800 on a busy laptop), at most COALESCE_MAX_SECONDS (a poll period). The public
    ranking's computations then take at most 1/LIVE_STANDINGS_COALESCE of a core however fast
    the deals come; meanwhile its pages answer 304 to the phones holding its version."""
    factor = settings.LIVE_STANDINGS_COALESCE
    return timedelta(seconds=min(COALESCE_MAX_SECONDS, factor * compute_seconds))


def _kept(row: _Header) -> bool:
    keep = coalesce_seconds(row.seconds)
    return bool(keep) and row.computed_at > timezone.now() - keep


class _Header(NamedTuple):
    """A stored ranking's row without its payload."""

    pk: int
    version: str
    claim: str
    claimed_at: datetime | None
    computed_at: datetime
    seconds: float


_HEADER_COLUMNS = ("id", "revision", "claim", "claimed_at", "computed_at", "compute_seconds")
# The ranking's row in the live store: its `what` (the pages rendered from it are others), and
# its `variant` by audience.
RANKING = "ranking"


def _variant(public: bool) -> str:
    return "public" if public else "arbiter"


def _header(tournament_id: int, public: bool) -> _Header | None:
    """The row of the tournament's ranking for this audience, without the ranking."""
    rows = _snapshot_rows(f"t.{connection.ops.quote_name('id')} = %s", tournament_id, public)
    return _header_of(rows[0][3:]) if rows else None


def _snapshot_rows(where: str, value: int, public: bool) -> list[tuple[Any, ...]]:
    """(id, session, is_public, *_HEADER_COLUMNS) of the tournaments `where` (on `t`, with
    `value`) says, by id, with their ranking's row for this audience (NULLs if none), without
    the ranking: asked by every poll, one plain statement (through the ORM, building it cost
    more than running it)."""
    q = connection.ops.quote_name
    columns = ", ".join(f"s.{q(c)}" for c in _HEADER_COLUMNS)
    sql = (
        f"SELECT t.{q('id')}, t.{q('session')}, t.{q('is_public')}, {columns}"
        f" FROM {q(Tournament._meta.db_table)} t LEFT JOIN {q(LiveArtifact._meta.db_table)} s"
        f" ON s.{q('tournament_id')} = t.{q('id')} AND s.{q('what')} = %s"
        f" AND s.{q('variant')} = %s WHERE {where} ORDER BY t.{q('id')}"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [RANKING, _variant(public), value])
        return [tuple(row) for row in cursor.fetchall()]


def _header_of(row: Sequence[Any]) -> _Header | None:
    """The header of a snapshot's columns (None if they are the NULLs of no snapshot)."""
    if row[0] is None:
        return None
    pk, version, claim, claimed_at, computed_at, seconds = row
    computed = _aware(computed_at)
    assert computed is not None  # the column is NOT NULL
    return _Header(pk, version, claim, _aware(claimed_at), computed, seconds)


def _aware(moment: datetime | str | None) -> datetime | None:
    """A timestamp as the ORM would return it (SQLite's raw rows are naive UTC, or text)."""
    if isinstance(moment, str):
        moment = datetime.fromisoformat(moment)
    if moment is not None and moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment


def _served_stored(tournament: Tournament, row: _Header, *, public: bool) -> Served:
    return Served(row.version, load=lambda: _stored(tournament, row.pk, row.version, public=public))


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


def _fresh(claimed_at: datetime | None) -> bool:
    return claimed_at is not None and claimed_at > timezone.now() - timedelta(seconds=CLAIM_SECONDS)


def _claim(pk: int, version: str) -> bool:
    """Claim the computation of `version`, unless another process holds a live claim on it."""
    now = timezone.now()
    claimed = (
        LiveArtifact.objects.filter(pk=pk)
        .exclude(claim=version, claimed_at__gt=now - timedelta(seconds=CLAIM_SECONDS))
        .update(claim=version, claimed_at=now)
    )
    return claimed == 1


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
