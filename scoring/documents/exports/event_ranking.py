"""An event's rankings (scoring.events.rankings) as XLSX, a worksheet per bracket, and CSV, a
"Tableau" column; each names every bracket's cut and carry-over above its lines."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator

from django.utils.translation import gettext as _
from openpyxl import Workbook

from scoring.documents.exports.common import (
    BOLD,
    append_row,
    csv_decimal,
    fit_widths,
    safe_csv_value,
    set_widths,
)
from scoring.events.rankings import EventDocument, header, row

DELIMITER = ";"


def build_xlsx(document: EventDocument) -> bytes:
    """A worksheet per bracket: the title, the bracket's cut and carry, then its ranking."""
    workbook = Workbook(write_only=True)
    heading = header(document.kind)
    for part in document.parts:
        rows = [row(line, document.kind) for line in part.lines(document.kind)]
        worksheet = workbook.create_sheet(title=part.label[:31])
        set_widths(worksheet, fit_widths([heading, *rows], len(heading)))
        notes = document.notes(part)
        worksheet.freeze_panes = f"A{len(notes) + 3}"
        append_row(worksheet, [f"{document.title} — {part.label}"], BOLD)
        for note in notes:
            append_row(worksheet, [note])
        append_row(worksheet, heading, BOLD)
        for values in rows:
            append_row(worksheet, values)
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


def stream_csv(document: EventDocument) -> Iterator[str]:
    """A BOM, the title, one line per bracket naming its cut and carry, a blank line, then the
    heading and every bracket's lines (UTF-8 and semicolons, as the deals' CSV)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, delimiter=DELIMITER)
    writer.writerow([safe_csv_value(document.title)])
    for part in document.parts:
        writer.writerow([safe_csv_value(v) for v in (part.label, *document.notes(part))])
    writer.writerow([])
    writer.writerow([_("Tableau"), *header(document.kind)])
    for part in document.parts:
        for line in part.lines(document.kind):
            values = (part.label, *row(line, document.kind))
            # The formula guard reads the data (text only); a number is formatted after it, so
            # a negative fraction is written -283,5, a number, never the text '-283,5.
            writer.writerow([csv_decimal(safe_csv_value(v)) for v in values])
    yield "\ufeff"
    yield buffer.getvalue()
