"""Two server processes share one computation of the standings: the second reads the first's.

Each step is a separate `manage.py shell -c` on one SQLite file (the test database of the other
tests lives in their own process only), counting the rankings it computed itself.
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
served = shared.shared_standings(Tournament.objects.get(pk=PK), public=True)
players = served.standings.players
print(json.dumps({"computed": len(computed), "version": served.version,
                  "leader": players[0].row.key, "rows": len(players)}))
"""


def manage(database: Path, code: str) -> str:
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{database}"}
    command = [sys.executable, "manage.py", *(["shell", "-c", code] if code else ["migrate"])]
    done = subprocess.run(
        command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300, check=False
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip().splitlines()[-1] if done.stdout.strip() else ""


@pytest.mark.skipif(
    os.environ.get("DATABASE_URL", "").startswith("postgres"),
    reason="SQLite file shared by the processes; the claim and upsert are engine-neutral ORM",
)
def test_a_second_process_reads_the_ranking_the_first_computed(tmp_path):
    database = tmp_path / "shared.sqlite3"
    manage(database, "")  # migrate
    pk = manage(database, SEED)
    first = json.loads(manage(database, POLL.replace("PK", pk)))
    second = json.loads(manage(database, POLL.replace("PK", pk)))
    assert first["computed"] == 1 and second["computed"] == 0
    assert second["version"] == first["version"]
    assert second["leader"] == first["leader"] and second["rows"] == first["rows"] == 40
    # A write moves the version: the next process computes it once, the one after reads it.
    manage(
        database,
        "from tournament.access.lifecycle import tournament_reopen; "
        "from tournament.models import Tournament; "
        f"tournament_reopen(tournament=Tournament.objects.get(pk={pk}), reason='test')",
    )
    third = json.loads(manage(database, POLL.replace("PK", pk)))
    fourth = json.loads(manage(database, POLL.replace("PK", pk)))
    assert third["computed"] == 1 and fourth["computed"] == 0
    assert third["version"] == fourth["version"] != first["version"]
