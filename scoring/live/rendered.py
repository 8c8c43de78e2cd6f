"""Live fragments rendered once per version and shared by every viewer of every server process:
the public standings' default pages and the hall screen's slides (SharedRender rows).

A fragment is stored under the version of the data it was rendered from (the standings'
fingerprint, or for the hall the live fingerprint) and a key holding its language: together the
ETag it is served with, so a render is as fresh as the 304s that would skip it. A poll finding
the ETag moved finds no render under the new version, renders it, and stores it in one atomic
upsert. A render from the previous standings (served while
another process computes the new ones, scoring.live.shared) is stored under the previous
version, never the new one. Each tournament keeps one row per kind and key (language, page),
replaced in place, and storing a version drops that kind's rows of other versions: the table
holds the current renders only, a few dozen rows a tournament at most, besides the players'
cards' deals (scoring.live.card), one row per player and language, and the players' rows of the
public standings (scoring.live.shared: JSON, not HTML), a fixed number of buckets.
"""

from __future__ import annotations

import gzip
from collections.abc import Callable
from datetime import timedelta

from django.db import connection
from django.http import HttpResponse
from django.middleware.gzip import GZipMiddleware
from django.utils import timezone
from django.utils.text import compress_string

from scoring.models import SharedRender
from tournament.models import Tournament

STANDINGS = "standings"
HALL = "hall"
# The room plan inside the hall's slides (scoring.live.views.hall): per language, under a digest
# of the plan (tournament.evening.selectors.room_plan), re-used by the slides of every ranking.
HALL_PLAN = "hall-plan"
# An event's public page (scoring.events.views.public): its brackets' standings per language,
# session and page, stored beside the event's first bracket.
EVENT_PAGE = "event-page"
# A venue's hall slides (scoring.events.views.hall): per session and language, stored beside the
# session's first bracket.
EVENT_HALL = "event-hall"
# The players' rows of the public standings in buckets (scoring.live.shared), for their cards.
STANDINGS_ROWS = "standings-rows"
# A player's deals on their public card (scoring.live.card): one row per player and language,
# stored under a digest of what they show rather than a version of the tournament.
CARD_DEALS = "card-deals"
# Pages of the public standings shared per language: past them (1,000 rows at 50 a page), a
# page is rendered for its viewer, as are searches, sorts and the other views.
MAX_PAGES = 20
# A fragment larger than this once compressed is rendered for each viewer instead.
BODY_LIMIT = 4 * 1024 * 1024
CONTENT_TYPE = "text/html; charset=utf-8"


def _pack(body: str) -> bytes:
    """A fragment as stored: gzipped as the site's gzip would send it (its random padding
    included: a shared render holds nothing of anyone's), so that it is sent as stored."""
    return compress_string(body.encode(), max_random_bytes=GZipMiddleware.max_random_bytes)


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
        f"SELECT {q('body')} FROM {q(SharedRender._meta.db_table)} WHERE {q('tournament_id')} = %s"
        f" AND {q('kind')} = %s AND {q('key')} = %s AND {q('version')} = %s"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [_id(tournament), kind, key, version])
        row = cursor.fetchone()
    return None if row is None else bytes(row[0])


def recent_version(tournament: Tournament, kind: str, key: str, seconds: float) -> str | None:
    """The version of the fragment of this kind and key if it was rendered less than `seconds`
    ago (None otherwise, or if `seconds` is 0): one statement, without its body."""
    if seconds <= 0:
        return None
    since = timezone.now() - timedelta(seconds=seconds)
    rows = SharedRender.objects.filter(tournament=tournament, kind=kind, key=key)
    return rows.filter(rendered_at__gt=since).values_list("version", flat=True).first()


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
    if len(payload) > BODY_LIMIT:
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
    SharedRender.objects.bulk_create(
        [
            SharedRender(
                tournament_id=tournament_id,
                kind=kind,
                key=key,
                version=version,
                body=payload,
                rendered_at=now,
            )
            for key, payload in payloads.items()
        ],
        update_conflicts=True,
        unique_fields=["tournament", "kind", "key"],
        update_fields=["version", "body", "rendered_at"],
    )


def _drop_other_versions(tournament_id: int, kind: str, version: str) -> None:
    SharedRender.objects.filter(tournament_id=tournament_id, kind=kind).exclude(
        version=version
    ).delete()


def served_fragment(
    tournament: Tournament,
    kind: str,
    key: str,
    version: str,
    render: Callable[[], tuple[HttpResponse, str]],
) -> HttpResponse:
    """The fragment stored at `version` (that of the ETag the request was checked against), or
    else `render()`'s response, stored under the version it returns with it (the one it was
    rendered from, which names its ETag)."""
    payload = _stored(tournament, kind, key, version)
    body = _unpack(payload)
    if body is not None:
        response = HttpResponse(body, content_type=CONTENT_TYPE)
    else:
        response, rendered_version = render()
        if response.status_code != 200 or response.streaming:
            return response
        content = response.content.decode()
        payload = store_fragment(tournament, kind, key, rendered_version, content)
    # Compressed once, when stored: sent as stored to a client taking gzip
    # (tournament.middleware.GZipMiddleware), not compressed again at every poll.
    response.gzipped = payload  # type: ignore[attr-defined]
    return response
