"""Benchmark of the player-list import on junk and hostile files.

Run with `.venv/bin/python bench/imports.py`. It needs no database: it calls the parser
(tournament.players.importing.parse_upload) directly, the way the upload view does, and prints:

- the time to parse a CSV of 2,000 junk lines and one of 20,000 (the second stops at the
  5,000-player cap), and 500 against 5,000 junk lines (both under the cap, so every line is
  read): each ratio must stay at most 12 (it was quadratic: 40,000 lines took 26 s);
- the time and the extra memory (tracemalloc peak, and the growth of the process's maximum
  resident size) to refuse zipped XLSX bombs generated here with zipfile: 10 million empty
  rows (57 MiB of sheet XML in a zip of 89 KiB, refused by the uncompressed size), then
  19 MiB of empty rows (under that cap, refused by the count of XML elements), then
  200,000 one-cell rows (refused as over 5,000 players): each in under 2 s of CPU and under
  200 MB;
- the time to read a genuine 5,000-player XLSX, and the costliest XLSX the checks let through
  (each under 5 s of CPU).

It prints PASS or FAIL for each and exits non-zero on any failure. Verdicts use the process's
CPU time: wall-clock times are printed too, but on a shared, busy machine they mostly
measure the other processes.
"""

from __future__ import annotations

import io
import os
import resource
import sys
import time
import tracemalloc
import zipfile

from common import django_on_scratch_database  # bench/common.py, next to this file

TMP = django_on_scratch_database()

from django.utils import translation  # noqa: E402
from openpyxl import Workbook  # noqa: E402

from tournament.players.import_files import MAX_XML_WORK  # noqa: E402
from tournament.players.importing import parse_upload  # noqa: E402

MAX_RATIO = 12.0
BOMB_CPU = 2.0
BOMB_MEMORY = 200 * 1024 * 1024
GENUINE_CPU = 5.0
SHEET = "xl/worksheets/sheet1.xml"
SHEET_HEAD = (
    b'<?xml version="1.0" encoding="UTF-8"?>'
    b'<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>'
)
SHEET_TAIL = b"</sheetData></worksheet>"


def junk_csv(lines: int) -> bytes:
    """A header, then lines without a name: every one of them is an error."""
    return b"nom;prenom\n" + b";x\n" * lines


def xlsx_with_sheet(chunks) -> bytes:
    """A workbook made by openpyxl whose sheet XML is replaced by `chunks`, streamed."""
    book = Workbook()
    book.active.append(["nom"])
    base = io.BytesIO()
    book.save(base)
    source = zipfile.ZipFile(base)
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for info in source.infolist():
            if info.filename == SHEET:
                with target.open(SHEET, "w", force_zip64=True) as sheet:
                    sheet.write(SHEET_HEAD)
                    for chunk in chunks:
                        sheet.write(chunk)
                    sheet.write(SHEET_TAIL)
            else:
                target.writestr(info, source.read(info.filename))
    return out.getvalue()


def repeated(unit: bytes, count: int, per_chunk: int = 100_000):
    """`unit` count times, in chunks (the sheet is never whole in memory)."""
    chunk = unit * per_chunk
    for _ in range(count // per_chunk):
        yield chunk
    yield unit * (count % per_chunk)


def best_cpu(data: bytes, name: str, runs: int = 3) -> tuple[float, float, object]:
    """Best CPU and wall time of parse_upload over `runs` runs, and the last preview."""
    best_cpu = best_wall = float("inf")
    preview = None
    for _ in range(runs):
        wall, cpu = time.perf_counter(), time.process_time()
        preview = parse_upload(name, data)
        best_cpu = min(best_cpu, time.process_time() - cpu)
        best_wall = min(best_wall, time.perf_counter() - wall)
    return best_cpu, best_wall, preview


def maxrss() -> int:
    """The process's maximum resident size so far, in bytes (Linux reports KiB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def verdict(ok: bool) -> str:
    return "PASS" if ok else "FAIL"


def junk_ratio(small: int, large: int) -> bool:
    small_cpu, small_wall, small_preview = best_cpu(junk_csv(small), "junk.csv")
    large_cpu, large_wall, large_preview = best_cpu(junk_csv(large), "junk.csv")
    ratio = large_cpu / small_cpu
    ok = ratio <= MAX_RATIO
    for lines, cpu, wall, preview in (
        (small, small_cpu, small_wall, small_preview),
        (large, large_cpu, large_wall, large_preview),
    ):
        print(
            f"  CSV {lines:>6} junk lines: {cpu * 1000:7.1f} ms CPU {wall * 1000:7.1f} ms wall, "
            f"{len(preview.errors)} messages shown, {preview.omitted} more counted"
        )
    print(f"{verdict(ok)} CSV {large}/{small} junk lines: {ratio:.1f}x (limit {MAX_RATIO:.0f}x)")
    return ok


def refusal(label: str, data: bytes, expected: str) -> bool:
    """Refuse `data` once under tracemalloc (peak) and the max RSS watch; then time it."""
    rss_before = maxrss()
    tracemalloc.start()
    preview = parse_upload("bombe.xlsx", data)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    rss_growth = maxrss() - rss_before
    cpu, wall, _ = best_cpu(data, "bombe.xlsx")
    messages = [e.message for e in preview.errors]
    refused = not preview.rows and any(expected in m for m in messages)
    ok = refused and cpu < BOMB_CPU and peak < BOMB_MEMORY and rss_growth < BOMB_MEMORY
    print(
        f"  {label}: zip of {len(data) // 1024} KiB, refused in {cpu * 1000:.1f} ms CPU "
        f"({wall * 1000:.1f} ms wall), tracemalloc peak {peak / 2**20:.1f} MiB, "
        f"max RSS growth {rss_growth / 2**20:.1f} MiB"
    )
    print(f"  message: {messages}")
    print(
        f"{verdict(ok)} {label}: refused={refused}, limits {BOMB_CPU:.0f} s CPU and "
        f"{BOMB_MEMORY // 2**20} MiB"
    )
    return ok


def genuine() -> bool:
    book = Workbook(write_only=True)
    sheet = book.create_sheet()
    sheet.append(["nom", "prénom", "licence", "club", "équipe"])
    for n in range(5000):
        sheet.append([f"Nom{n}", f"Prénom{n}", str(1_000_000 + n), f"Club {n % 90}", ""])
    out = io.BytesIO()
    book.save(out)
    data = out.getvalue()
    cpu, wall, preview = best_cpu(data, "joueurs.xlsx", runs=2)
    ok = len(preview.rows) == 5000 and not preview.errors and cpu < GENUINE_CPU
    print(
        f"{verdict(ok)} genuine XLSX of 5,000 players ({len(data) // 1024} KiB): "
        f"{len(preview.rows)} rows in {cpu:.2f} s CPU ({wall:.2f} s wall; "
        f"limit {GENUINE_CPU:.0f} s)"
    )
    return ok


def worst_accepted() -> bool:
    """The costliest file the zip check lets through: no <dimension> (openpyxl scans the
    sheet at load time, then again for the rows) and rows as wide as the budget allows, of
    inline strings (the slowest cells for openpyxl). Its work is 4 per cell: the <c> with
    its t attribute, <is> and <t>."""
    header = b'<row><c t="inlineStr"><is><t>nom</t></is></c></row>'
    cell = b'<c t="inlineStr"><is><t>Martin</t></is></c>'
    row = b"<row>" + cell * 1000 + b"</row>"
    count = MAX_XML_WORK // 4 // 4 // 1001 - 1  # counted twice at load, twice per sheet
    data = xlsx_with_sheet([header] + [row] * count)
    cpu, wall, preview = best_cpu(data, "joueurs.xlsx", runs=2)
    accepted = not any("Excel" in e.message for e in preview.errors)
    ok = accepted and cpu < GENUINE_CPU
    print(
        f"{verdict(ok)} costliest XLSX accepted ({count} rows of 1,000 inline strings, "
        f"{len(data) // 1024} KiB): read in {cpu:.2f} s CPU ({wall:.2f} s wall; "
        f"limit {GENUINE_CPU:.0f} s)"
    )
    return ok


def main() -> int:
    translation.activate("fr")
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    results = [junk_ratio(2_000, 20_000), junk_ratio(500, 5_000)]

    generated = time.perf_counter()
    bomb = xlsx_with_sheet(repeated(b"<row/>", 10_000_000))
    print(
        f"  (10 M empty rows: {10_000_000 * 6 // 2**20} MiB of sheet XML zipped to "
        f"{len(bomb) // 1024} KiB, generated in {time.perf_counter() - generated:.1f} s)"
    )
    results.append(refusal("XLSX bomb of 10 M empty rows", bomb, "décompressé dépasse"))
    del bomb

    dense = xlsx_with_sheet(repeated(b"<row/>", 19 * 2**20 // 6))
    results.append(
        refusal("XLSX of 19 MiB of empty rows (under the size cap)", dense, "vides comprises")
    )
    del dense

    rows = xlsx_with_sheet(
        repeated(b'<row><c t="inlineStr"><is><t>Martin</t></is></c></row>', 200_000)
    )
    results.append(refusal("XLSX of 200,000 one-cell rows", rows, "lignes de joueurs"))
    del rows

    results.append(genuine())
    results.append(worst_accepted())
    return 0 if all(results) else 1


if __name__ == "__main__":
    try:
        sys.exit(main())
    finally:
        TMP.cleanup()
