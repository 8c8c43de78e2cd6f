"""The one way to serve a live page: `@versioned(what, variant)`, from the tournament's revision
(README, Architecture: a 304 from the revision; else the artifact stored for (tournament, what,
variant) at that revision, or kept by a coalesced page; else the view's answer computed once
across processes, the first claiming the revision on the stored row while the others serve the
previous body marked `X-Live-Stale: 1`). A claim left by a process that died lapses after
CLAIM_SECONDS. A variant of None (a search, a sort, a page past the shared ones) is computed
for its viewer, still answered 304 from the revision.
"""

from __future__ import annotations

import gzip
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from functools import wraps
from typing import Any, NamedTuple

from django.conf import settings
from django.db import connection
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.middleware.gzip import GZipMiddleware, re_accepts_gzip
from django.utils import timezone
from django.utils.cache import patch_vary_headers
from django.utils.http import parse_etags, quote_etag
from django.utils.text import compress_string

from scoring.models import LiveArtifact
from tournament.models import Revision
from tournament.models.audit import revision_of

# How long other processes leave a claimed revision to the process computing it.
CLAIM_SECONDS = 5
# A page shown from an older revision than asked is computed again after this.
RETRY_SECONDS = 1
# The longest a coalesced page keeps its revision once new data has come (a poll period).
COALESCE_MAX_SECONDS = 5.0
# A body larger than this once compressed is computed for each viewer instead.
BODY_LIMIT = 4 * 1024 * 1024
STALE_HEADER = "X-Live-Stale"

# (tournament id whose row stores it, revision) of a request: a tournament's own by default.
Scope = Callable[..., tuple[int, int]]
Variant = Callable[..., str | None]


class Header(NamedTuple):
    """A stored artifact's row, without its body unless read with it."""

    pk: int
    revision: str
    computed_at: datetime
    seconds: float
    claim: str
    claimed_at: datetime | None
    body: bytes | None = None


@dataclass
class Versioned:
    """What a request is served: the ETag, and the body (stored gzipped) unless it is a 304."""

    etag: str
    stale: bool = False
    body: bytes | None = None  # gzipped
    response: HttpResponse | None = None  # computed for this request

    @property
    def revision(self) -> int:
        """The revision what it holds is of (its ETag's first part)."""
        return int(self.etag.split("-", 1)[0])


def tournament_scope(request: Any, *args: Any, **kwargs: Any) -> tuple[int, int]:
    return request.tournament.pk, revision_of(request.tournament.pk)


def brackets_scope(tournament_ids: list[int]) -> tuple[int, int]:
    """An event session's scope: stored beside its first bracket, at the sum of its brackets'
    revisions (each only grows, so the sum moves whenever one does)."""
    numbers = Revision.objects.filter(pk__in=tournament_ids).values_list("number", flat=True)
    return (tournament_ids[0] if tournament_ids else 0), sum(numbers)


def versioned(
    what: str,
    variant: Variant,
    *,
    scope: Scope = tournament_scope,
    coalesce: bool = True,
    store: bool = True,
) -> Callable[[Callable[..., HttpResponse]], Callable[..., HttpResponse]]:
    """The live view decorator (the module's docstring says what it answers). `store=False`
    for a page holding its viewer's own (a form's CSRF token): answered 304 from the revision,
    else computed for its viewer, never stored."""

    def decorate(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        @wraps(view)
        def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            served = serve(
                request,
                what=what,
                variant=variant(request, *args, **kwargs),
                scope=scope(request, *args, **kwargs),
                compute=lambda: view(request, *args, **kwargs),
                coalesce=coalesce,
                store=store,
            )
            return respond(request, served)

        wrapper.versioned = what  # type: ignore[attr-defined]  # the URL walk's test reads it
        return wrapper

    return decorate


def serve(
    request: HttpRequest,
    *,
    what: str,
    variant: str | None,
    scope: tuple[int, int],
    compute: Callable[[], HttpResponse],
    coalesce: bool = True,
    conditional: bool = True,
    store: bool = True,
) -> Versioned:
    """What this request gets: a 304's ETag, a stored body, or `compute()`'s answer (stored)."""
    home, revision = scope
    current = str(revision)
    asked = request.META.get("HTTP_IF_NONE_MATCH", "") if conditional else ""
    if variant is None or not store:  # for this viewer, answered 304 from the revision alone
        served = Versioned(etag=current_etag(what, variant, scope))
        request.live_etag = served.etag  # type: ignore[attr-defined]  # the page polls with it
        if not _matches(asked, served.etag):
            response = compute()
            if hasattr(response, "revision"):  # it shows an older revision's stored fragment
                served.etag = current_etag(what, variant, (home, int(response.revision)))
            if not _matches(asked, served.etag):
                served.response = response
        return served
    # A request without If-None-Match (a fresh viewer) will be sent a body: read with the row.
    row = stored_header(home, what, variant, body=not asked)
    if row is not None:
        stale = not (row.revision == current or (coalesce and kept(row)))
        if not stale or not claim(row, current):  # current, kept, or another process computes it
            found = _stored(asked, row, variant, stale=stale)
            if found is not None:
                return found
    if _matches(asked, f"{current}-{variant}"):
        return Versioned(etag=f"{current}-{variant}")
    started = time.monotonic()
    response = compute()
    # Rendered from an older revision's ranking (kept, or while another process computes the
    # new one): stored and sent under that revision, never a newer one, so the next poll asks.
    shown = str(getattr(response, "revision", current))
    served = Versioned(etag=f"{shown}-{variant}", response=response)
    if response.status_code == 200 and not response.streaming:
        body = response.content
        served.body = _store(home, what, variant, (shown, current), body, started)
    if _matches(asked, served.etag):
        return Versioned(etag=served.etag)
    return served


def current_etag(what: str, variant: str | None, scope: tuple[int, int]) -> str:
    """The ETag of a variant computed for its viewer at the scope's revision."""
    return f"{scope[1]}-{what if variant is None else variant}"


def respond(request: HttpRequest, served: Versioned) -> HttpResponse:
    """The HTTP answer of `serve`: a 304, the stored body (gzipped if the client takes it), or
    the computed response, each with the ETag of what it holds."""
    gzipped = bool(re_accepts_gzip.search(request.META.get("HTTP_ACCEPT_ENCODING", "")))
    if served.body is not None:
        body = served.body if gzipped else gzip.decompress(served.body)
        response = HttpResponse(body, content_type="text/html; charset=utf-8")
        if gzipped:
            response["Content-Encoding"] = "gzip"
            patch_vary_headers(response, ("Accept-Encoding",))
    else:
        response = HttpResponseNotModified() if served.response is None else served.response
    if response.status_code in (200, 304):
        response["ETag"] = etag_header(served.etag)
    if served.stale:
        response[STALE_HEADER] = "1"
    return response


def etag_header(etag: str) -> str:
    """The ETag header of a live answer: weak, whether its body goes out gzipped (which makes
    a strong tag weak, as Django's gzip does), plain or not at all (a 304), so a browser holding
    the tag of a 200 gets a 304 under the very same tag (comparison is weak, RFC 9110 13.1.2)."""
    return "W/" + quote_etag(etag)


def stored_text(served: Versioned) -> str | None:
    """The text of what `serve` gave (for a page that embeds the fragment)."""
    if served.body is not None:
        return gzip.decompress(served.body).decode()
    if served.response is not None and served.response.status_code == 200:
        return served.response.content.decode()
    return None


def _matches(asked: str, etag: str) -> bool:
    """Whether an If-None-Match header's value names this ETag (weakly compared)."""
    tags = parse_etags(asked)
    weak = [t.removeprefix("W/") for t in tags]
    return quote_etag(etag) in weak or "*" in weak


def _stored(asked: str, row: Header, variant: str, *, stale: bool) -> Versioned | None:
    """The stored artifact (None if its body is not one this code stored: computed again)."""
    served = Versioned(etag=f"{row.revision}-{variant}", stale=stale)
    if _matches(asked, served.etag):
        return served
    if row.body is not None:
        body = row.body
    else:
        found = LiveArtifact.objects.filter(pk=row.pk).values_list("body", flat=True).first()
        body = bytes(found) if found is not None else b""
    try:
        gzip.decompress(body)
    except (OSError, EOFError):  # gone since, or not stored by this code
        return None
    served.body = body
    return served


HEADER_COLUMNS = ("id", "revision", "computed_at", "compute_seconds", "claim", "claimed_at")


def stored_header(
    tournament_id: int, what: str, variant: str, *, body: bool = False
) -> Header | None:
    """The stored row of (what, variant) without its body unless asked (None if there is none)."""
    # Asked by every poll: one plain statement (through the ORM, building it cost more).
    q = connection.ops.quote_name
    columns = (*HEADER_COLUMNS, "body") if body else HEADER_COLUMNS
    sql = (
        f"SELECT {', '.join(q(c) for c in columns)} FROM {q(LiveArtifact._meta.db_table)}"
        f" WHERE {q('tournament_id')} = %s AND {q('what')} = %s AND {q('variant')} = %s"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [tournament_id, what, variant])
        row = cursor.fetchone()
    if row is None:
        return None
    pk, revision, computed_at, seconds, claim, claimed_at, *stored = row
    computed = _aware(computed_at)
    assert computed is not None  # the column is NOT NULL
    found = bytes(stored[0]) if stored and stored[0] is not None else None
    return Header(pk, revision, computed, seconds, claim, _aware(claimed_at), found)


def _aware(moment: datetime | str | None) -> datetime | None:
    """A timestamp as the ORM would return it (SQLite's raw rows are naive UTC, or text)."""
    if isinstance(moment, str):
        moment = datetime.fromisoformat(moment)
    if moment is not None and moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment


def kept(row: Header) -> bool:
    """Whether a coalesced artifact keeps its revision, new data or not: for
    LIVE_STANDINGS_COALESCE times what computing it took, at most COALESCE_MAX_SECONDS."""
    keep = min(COALESCE_MAX_SECONDS, settings.LIVE_STANDINGS_COALESCE * row.seconds)
    return keep > 0 and row.computed_at > timezone.now() - timedelta(seconds=keep)


def claim(row: Header, revision: str) -> bool:
    """Claim the computation of `revision`, unless another process holds a live claim on it
    (as read: then no statement; or as the atomic UPDATE finds it)."""
    now = timezone.now()
    fresh = now - timedelta(seconds=CLAIM_SECONDS)
    if row.claim == revision and row.claimed_at is not None and row.claimed_at > fresh:
        return False
    rows = LiveArtifact.objects.filter(pk=row.pk).exclude(claim=revision, claimed_at__gt=fresh)
    return rows.update(claim=revision, claimed_at=now) == 1


def _store(
    home: int, what: str, variant: str, revisions: tuple[str, str], content: bytes, started: float
) -> bytes | None:
    """Replace the row of (what, variant) by the body of the revision it shows, claimed for the
    revision asked (an older one shown: other processes serve it until the claim lapses), in one
    statement; the body as stored (None if too large to keep): gzipped as the site's gzip would
    send it (its random padding included: a live artifact holds nothing of anyone's)."""
    revision, claim = revisions
    now = timezone.now()
    # Shown older than asked: other processes serve it a second, then one tries again.
    claimed = now if revision == claim else now - timedelta(seconds=CLAIM_SECONDS - RETRY_SECONDS)
    body = compress_string(content, max_random_bytes=GZipMiddleware.max_random_bytes)
    if len(body) > BODY_LIMIT:
        return None
    artifact = LiveArtifact(
        tournament_id=home,
        what=what,
        variant=variant,
        revision=revision,
        body=body,
        computed_at=now,
        compute_seconds=time.monotonic() - started,
        claim=claim,
        claimed_at=claimed,
    )
    LiveArtifact.objects.bulk_create(
        [artifact],
        update_conflicts=True,
        unique_fields=["tournament", "what", "variant"],
        update_fields=["revision", "body", "computed_at", "compute_seconds", "claim", "claimed_at"],
    )
    return body
