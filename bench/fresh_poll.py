"""A fresh viewer's poll in CPU time, beside the trivial page's, in the same process and run.

A fresh viewer is a logged-out phone (no cookie) asking the public standings page, or the
partial that page polls (HX-Request), without If-None-Match, once the page's artifact is stored
at the tournament's current revision: what every phone that opens the standings costs, and
every poll of a phone whose ETag is out of date. The trivial pages are the table code page
(`/table/`, bench/big_event.py's baseline) and the login page.

Asked through Django's test client (the whole middleware stack, no HTTP parsing) with a
phone's headers, in rounds that ask each page once (a machine busy with something else slows
every page of a round alike); each page's figure is the median of the process's CPU time
(time.process_time: SQLite runs in this process, so its queries are in it; PostgreSQL's
server is not). Run by bench/big_event.py's setup step, on its database and settings.
"""

from __future__ import annotations

import gzip
import html
import statistics
import time

ROUNDS = 200
WARM_ROUNDS = 5  # unmeasured: templates, translations, connections
HOST = "127.0.0.1"  # bench/common.py's: the host the production settings allow
PHONE = {
    "HTTP_HOST": HOST,
    "HTTP_ACCEPT_LANGUAGE": "fr-FR,fr;q=0.9",
    "HTTP_ACCEPT_ENCODING": "gzip, deflate",
    "HTTP_USER_AGENT": "tarot-bench-phone",
}
POLLS = ("standings", "partial")


def fresh_poll_cpu(tournament_id: int, trivial: str, rounds: int = ROUNDS) -> dict:
    """{"ms": {page: median CPU ms}, "queries": {page: n}, "ratio": {poll: poll / trivial},
    "login_ratio": {poll: poll / login}} of the pages asked fresh."""
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext
    from django.urls import reverse

    from tournament.models.audit import revision_of

    pages = {
        "trivial": (trivial, {}),
        "login": (reverse("login"), {}),
        "standings": (reverse("public-tournament", args=[tournament_id]), {}),
        "partial": (
            reverse("public-standings-partial", args=[tournament_id]),
            {"HTTP_HX_REQUEST": "true"},
        ),
    }
    client = Client()
    revision = revision_of(tournament_id)

    def ask(name: str):
        url, headers = pages[name]
        client.cookies.clear()  # a fresh viewer: no session, no CSRF cookie
        response = client.get(url, **PHONE, **headers)
        if response.status_code != 200:
            raise SystemExit(f"{url}: HTTP {response.status_code}, expected 200")
        return response

    for _ in range(WARM_ROUNDS):  # the first stores the artifacts
        for name in pages:
            ask(name)
    # Served at the current revision: neither stale nor an older revision's.
    for name in POLLS:
        response = ask(name)
        body = response.content
        if response.get("Content-Encoding") == "gzip":
            body = gzip.decompress(body)
        etag = response["ETag"] if name == "partial" else html.unescape(body.decode())
        if response.has_header("X-Live-Stale") or f'"{revision}-' not in etag:
            raise SystemExit(f"the {name} is not served at revision {revision}")
    times: dict[str, list[float]] = {name: [] for name in pages}
    for _ in range(rounds):
        for name in pages:
            started = time.process_time()
            ask(name)
            times[name].append(time.process_time() - started)
    queries = {}
    for name in pages:
        with CaptureQueriesContext(connection) as captured:
            ask(name)
        queries[name] = len(captured)
    if revision_of(tournament_id) != revision:
        raise SystemExit("a read moved the revision")
    ms = {name: statistics.median(values) * 1000 for name, values in times.items()}
    return {
        "rounds": rounds,
        "ms": {name: round(value, 2) for name, value in ms.items()},
        "queries": queries,
        "ratio": {poll: round(ms[poll] / ms["trivial"], 2) for poll in POLLS},
        "login_ratio": {poll: round(ms[poll] / ms["login"], 2) for poll in POLLS},
    }


def describe(players: int, figures: dict) -> str:
    """One line of the figures of a field."""
    ms, queries = figures["ms"], figures["queries"]
    polls = ", ".join(
        f"{poll} {ms[poll]:.2f} ms, {queries[poll]} queries "
        f"({figures['ratio'][poll]:.2f}x /table/, {figures['login_ratio'][poll]:.2f}x login)"
        for poll in POLLS
    )
    return (
        f"fresh viewer's poll at {players} players, CPU median of {figures['rounds']}: {polls}; "
        f"trivial /table/ {ms['trivial']:.2f} ms, login {ms['login']:.2f} ms"
    )
