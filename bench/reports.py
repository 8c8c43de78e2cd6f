"""Benchmark of the rankings and exports on generated tournaments.

Run with `.venv/bin/python bench/reports.py`. On a throw-away SQLite database (a temporary
directory, or DATABASE_URL if set) it generates tournaments of 200 and 800 players (6 positions,
5 deals per table) and prints, for the arbiter's ranking page, the public standings page and
its live partial: the SQL queries and the time of one request (best of 3); and the weight of
the first screen of the public standings and of the players' phone pages, raw and gzipped, beside
the old whole-table standings page; the queries of the arbiter's cockpit, its live part and the
hall screen; the CPU of a poll of the public partial, of a player's card and of the hall
slides on a hit of the shared standings and renders beside the same poll recomputing them.
Then it generates a 10,000-deal tournament and times the deal-log XLSX export.

It checks what the project promises and exits non-zero otherwise: the same number of queries at
200 and 800 players, the 800-player pages at most 5x the time of the 200-player ones, a poll
on a hit of the shared standings at 800 players at most 2x its CPU at 200, first
screens of at most 60 KiB of HTML, and the 10,000-deal XLSX in under 5 seconds. Times are the
process's CPU time (SQLite runs in-process, so it includes the queries): wall-clock times are
printed too, but on a shared, busy machine they mostly measure the other processes.
"""

from __future__ import annotations

import gzip
import os
import sys
import time
from unittest import mock

from common import (  # bench/common.py, next to this file
    arbiter_client,
    django_on_scratch_database,
    measure_get,
)

TMP = django_on_scratch_database()

from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402
from django.urls import reverse  # noqa: E402

from scoring.documents.exports import deals_xlsx  # noqa: E402
from scoring.live.views import public as views_public  # noqa: E402
from scoring.models import Deal, LiveArtifact  # noqa: E402
from scoring.sheets.generate import GenerateOptions, tournament_generate  # noqa: E402

SIZES = (200, 800)
RUNS = 5
MAX_RATIO = 5.0
# CPU per poll of the shared standings (a hit) at 800 players, against 200 players.
MAX_HIT_RATIO = 2.0
HIT_RUNS = 15
XLSX_DEALS = 10_000
XLSX_LIMIT = 5.0
FIRST_SCREEN_LIMIT = 60 * 1024


def weigh(client: Client, url: str) -> tuple[int, int]:
    """(bytes of HTML, bytes as sent gzipped) of GET url."""
    response = client.get(url, HTTP_ACCEPT_ENCODING="gzip")
    if response.status_code != 200:
        raise SystemExit(f"{url}: HTTP {response.status_code}")
    sent = response.content
    raw = gzip.decompress(sent) if response.get("Content-Encoding") == "gzip" else sent
    return len(raw), len(sent)


def first_screen_weights(tournaments: dict) -> bool:
    """The first screen of the public standings and of the phone pages, raw and gzipped, beside
    the old whole-table standings page (the same page unpaginated) as the baseline."""
    client = Client()
    rows = []
    ok = True
    for players, tournament in tournaments.items():
        pk = tournament.pk
        player = tournament.registrations.order_by("number").first()
        standings = reverse("public-tournament", args=[pk])
        # Rendered afresh (the page wraps the stored partial, of the current page size), and
        # not left stored for the rows below.
        renders = LiveArtifact.objects.filter(tournament=tournament, what="standings")
        renders.delete()
        with mock.patch.object(views_public, "PAGE_SIZE", None):
            rows.append(("standings, whole table (old)", players, *weigh(client, standings), ""))
        renders.delete()
        pages = {
            "standings, first page": standings,
            "phone: find me": reverse("public-me", args=[pk]),
            "phone: a player's page": reverse("public-player", args=[pk, player.pk]),
        }
        for name, url in pages.items():
            raw, sent = weigh(client, url)
            verdict = "ok" if raw <= FIRST_SCREEN_LIMIT else "FAIL"
            ok = ok and verdict == "ok"
            rows.append((name, players, raw, sent, verdict))
    print()
    print(f"first screen, HTML as sent (limit {FIRST_SCREEN_LIMIT // 1024} KiB uncompressed)")
    print(f"{'page':30} {'players':>7} {'raw':>10} {'gzipped':>10}")
    for name, players, raw, sent, verdict in rows:
        print(f"{name:30} {players:7} {raw / 1024:6.1f} KiB {sent / 1024:6.1f} KiB {verdict}")
    return ok


def cockpit_queries(tournaments: dict, arbiter: Client) -> bool:
    """The arbiter's cockpit, its live part (fresh, then unchanged: a 304) and the hall screen's
    slides, on the last position reopened with its clock running: queries (the same at every
    size) and CPU."""
    from tournament.access import lifecycle
    from tournament.evening import clock, hall

    hall_screen = Client()
    pages = {
        "cockpit": lambda t: (arbiter, reverse("tournament-detail", args=[t.pk]), {}),
        "cockpit live part": lambda t: (arbiter, reverse("cockpit-live", args=[t.pk]), {}),
        "cockpit live, 304": lambda t: (
            arbiter,
            reverse("cockpit-live", args=[t.pk]),
            {"HTTP_IF_NONE_MATCH": arbiter.get(reverse("cockpit-live", args=[t.pk]))["ETag"]},
        ),
        "hall screen slides": lambda t: (
            hall_screen,
            reverse("hall-slides", args=[t.hall_token]),
            {},
        ),
    }
    results: dict[str, dict[int, tuple[int, float]]] = {name: {} for name in pages}
    for players, tournament in tournaments.items():
        # The generated tournaments are finished: reopen the last position, as on the evening.
        lifecycle.tournament_reopen(tournament=tournament, reason="bench")
        position = lifecycle.position_reopen(
            position=tournament.positions.order_by("number").last(), reason="bench"
        )
        clock.clock_start(position=position)
        tournament = hall.hall_link_create(tournament=tournament)
        for name, page in pages.items():
            client, url, headers = page(tournament)
            best, queries, status = float("inf"), 0, None
            for _ in range(RUNS):
                with CaptureQueriesContext(connection) as captured:
                    cpu = time.process_time()
                    status = client.get(url, **headers).status_code
                    best = min(best, time.process_time() - cpu)
                queries = len(captured)
            expected = 304 if name.endswith("304") else 200
            if status != expected:
                raise SystemExit(f"{url}: HTTP {status}, expected {expected}")
            results[name][players] = (queries, best)
    ok = True
    print()
    print(f"{'cockpit and hall screen':24} {'players':>7} {'queries':>7} {'CPU':>9}")
    for name, by_size in results.items():
        for players, (queries, cpu) in by_size.items():
            print(f"{name:24} {players:7} {queries:7} {cpu * 1000:6.0f} ms")
        small, large = by_size[SIZES[0]], by_size[SIZES[1]]
        same = small[0] == large[0]
        ok = ok and same
        print(f"{'':24} queries constant: {'yes → ok' if same else 'NO → FAIL'}")
    return ok


def shared_polls(tournaments: dict) -> bool:
    """CPU per poll of the public standings partial, of a player's page (the card the page
    refreshes) and of the hall screen's slides: on a hit of the shared standings and renders
    (scoring.live.shared, scoring.live.rendered) and recomputed (the shared rows deleted before
    each request), side by side; a hit at 800 players must cost at most MAX_HIT_RATIO times a
    hit at 200."""
    from tournament.evening import hall

    client = Client()
    pages = {
        "public partial": lambda t, r: reverse("public-standings-partial", args=[t.pk]),
        "player's card": lambda t, r: reverse("public-player", args=[t.pk, r.pk]),
        "hall slides": lambda t, r: reverse("hall-slides", args=[t.hall_token]),
    }
    for players, tournament in tournaments.items():
        if not tournament.hall_token:
            tournaments[players] = hall.hall_link_create(tournament=tournament)
    results: dict[str, dict[int, tuple[float, float]]] = {name: {} for name in pages}
    for players, tournament in tournaments.items():
        registration = tournament.registrations.order_by("number").last()
        for name, page in pages.items():
            url = page(tournament, registration)
            cpu: dict[bool, float] = {}
            for hit in (False, True):
                best = float("inf")
                for _ in range(HIT_RUNS):
                    if not hit:
                        LiveArtifact.objects.filter(tournament=tournament, what="ranking").delete()
                        LiveArtifact.objects.filter(tournament=tournament).delete()
                    start = time.process_time()
                    response = client.get(url, HTTP_HX_REQUEST="true")
                    best = min(best, time.process_time() - start)
                    if response.status_code != 200:
                        raise SystemExit(f"{url}: HTTP {response.status_code}")
                cpu[hit] = best
            results[name][players] = (cpu[False], cpu[True])
    ok = True
    print()
    print(f"{'poll (CPU)':16} {'players':>7} {'recomputed':>10} {'shared hit':>10}")
    for name, by_size in results.items():
        for players, (computed, hit) in by_size.items():
            print(f"{name:16} {players:7} {computed * 1000:7.1f} ms {hit * 1000:7.1f} ms")
        ratio = by_size[SIZES[1]][1] / by_size[SIZES[0]][1]
        verdict = "ok" if ratio <= MAX_HIT_RATIO else "FAIL"
        ok = ok and verdict == "ok"
        print(
            f"{'':16} hit {SIZES[1]}/{SIZES[0]} = {ratio:.2f}x "
            f"(limit {MAX_HIT_RATIO:.0f}x) → {verdict}"
        )
    return ok


def main() -> int:
    _user, arbiter = arbiter_client()
    public = Client()
    pages = {
        "ranking (arbiter)": lambda pk: (arbiter, reverse("ranking", args=[pk])),
        "public standings": lambda pk: (public, reverse("public-tournament", args=[pk])),
        "public partial (htmx)": lambda pk: (
            public,
            reverse("public-standings-partial", args=[pk]),
        ),
    }
    results: dict[str, dict[int, tuple[int, float, float, int]]] = {name: {} for name in pages}
    tournaments = {}
    for players in SIZES:
        start = time.perf_counter()
        tournament = tournament_generate(
            options=GenerateOptions(players=players, positions=6, deals=5, seed=1)
        )
        deals = Deal.objects.filter(sheet__tournament=tournament).count()
        print(
            f"generated {players} players, 6 positions, {deals} deals "
            f"in {time.perf_counter() - start:.1f} s"
        )
        for name, page in pages.items():
            client, url = page(tournament.pk)
            results[name][players] = measure_get(client, url, RUNS)
        tournaments[players] = tournament

    ok = True
    print()
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    print(f"{'page':24} {'players':>7} {'queries':>7} {'CPU':>9} {'wall':>9} {'size':>9}")
    for name, by_size in results.items():
        for players, (queries, cpu, wall, size) in by_size.items():
            print(
                f"{name:24} {players:7} {queries:7} {cpu * 1000:6.0f} ms {wall * 1000:6.0f} ms "
                f"{size // 1024:5} KiB"
            )
        small, large = by_size[SIZES[0]], by_size[SIZES[1]]
        ratio = large[1] / small[1]
        same = small[0] == large[0]
        verdict = "ok" if same and ratio <= MAX_RATIO else "FAIL"
        ok = ok and verdict == "ok"
        print(
            f"{'':24} queries constant: {'yes' if same else 'NO'}, "
            f"CPU time {SIZES[1]}/{SIZES[0]} = {ratio:.1f}x (limit {MAX_RATIO:.0f}x) → {verdict}"
        )

    ok = first_screen_weights(tournaments) and ok
    ok = shared_polls(tournaments) and ok
    ok = cockpit_queries(tournaments, arbiter) and ok

    positions = XLSX_DEALS // (SIZES[1] // 4 * 5)
    tournament = tournament_generate(
        options=GenerateOptions(players=SIZES[1], positions=positions, deals=5, seed=2)
    )
    deals = Deal.objects.filter(sheet__tournament=tournament).count()
    wall, cpu = time.perf_counter(), time.process_time()
    content = deals_xlsx.build(tournament)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    verdict = "ok" if cpu < XLSX_LIMIT else "FAIL"
    ok = ok and verdict == "ok"
    print()
    print(
        f"deal log XLSX: {deals} deals, {len(content) // 1024} KiB in {cpu:.2f} s CPU "
        f"({wall:.2f} s wall; limit {XLSX_LIMIT:.0f} s) → {verdict}"
    )
    return 0 if ok else 1


if __name__ == "__main__":
    try:
        sys.exit(main())
    finally:
        TMP.cleanup()
