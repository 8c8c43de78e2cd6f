"""The individual ranking as CSV (UTF-8 with a BOM and semicolons, as the deals' CSV): the
ranking the page and the XLSX show (the same standings, counted by the one rule), its title line
stating partial results and the deals it leaves out as the XLSX states them, numbers as numbers."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator

from scoring.documents.exports.common import csv_decimal, safe_csv_value, title_line
from scoring.documents.exports.ranking_xlsx import individual, subject_of
from scoring.live.standings import Standings
from scoring.live.waiting import WaitingDeals

DELIMITER = ";"


def stream(standings: Standings, waiting: WaitingDeals) -> Iterator[str]:
    """A BOM, the title line, the headings, one line per player in rank order."""
    sheet = individual(standings)
    title = title_line(
        standings.tournament,
        subject_of(sheet, standings, waiting),
        normalised=standings.normalised,
    )
    buffer = io.StringIO()
    writer = csv.writer(buffer, delimiter=DELIMITER)
    writer.writerow([safe_csv_value(title)])
    writer.writerow(sheet.header)
    for row in sheet.rows:
        writer.writerow([csv_decimal(safe_csv_value(value)) for value in row])
    yield "\ufeff"
    yield buffer.getvalue()
