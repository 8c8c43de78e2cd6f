"""Benchmark of a season championship's page over 12 and 24 finished tournaments of 60 players.

Run with `.venv/bin/python bench/championship.py`. On a throw-away SQLite database (a temporary
directory, or DATABASE_URL if set) it generates 24 tournaments of the same 60 people (2
positions, one deal per table), then builds the championship page (the ranking and its HTML) over
the first 12 and over all 24, and prints the SQL queries and the CPU time (time.process_time,
best of 5; SQLite runs in-process, so it includes the queries) of each, and their ratio.

It exits non-zero unless the queries are the same for 12 and 24 tournaments and the 24-tournament
page takes at most 2.5 times the CPU time of the 12-tournament one.
"""

from __future__ import annotations

import sys
import time

from common import (  # bench/common.py, next to this file
    arbiter_client,
    django_on_scratch_database,
    measure_get,
)

TMP = django_on_scratch_database()

from django.urls import reverse  # noqa: E402

from tests.scoring.season.championship_helpers import championship, generated_season  # noqa: E402

PLAYERS = 60
SIZES = (12, 24)
RUNS = 5
MAX_RATIO = 2.5


def main() -> int:
    user, client = arbiter_client()
    started = time.perf_counter()
    _roster, tournaments = generated_season(max(SIZES), players=PLAYERS, owner=user)
    print(f"{max(SIZES)} tournaments of {PLAYERS} players generated in "
          f"{time.perf_counter() - started:.1f} s")  # fmt: skip
    results = {}
    for size in SIZES:
        season = championship(tournaments[:size], owner=user, name=f"{size} soirées", best_of=10)
        url = reverse("championship-detail", args=[season.pk])
        results[size] = measure_get(client, url, RUNS)
        queries, cpu, wall, _size = results[size]
        print(f"championship page, {size:2d} tournaments: {queries} queries, "
              f"CPU {cpu * 1000:.1f} ms, wall {wall * 1000:.1f} ms")  # fmt: skip
    small, large = (results[size] for size in SIZES)
    ratio = large[1] / small[1]
    print(f"CPU time ratio {SIZES[1]} / {SIZES[0]} tournaments: {ratio:.2f} (at most {MAX_RATIO})")
    ok = small[0] == large[0] and ratio <= MAX_RATIO
    if small[0] != large[0]:
        print(f"FAIL: {small[0]} queries for {SIZES[0]} tournaments, {large[0]} for {SIZES[1]}")
    if ratio > MAX_RATIO:
        print("FAIL: the page's CPU time grows faster than the number of tournaments allows")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
