"""Benchmark: render every blank score sheet of a 10-, 25- and 50-table position into one PDF.

Run with `.venv/bin/python bench/pdf.py`. It builds throwaway tournaments in an in-memory
SQLite database, so it never touches db.sqlite3. The target is under 10 s for 50 tables, with
a per-page cost that does not grow with the page count.

The verdict uses the process's CPU time, which is the wall time on an idle machine; on a shared,
busy one the wall clock mostly measures the neighbours, so both are printed.
"""

from __future__ import annotations

import io
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ["DATABASE_URL"] = "sqlite://:memory:"
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournament.settings")

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402
from pypdf import PdfReader  # noqa: E402

from scoring.documents.printing.blank_sheets import blank_sheets_pdf  # noqa: E402
from tournament.models import Player, Position, Registration, Seat, Table, Tournament  # noqa: E402

SIZES = (10, 25, 50)
LIMIT_SECONDS = 10.0


def build_position(tables: int) -> Position:
    """A tournament of `tables` tables of four (the last one of five) at position 1."""
    tournament = Tournament.objects.create(name=f"Banc d'essai {tables} tables", date="2026-11-21")
    tournament.refresh_from_db()
    count = tables * 4 + 1
    players = Player.objects.bulk_create(
        Player(last_name=f"JOUEUR{n:03d}", first_name="Prénom") for n in range(count)
    )
    registrations = Registration.objects.bulk_create(
        Registration(tournament=tournament, player=player, number=n + 1)
        for n, player in enumerate(players)
    )
    position = Position.objects.create(tournament=tournament, number=1)
    seats = []
    for number in range(1, tables + 1):
        five = number == tables
        table = Table.objects.create(
            position=position, number=number, game=Table.Game.FIVE if five else Table.Game.FOUR
        )
        chunk = registrations[(number - 1) * 4 : number * 4 + (1 if five else 0)]
        seats += [
            Seat(table=table, registration=registration, direction=direction)
            for registration, direction in zip(chunk, "NESWX", strict=False)
        ]
    Seat.objects.bulk_create(seats)
    return position


def main() -> int:
    call_command("migrate", verbosity=0)
    blank_sheets_pdf(build_position(2))  # warm-up: fonts and WeasyPrint's first-use costs
    # CPU time too: on a shared, busy machine the wall clock says more about the neighbours.
    print(
        f"{'tables':>6} {'pages':>6} {'wall s':>7} {'cpu s':>6} {'ms/page':>8} {'cpu ms/page':>11}"
    )
    per_page: dict[int, float] = {}
    worst = 0.0
    for size in SIZES:
        position = build_position(size)
        start, cpu_start = time.perf_counter(), time.process_time()
        pdf = blank_sheets_pdf(position)
        elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu_start
        pages = len(PdfReader(io.BytesIO(pdf)).pages)
        assert pages == size, f"{pages} pages for {size} tables"
        print(
            f"{size:>6} {pages:>6} {elapsed:>7.2f} {cpu:>6.2f} "
            f"{elapsed / pages * 1000:>8.1f} {cpu / pages * 1000:>11.1f}"
        )
        per_page[size] = cpu / pages
        if size == max(SIZES):
            worst = cpu
    growth = per_page[max(SIZES)] / per_page[min(SIZES)]
    print(f"per-page cost, {max(SIZES)} vs {min(SIZES)} tables: x{growth:.2f}")
    ok = worst < LIMIT_SECONDS and growth < 1.5
    verdict = "OK" if ok else "TOO SLOW"
    print(f"{max(SIZES)} tables in {worst:.2f} s of CPU: {verdict} (< {LIMIT_SECONDS} s)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
