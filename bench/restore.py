"""Benchmark of a big restore against SQLite's busy timeout.

Run with `.venv/bin/python bench/restore.py`. On a scratch SQLite file (or DATABASE_URL), it
generates an 800-player tournament (6 positions, 25 deals a table: a backup of about 39 MB),
backs it up, restores it, and prints the restore's time and that of its write transaction,
the part during which a deal saved beside it waits (tests/scoring/documents/backup/
test_backup_restore.py proves that the save waits and succeeds, at any size). The verdict is
the ratio of the write transaction's CPU time to the busy timeout of the settings (20 s): at
most 0.5, so that a loaded machine still leaves the waiting save its margin. CPU time, not wall
time: on a shared, busy machine the wall clock mostly measures the other processes.
"""

from __future__ import annotations

import os
import sys
import time

from common import django_on_scratch_database  # bench/common.py, next to this file

TMP = django_on_scratch_database()

from django.conf import settings  # noqa: E402
from django.core.management import call_command  # noqa: E402

from scoring.documents.backup import restore as backup_restore  # noqa: E402
from scoring.documents.backup import tournament_export_json, tournament_import  # noqa: E402
from scoring.sheets.generate import GenerateOptions, tournament_generate  # noqa: E402

MB = 1024 * 1024
MAX_RATIO = 0.5


def main() -> int:
    call_command("migrate", verbosity=0)
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    big = tournament_generate(
        options=GenerateOptions(players=800, positions=6, deals=25, seed=7, name="Grand open")
    )
    raw = tournament_export_json(big).encode()
    figures: dict[str, float] = {}
    real_write = backup_restore._write

    def write(plan):
        cpu, wall = time.process_time(), time.perf_counter()
        try:
            return real_write(plan)
        finally:
            figures["write cpu"] = time.process_time() - cpu
            figures["write wall"] = time.perf_counter() - wall

    backup_restore._write = write
    cpu, wall = time.process_time(), time.perf_counter()
    tournament_import(raw)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    timeout = settings.DATABASES["default"].get("OPTIONS", {}).get("timeout", 20)
    ratio = figures["write cpu"] / timeout
    print(
        f"restore of {len(raw) / MB:.1f} MB: {cpu:.1f} s CPU ({wall:.1f} s wall), of which the "
        f"write transaction {figures['write cpu']:.1f} s CPU ({figures['write wall']:.1f} s wall)"
    )
    ok = ratio <= MAX_RATIO
    verdict = "PASS" if ok else "FAIL"
    print(f"{verdict} write transaction / busy timeout ({timeout} s): {ratio:.2f} (<= {MAX_RATIO})")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
