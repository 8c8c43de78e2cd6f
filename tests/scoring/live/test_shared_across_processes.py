"""Two server processes share one computation of the standings: the second reads the first's.

Two Django processes of their own (each as a server process would be: its own memory, its own
connection) on one SQLite file (the test database of the other tests lives in their own process
only), each running the steps it is sent and counting the rankings it computed itself. Each
process is started once and sent several steps: a process started per step would prove nothing
more, and each start is a new Django.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]

pytestmark = [pytest.mark.slow, pytest.mark.database]

# A process that runs each step it reads (a JSON string of Python code, one a line) and writes
# back what the step printed (one JSON line); its database connections are closed after each
# step, as at the end of a request.
STEPS = """
import contextlib, io, json, sys
import django
django.setup()
from django.db import connections
for line in sys.stdin:
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(json.loads(line), {})
    connections.close_all()
    print(json.dumps(printed.getvalue()), flush=True)
"""

MIGRATE = """
from django.core.management import call_command
call_command("migrate", verbosity=0)
"""

SEED = """
from scoring.sheets.generate import GenerateOptions, tournament_generate
from tournament.models import Tournament
t = tournament_generate(options=GenerateOptions(players=40, positions=2, deals=3, seed=1))
Tournament.objects.filter(pk=t.pk).update(is_public=True)
print(t.pk)
"""

# One process's poll: how many rankings it computed, and the version it served.
POLL = """
import json
from scoring.live import shared
from tournament.models import Tournament
computed = []
real = shared.standings_for
shared.standings_for = lambda *a, **k: computed.append(1) or real(*a, **k)
try:
    served = shared.shared_standings(Tournament.objects.get(pk=PK), public=True)
finally:
    shared.standings_for = real
players = served.standings.players
print(json.dumps({"computed": len(computed), "version": served.version,
                  "leader": players[0].row.key, "rows": len(players)}))
"""

REOPEN = """
from tournament.access.lifecycle import tournament_reopen
from tournament.models import Tournament
tournament_reopen(tournament=Tournament.objects.get(pk=PK), reason="test")
"""


class Process:
    """A Django process of its own on `database`, running the steps it is sent."""

    def __init__(self, database: Path):
        env = {
            **os.environ,
            "DATABASE_URL": f"sqlite:///{database}",
            "DJANGO_SETTINGS_MODULE": "tournament.settings",
            # No coalescing (a version kept a while after a write: tested in
            # test_shared_standings.py): the poll right after the write computes the new one,
            # however fast the machine.
            "LIVE_STANDINGS_COALESCE": "0",
        }
        self.proc = subprocess.Popen(
            [sys.executable, "-c", STEPS],
            cwd=ROOT,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )

    def run(self, code: str) -> str:
        """What the step printed (its last line)."""
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(json.dumps(code) + "\n")
        self.proc.stdin.flush()
        answer = self.proc.stdout.readline()
        assert answer, f"the process ended (exit code {self.proc.wait(timeout=30)})"
        printed = json.loads(answer).strip()
        return printed.splitlines()[-1] if printed else ""

    def poll(self, pk: str) -> dict:
        return json.loads(self.run(POLL.replace("PK", pk)))

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait(timeout=60)


@pytest.mark.skipif(
    os.environ.get("DATABASE_URL", "").startswith("postgres"),
    reason="SQLite file shared by the processes; the claim and upsert are engine-neutral ORM",
)
def test_a_second_process_reads_the_ranking_the_first_computed(tmp_path):
    database = tmp_path / "shared.sqlite3"
    one, two = Process(database), Process(database)
    try:
        one.run(MIGRATE)
        pk = one.run(SEED)
        first = one.poll(pk)
        second = two.poll(pk)
        assert first["computed"] == 1 and second["computed"] == 0
        assert second["version"] == first["version"]
        assert second["leader"] == first["leader"] and second["rows"] == first["rows"] == 40
        # A write moves the version: the next process computes it once, the other then reads
        # it (the first's own earlier computation is of the old version).
        one.run(REOPEN.replace("PK", pk))
        third = two.poll(pk)
        fourth = one.poll(pk)
        assert third["computed"] == 1 and fourth["computed"] == 0
        assert third["version"] == fourth["version"] != first["version"]
    finally:
        one.close()
        two.close()
