"""bench/big_event.py's machinery works: a few seconds of two tiny fields on SQLite, through the
real server, tables, phones, hall screens and read-back, so that `make test` catches a bench
`make load` would find broken only after its setup. Its verdicts on speed are not asserted:
at this size they measure noise."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.slow
# A bound for a hung run, not a speed limit: on a loaded machine (load average 15 on two cores)
# a healthy run took more than the two minutes this once was.
HANG = 900


def test_the_big_event_bench_runs_and_counts_what_it_checks():
    # --debug skips collectstatic (~20 s); a compressed pace (a deal every 1-2 s a table) and
    # 2-second polls give every kind of request in 3 s, the first of them the warm-up.
    command = [sys.executable, str(ROOT / "bench" / "big_event.py"), "--db", "sqlite", "--debug"]
    command += ["--fields", "8,16", "--seconds", "3", "--warmup", "1", "--speedup", "120"]
    command += ["--poll-seconds", "2", "--hall-seconds", "1", "--trivial-probes", "3"]
    command += ["--poll-rounds", "3"]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=HANG)
    output = done.stdout + done.stderr[-3000:]
    summary = json.loads(done.stdout.strip().splitlines()[-1])
    (run,) = summary["runs"]
    assert run["db"] == "sqlite", output
    small, large = run["fields"]
    assert (small["players"], large["players"]) == (8, 16), output
    assert (small["phones"], large["phones"]) == (10, 20), output
    for field in run["fields"]:
        assert field["acknowledged"] > 0 and field["stored"] >= field["acknowledged"], output
        assert field["lost"] == 0 and field["doubled"] == 0 and field["altered"] == 0, output
        assert field["server_errors"] == 0 and field["read_5xx"] == 0, output
        assert field["pending_in_db"] == 0 and field["clients_hung"] == 0, output
        assert field["polls"] > 0 and field["polls_unanswered"] == 0, output
        assert field["read_other_status"] == 0, output  # 200s and 304s only
        # The warm-up's polls are counted apart, and sent besides the measured ones.
        assert field["warmup_polls"] > 0, output
        assert field["polls_sent"] == field["polls"] + field["warmup_polls"], output
        assert field["trivial_n"] > 0 and field["cpu_ms_per_poll"] > 0, output
        assert field["polls_delivered_per_s"] > 0, output
        names = {check["name"] for check in field["checks"]}
        assert any("trivial page's p95" in name for name in names), output
        # A fresh viewer's poll, measured in CPU beside the trivial page's, in the setup step.
        assert any("trivial page's CPU" in name for name in names), output
        assert field["fresh_standings_ms"] > 0 and field["fresh_poll_ratio"] > 0, output
        assert field["fresh_queries"]["standings"] > 0, output
    assert run["cpu_check"]["value"] > 0, output
    # The table and the verdict are printed, and the exit code follows the verdict.
    assert "polls/s wanted" in done.stdout and "CPU ms/poll" in done.stdout, output
    assert "fresh poll/trivial CPU" in done.stdout, output
    assert done.returncode == (0 if summary["ok"] else 1), output
