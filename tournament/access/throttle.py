"""Attempts counted and locks held in the database, one SQL statement an attempt.

Every counter of the site (sign-ups per address, table codes per address, wrong personal codes
per player and client) is a row of `Counter`, changed by a single `INSERT … ON CONFLICT DO
UPDATE … RETURNING` (SQLite 3.35+ and PostgreSQL): parallel requests and every server process
share one exact count, with no read-then-write window. Call these outside a transaction that
could roll back, so that a refused attempt stays counted.

- `hit(key, window)`: one more attempt in a fixed window; returns the count so far.
- `refund(key)`: one attempt fewer (a reserved attempt that turned out right, or was refused
  by another limit): a budget then counts only what it is meant to (wrong codes).
- `gate(key, allowance, lock)`: reserve the right to check one attempt. The `allowance`-th
  attempt locks the key for `lock` seconds; once a lock is over, each further attempt locks it
  again for twice as long (capped at MAX_LOCK). While locked, nothing is reserved (False) and the
  attempt is not checked at all. `clear(key)` after a right answer.
"""

from __future__ import annotations

import random
import time
from typing import Any

from django.db import connection

from tournament.models.audit import attempt_bump
from tournament.models.limits import Counter

MAX_LOCK = 24 * 3600.0  # seconds: the longest lock a key reaches by doubling
STALE_AFTER = 2 * 24 * 3600.0  # seconds: rows with nothing pending are purged after this
PURGE_ONE_IN = 500  # attempts: how often an attempt also purges stale rows

_TABLE = Counter._meta.db_table


def _now(now: float | None) -> float:
    return time.time() if now is None else now


def _maybe_purge(now: float) -> None:
    if random.randrange(PURGE_ONE_IN) == 0:
        purge(now=now)


LINKS = ("tournament_id", "registration_id", "table_id")


def hit(
    key: str, window: float, *, now: float | None = None, links: dict[str, Any] | None = None
) -> int:
    """One more attempt under `key`; the window of `window` seconds starts at the first one.
    Returns the number of attempts in the window, this one included. `links` as for `gate`."""
    now = _now(now)
    _maybe_purge(now)
    links = links or {}
    sql = (
        f"INSERT INTO {_TABLE} (key, hits, window_end, locked_until, delay, last_at, "
        f"{', '.join(LINKS)}) VALUES (%s, 1, %s, 0, 0, %s, %s, %s, %s) "
        "ON CONFLICT (key) DO UPDATE SET "
        f"hits = CASE WHEN {_TABLE}.window_end <= %s THEN 1 ELSE {_TABLE}.hits + 1 END, "
        f"window_end = CASE WHEN {_TABLE}.window_end <= %s THEN excluded.window_end "
        f"ELSE {_TABLE}.window_end END, "
        "last_at = excluded.last_at "
        "RETURNING hits"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [key, now + window, now, *(links.get(c) for c in LINKS), now, now])
        hits = int(cursor.fetchone()[0])
    _moved(links)
    return hits


def attempts(key: str, *, now: float | None = None) -> int:
    """Attempts counted under `key` in its current window (0 once the window is over)."""
    now = _now(now)
    row = Counter.objects.filter(key=key, window_end__gt=now).values_list("hits", flat=True)
    return next(iter(row), 0)


def gate(
    key: str,
    *,
    allowance: int,
    lock: float,
    now: float | None = None,
    links: dict[str, Any] | None = None,
) -> bool:
    """Reserve one attempt under `key`: True when it may be checked, False while the key is
    locked (nothing counted, nothing to check). `links` (tournament_id, registration_id,
    table_id) are written on the key's first attempt, for the desk's alerts."""
    now = _now(now)
    _maybe_purge(now)
    links = links or {}
    columns = LINKS
    first_lock = now + lock if allowance <= 1 else 0.0
    first_delay = min(lock * 2, MAX_LOCK) if allowance <= 1 else lock
    sql = (
        f"INSERT INTO {_TABLE} (key, hits, window_end, locked_until, delay, last_at, "
        f"{', '.join(columns)}) VALUES (%s, 1, 0, %s, %s, %s, %s, %s, %s) "
        "ON CONFLICT (key) DO UPDATE SET "
        f"hits = {_TABLE}.hits + 1, "
        f"locked_until = CASE WHEN {_TABLE}.hits + 1 >= %s THEN %s + {_TABLE}.delay "
        f"ELSE {_TABLE}.locked_until END, "
        f"delay = CASE WHEN {_TABLE}.hits + 1 < %s THEN {_TABLE}.delay "
        f"WHEN {_TABLE}.delay * 2 > %s THEN %s ELSE {_TABLE}.delay * 2 END, "
        "last_at = excluded.last_at "
        f"WHERE {_TABLE}.locked_until <= %s "
        "RETURNING hits"
    )
    params = [
        key,
        first_lock,
        first_delay,
        now,
        *(links.get(column) for column in columns),
        allowance,
        now,
        allowance,
        MAX_LOCK,
        MAX_LOCK,
        now,
    ]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        reserved = cursor.fetchone() is not None
    _moved(links)
    return reserved


def _moved(links: dict[str, Any]) -> None:
    """An attempt at a tournament's code shows on its cockpit alone (a locked code): the cockpit's
    version moves, no public or table page's (Revision's docstring)."""
    if links.get("tournament_id") is not None:
        attempt_bump(links["tournament_id"])


def hits(key: str) -> int:
    """Attempts counted under a gate's `key` (gates keep no window: cleared by `clear`)."""
    row = Counter.objects.filter(key=key).values_list("hits", flat=True)
    return next(iter(row), 0)


def refund(*keys: str) -> None:
    """One attempt fewer under each of `keys` (never below zero), one statement a key."""
    with connection.cursor() as cursor:
        for key in keys:
            cursor.execute(
                f"UPDATE {_TABLE} SET hits = hits - 1 WHERE key = %s AND hits > 0", [key]
            )


def tried(key: str) -> bool:
    """Whether an attempt is counted under `key`, windowed or gated (until a right answer or
    the arbiter clears it, or the purge forgets it)."""
    return Counter.objects.filter(key=key, hits__gt=0).exists()


def locked(key: str, *, now: float | None = None) -> bool:
    """Whether `key` is locked now (a read: the gate itself stays the atomic check)."""
    return Counter.objects.filter(key=key, locked_until__gt=_now(now)).exists()


def locked_until(key: str) -> float:
    """When `key`'s lock ends (0 when it never locked)."""
    row = Counter.objects.filter(key=key).values_list("locked_until", flat=True)
    return next(iter(row), 0.0)


def clear(*keys: str) -> None:
    """Forget `keys` (a right answer, or the arbiter's unlock)."""
    Counter.objects.filter(key__in=keys).delete()


def purge(*, now: float | None = None) -> int:
    """Delete rows with no window, lock or recent attempt left; returns how many."""
    now = _now(now)
    deleted, _by_model = Counter.objects.filter(
        window_end__lt=now, locked_until__lt=now, last_at__lt=now - STALE_AFTER
    ).delete()
    return deleted
