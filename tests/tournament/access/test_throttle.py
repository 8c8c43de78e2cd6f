"""The throttles' counts are rows of one table, changed by one SQL statement an attempt: every
server process shares them, and parallel attempts can't slip between a read and a write."""

import os

import pytest
from django.db import connection

from tests.load.test_concurrent_saves import in_threads
from tournament.access import throttle
from tournament.models import Counter

ON_POSTGRES = os.environ.get("DATABASE_URL", "").startswith(("postgres://", "postgresql://"))
T0 = 1_800_000_000.0


@pytest.mark.django_db
def test_hits_count_in_a_window_that_runs_from_the_first_attempt():
    assert [throttle.hit("k", 600, now=T0 + i) for i in range(3)] == [1, 2, 3]
    assert throttle.hit("k", 600, now=T0 + 599) == 4  # later attempts do not extend the window
    assert throttle.attempts("k", now=T0 + 599) == 4
    assert throttle.attempts("k", now=T0 + 601) == 0
    assert throttle.hit("k", 600, now=T0 + 601) == 1
    assert throttle.hit("other", 600, now=T0 + 601) == 1


@pytest.mark.django_db
def test_the_count_is_a_row_another_connection_reads():
    throttle.hit("k", 600, now=T0)
    throttle.hit("k", 600, now=T0)
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT key, hits FROM {Counter._meta.db_table}")
        assert cursor.fetchall() == [("k", 2)]


@pytest.mark.django_db
def test_a_gate_checks_its_allowance_then_locks_for_growing_times():
    checked = [throttle.gate("g", allowance=3, lock=60, now=T0) for _ in range(5)]
    assert checked == [True, True, True, False, False]  # the third one locked the key
    assert throttle.locked_until("g") == T0 + 60
    assert not throttle.gate("g", allowance=3, lock=60, now=T0 + 59)
    # Once the lock is over, one more attempt is checked, and it locks for twice as long.
    assert throttle.gate("g", allowance=3, lock=60, now=T0 + 60)
    assert throttle.locked_until("g") == T0 + 60 + 120
    assert not throttle.gate("g", allowance=3, lock=60, now=T0 + 179)
    assert throttle.gate("g", allowance=3, lock=60, now=T0 + 180)
    assert throttle.locked_until("g") == T0 + 180 + 240
    # A right answer (or the arbiter) clears the key: the allowance is whole again.
    throttle.clear("g")
    assert [throttle.gate("g", allowance=3, lock=60, now=T0 + 181) for _ in range(3)] == [True] * 3


@pytest.mark.django_db
def test_locks_stop_growing_at_the_cap():
    now = T0
    for _ in range(30):
        throttle.gate("g", allowance=1, lock=60, now=now)
        now = throttle.locked_until("g")
    assert Counter.objects.get(key="g").delay == throttle.MAX_LOCK


# The attempts' own purge, which the tests' conftest turns off everywhere else (no_purge_by_chance).
MAYBE_PURGE = throttle._maybe_purge


@pytest.mark.django_db
@pytest.mark.parametrize(("draw", "purged"), [(0, True), (1, False)])
def test_an_attempt_purges_stale_counters_when_its_draw_is_zero(monkeypatch, draw, purged):
    throttle.hit("old", 60, now=T0)
    asked = []
    monkeypatch.setattr(throttle.random, "randrange", lambda n: asked.append(n) or draw)
    MAYBE_PURGE(T0 + throttle.STALE_AFTER + 100)
    assert asked == [throttle.PURGE_ONE_IN]
    assert Counter.objects.filter(key="old").exists() is not purged


@pytest.mark.django_db
def test_purge_keeps_what_still_counts():
    # No purge by chance in between (tests/conftest.py: no_purge_by_chance).
    throttle.hit("old", 60, now=T0)
    throttle.gate("locked", allowance=1, lock=600, now=T0 + throttle.STALE_AFTER + 50)
    throttle.hit("recent", 60, now=T0 + throttle.STALE_AFTER)
    assert throttle.purge(now=T0 + throttle.STALE_AFTER + 100) == 1
    assert set(Counter.objects.values_list("key", flat=True)) == {"locked", "recent"}


@pytest.mark.django_db
def test_a_refund_gives_one_attempt_back_never_below_zero():
    for _ in range(3):
        throttle.hit("b", 600, now=T0)
    throttle.refund("b", "b")
    assert throttle.attempts("b", now=T0) == 1
    throttle.refund("b", "b", "nothing-here")
    assert throttle.attempts("b", now=T0) == 0
    assert throttle.hit("b", 600, now=T0) == 1


@pytest.mark.django_db
def test_locked_reads_whether_a_gate_is_closed_now():
    assert not throttle.locked("g", now=T0)
    for _ in range(2):
        throttle.gate("g", allowance=2, lock=60, now=T0)
    assert throttle.locked("g", now=T0 + 59) and not throttle.locked("g", now=T0 + 60)


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(not ON_POSTGRES, reason="SQLite's test database is one connection")
def test_parallel_hits_and_gates_keep_an_exact_count():
    """Threads on their own connections (the suite's PostgreSQL run); the multi-process
    gunicorn test is tests/load/test_parallel_limits.py."""
    counts = in_threads(40, lambda i: throttle.hit("p", 600))
    assert sorted(counts) == list(range(1, 41))
    checked = in_threads(40, lambda i: throttle.gate("q", allowance=5, lock=600))
    assert checked.count(True) == 5

    def reserve_then_give_back(i: int) -> bool:
        """A budget of 10 reserved by 40 threads at once, those over it giving theirs back."""
        if throttle.hit("r", 600) > 10:
            throttle.refund("r")
            return False
        return True

    admitted = in_threads(40, reserve_then_give_back)
    assert admitted.count(True) == 10 and throttle.attempts("r") == 10
