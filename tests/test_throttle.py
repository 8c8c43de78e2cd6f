"""The throttles' counts are shared by every server process: they live in the database cache."""

import pytest
from django.core.cache import caches
from django.db import connection

from tournament import throttle


@pytest.fixture
def clock(monkeypatch):
    """time.time() from now on, moved by hand (the cache's own expiry reads it too)."""
    now = [throttle.time.time()]
    monkeypatch.setattr(throttle.time, "time", lambda: now[0])
    return now


@pytest.mark.django_db
def test_another_process_sees_the_same_count(clock):
    caches["default"].clear()
    assert [throttle.count_attempt("k", 600) for _ in range(3)] == [1, 2, 3]
    # The count is a row of the database, where every process reads it (a per-process memory
    # cache would hold it in this process only).
    with connection.cursor() as cursor:
        cursor.execute("SELECT cache_key FROM tarot_desk_cache")
        assert [key for (key,) in cursor.fetchall()] == [":1:k"]
    other = caches.create_connection("default")  # as another process would build it
    assert other.get("k")[0] == 3
    assert throttle.attempts("k") == 3


@pytest.mark.django_db
def test_the_window_runs_from_the_first_attempt(clock):
    caches["default"].clear()
    throttle.count_attempt("k", 600)
    clock[0] += 590
    assert throttle.count_attempt("k", 600) == 2  # later attempts do not extend the window
    clock[0] += 11
    assert throttle.attempts("k") == 0
    assert throttle.count_attempt("k", 600) == 1
