"""Fragments inside live pages, kept in the live store (LiveArtifact) beside what @versioned
serves (scoring.live.versioned): each under a version of its own, a key holding its language,
replaced in place, storing a version dropping that kind's other versions: the room plan inside
the hall's slides and a player's card deals (by a digest of what they show), the players' rows
of the public standings (by the ranking's version, a fixed number of buckets).
"""

from __future__ import annotations

import gzip

from django.db import connection
from django.utils import timezone

from scoring.live import versioned
from scoring.models import LiveArtifact
from tournament.models import Tournament

# The room plan inside the hall's slides (scoring.live.views.hall): per language, under a digest
# of the plan (tournament.evening.selectors.room_plan), re-used by the slides of every ranking.
HALL_PLAN = "hall-plan"
# The players' rows of the public standings in buckets (scoring.live.shared), for their cards.
STANDINGS_ROWS = "standings-rows"
# A player's deals on their public card (scoring.live.card): one row per player and language,
# stored under a digest of what they show rather than a version of the tournament.
CARD_DEALS = "card-deals"
# Pages of the public standings shared per language: past them (1,000 rows at 50 a page), a
# page is rendered for its viewer, as are searches, sorts and the other views.
MAX_PAGES = 20


def _pack(body: str) -> bytes:
    return versioned.pack(body.encode())


def shared_fragment(tournament: Tournament | int, kind: str, key: str, version: str) -> str | None:
    """The fragment of this kind and key rendered at `version`, if one is stored (of the
    tournament, or of the tournament of this id)."""
    return _unpack(_stored(tournament, kind, key, version))


def _unpack(payload: bytes | None) -> str | None:
    """A stored fragment's text; None (rendered again) if it is not one this code stored."""
    if payload is None:
        return None
    try:
        return gzip.decompress(payload).decode()
    except (OSError, EOFError, UnicodeDecodeError):
        return None


def _stored(tournament: Tournament | int, kind: str, key: str, version: str) -> bytes | None:
    # Asked by every poll of a shared page: one plain statement, as the fingerprint's, where
    # building it through the ORM cost several times running it.
    q = connection.ops.quote_name
    sql = (
        f"SELECT {q('body')} FROM {q(LiveArtifact._meta.db_table)} WHERE {q('tournament_id')} = %s"
        f" AND {q('what')} = %s AND {q('variant')} = %s AND {q('revision')} = %s"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [_id(tournament), kind, key, version])
        row = cursor.fetchone()
    return None if row is None else bytes(row[0])


def _id(tournament: Tournament | int) -> int:
    return tournament if isinstance(tournament, int) else tournament.pk


def store_fragment(
    tournament: Tournament | int,
    kind: str,
    key: str,
    version: str,
    body: str,
    *,
    drop_other_versions: bool = True,
) -> bytes | None:
    """Keep `body` as the fragment of this kind and key at `version`, dropping other versions'
    (unless the kind's versions are per key, as the cards' are: each key's row is then only
    replaced in place); the bytes stored (None if too large to keep)."""
    payload = _pack(body)
    if len(payload) > versioned.BODY_LIMIT:
        return None
    _upsert(_id(tournament), kind, version, {key: payload})
    if drop_other_versions:
        _drop_other_versions(_id(tournament), kind, version)
    return payload


def store_fragments(
    tournament: Tournament, kind: str, version: str, bodies: dict[str, str]
) -> None:
    """Keep each of `bodies` as the fragment of this kind and its key at `version`, replacing
    the kind's rows in place (one statement), then dropping those of other versions left."""
    payloads = {key: _pack(body) for key, body in bodies.items()}
    _upsert(tournament.pk, kind, version, payloads)
    _drop_other_versions(tournament.pk, kind, version)


def _upsert(tournament_id: int, kind: str, version: str, payloads: dict[str, bytes]) -> None:
    """One statement: each key's row of this kind replaced in place by its payload."""
    now = timezone.now()
    LiveArtifact.objects.bulk_create(
        [
            LiveArtifact(
                tournament_id=tournament_id,
                what=kind,
                variant=key,
                revision=version,
                body=payload,
                computed_at=now,
            )
            for key, payload in payloads.items()
        ],
        update_conflicts=True,
        unique_fields=["tournament", "what", "variant"],
        update_fields=["revision", "body", "computed_at"],
    )


def _drop_other_versions(tournament_id: int, kind: str, version: str) -> None:
    LiveArtifact.objects.filter(tournament_id=tournament_id, what=kind).exclude(
        revision=version
    ).delete()
