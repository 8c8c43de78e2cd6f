"""What the load tests share about the database they run on: PostgreSQL or SQLite (DATABASE_URL
set by `make test`'s PostgreSQL pass or by `scripts/pg-test-server`), and the marks of a test
of several servers on one PostgreSQL database (SQLite is one file on one machine)."""

from __future__ import annotations

import os
import threading

import pytest
from django.db import connection

ON_POSTGRES = os.environ.get("DATABASE_URL", "").startswith(("postgres://", "postgresql://"))


def postgres_servers(reason: str) -> list[pytest.MarkDecorator]:
    """The module marks of a test whose servers share a PostgreSQL database: slow, a database
    test, skipped on SQLite with `reason` (what needs PostgreSQL)."""
    return [
        pytest.mark.slow,
        pytest.mark.database,
        pytest.mark.skipif(
            not ON_POSTGRES, reason=f"{reason}: make test's PostgreSQL pass runs this"
        ),
    ]


def in_threads(count: int, work) -> list:
    """Run `work(i)` in `count` threads released together; their results or exceptions."""
    barrier = threading.Barrier(count)
    results: list = [None] * count

    def run(index: int) -> None:
        try:
            barrier.wait()
            results[index] = work(index)
        except Exception as error:  # noqa: BLE001 - the test inspects what each thread got
            results[index] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results
