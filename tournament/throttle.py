"""Attempts counted per client address, the same for every server process: sign-ups and table
codes typed on phones.

The counts live in Django's cache, which settings keep in the database (DatabaseCache; its
table is created after every migrate), so the gunicorn workers of a tournament day share them.
A count is approximate under a burst of parallel requests (read then write), which is all a
throttle needs: it slows guessing, it does not account.
"""

from __future__ import annotations

import time

from django.core.cache import cache


def attempts(key: str) -> int:
    """Attempts counted under `key` in its current window (0 once the window is over)."""
    count, until = cache.get(key, (0, 0.0))
    return count if until > time.time() else 0


def count_attempt(key: str, window: int) -> int:
    """One more attempt under `key`; the window of `window` seconds starts at the first one.
    Returns the count so far, this attempt included."""
    now = time.time()
    count, until = cache.get(key, (0, 0.0))
    if until <= now:
        count, until = 0, now + window
    count += 1
    cache.set(key, (count, until), max(1, round(until - now)))
    return count
