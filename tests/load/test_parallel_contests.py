"""Contests hold under real parallel requests to a multi-process server (gunicorn, 4 workers, as
tests/load/test_parallel_limits.py): one player fires many contests of one deal at once; exactly
one contest is written, and no more than the per-player-and-deal allowance is even tried (each
counted by one atomic statement, tournament.access.throttle, whatever process answers)."""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from scoring.sheets.table_entry.disputes import CONTEST_ALLOWANCE
from tests.load.parallel_site import ServedSite, all_at_once, request, served_site, tally

ON_POSTGRES = os.environ.get("DATABASE_URL", "").startswith(("postgres://", "postgresql://"))
DATABASE = "postgres" if ON_POSTGRES else "sqlite"
CONTESTS = 40

pytestmark = [pytest.mark.slow, pytest.mark.database]


@pytest.fixture(scope="module")
def site() -> Iterator[ServedSite]:
    with tempfile.TemporaryDirectory(prefix="tarot-contests-") as tmp:
        with served_site(DATABASE, Path(tmp)) as served:
            yield served


def test_parallel_contests_of_one_deal_by_one_player_write_one_contest(site: ServedSite):
    table = site.phone_table
    base = f"/table/{table.token}/"
    # Seat 0 binds its phone and enters a deal (a garde of seat 0): seat 2 will contest it.
    enterer = table.csrf_cookies(site.port)
    bound = request(
        site.port,
        "POST",
        base + "identifier/",
        json_body={"seat": 0, "pin": table.seats[0]["pin"]},
        cookies=enterer,
    )
    assert bound.status == 200, bound.text[:300]
    deal = {"taker": 0, "contract": "garde", "oudlers": 2, "points": 50, "dealer": 0}
    body = {"client_id": "parallel-contest-1", "version": 0, "deal": deal}
    created = request(
        site.port, "POST", base + "donnes/", json_body=body, cookies=enterer | bound.cookies
    )
    assert created.status == 201, created.text[:300]
    deal_id = json.loads(created.text)["deal"]
    contester = table.csrf_cookies(site.port)
    contest = {"seat": 2, "pin": table.seats[2]["pin"], "number": 1, "note": "non"}

    results = all_at_once(
        CONTESTS,
        lambda _i: request(
            site.port, "POST", base + "contester/", json_body=contest, cookies=contester
        ),
    )
    counts = tally(
        results,
        contested=lambda a: a.status == 200,
        already=lambda a: a.status == 409,
        limited=lambda a: a.status == 429,
    )
    print(f"[{DATABASE}] {CONTESTS} parallel contests: {counts}")
    assert counts["contested"] == 1, counts
    assert counts["other"] == 0, counts
    # The others were refused: as already contested, or unchecked once the allowance was used.
    # However the requests were spread over the processes, no more than the allowance passed
    # the counter (one statement each).
    stored = site.read_back()
    key = f"contest:{table.seats[2]['registration']}:{deal_id}"
    assert 1 <= stored["counters"][key] <= CONTEST_ALLOWANCE
    assert counts["already"] + counts["limited"] == CONTESTS - 1
    (row,) = [d for d in stored["deals"] if d["pk"] == deal_id]
    assert row["pending"]
