"""The deal log as CSV (UTF-8 with a BOM and semicolons, as French spreadsheets expect)."""

from __future__ import annotations

import csv
from collections.abc import Iterator

from scoring.documents.exports import deal_log
from scoring.documents.exports.common import safe_csv_value
from tournament.models import Tournament

DELIMITER = ";"


class _Echo:
    """A file-like object whose write returns the line, for streaming responses."""

    def write(self, value: str) -> str:
        return value


def stream(tournament: Tournament) -> Iterator[str]:
    """The CSV, line by line: a BOM, the header, one line per deal.

    Text that a spreadsheet would evaluate as a formula is neutralised; numbers stay numbers.
    """
    writer = csv.writer(_Echo(), delimiter=DELIMITER)
    yield "\ufeff"
    yield writer.writerow(deal_log.header())
    for row in deal_log.rows(tournament):
        yield writer.writerow([safe_csv_value(value) for value in row])


def build(tournament: Tournament) -> str:
    return "".join(stream(tournament))
