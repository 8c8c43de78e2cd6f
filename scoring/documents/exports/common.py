"""Helpers shared by the spreadsheet builders: titles, header style, column widths, and the
cells and fields that keep data inert (no formula injection in XLSX or CSV)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from django.utils.formats import number_format
from django.utils.translation import gettext as _
from openpyxl.cell import WriteOnlyCell
from openpyxl.cell.cell import ERROR_CODES, ILLEGAL_CHARACTERS_RE, Cell
from openpyxl.styles import Font
from openpyxl.utils import get_column_letter

from tournament.models import Tournament

BOLD = Font(bold=True)
HEADER_ROWS = 2  # a titled sheet: the title line, then the column headings
MIN_WIDTH = 4
MAX_WIDTH = 60
# First characters that make a spreadsheet evaluate a CSV field as a formula (OWASP).
CSV_FORMULA_TRIGGERS = ("=", "+", "-", "@", "\t", "\r")
# First characters of the text openpyxl would not store as a string: formulas, error codes.
_UNSAFE_FIRST = frozenset("=" + "".join(code[0] for code in ERROR_CODES))


def title_line(tournament: Tournament, subject: str, *, normalised: bool = False) -> str:
    """The first row of every sheet: what it is, for which tournament; normalisation stated."""
    line = f"{tournament.name} — {tournament.date:%d/%m/%Y} — {subject}"
    if normalised:
        line += " — " + _("classement normalisé (tables de 3 et de 5 ramenées à l'échelle de 4)")
    return line


def text_width(value: Any) -> int:
    if value is None:
        return 0
    if isinstance(value, float):
        return len(f"{value:g}")
    return len(str(value))


def fit_widths(rows: Iterable[Sequence[Any]], columns: int) -> list[float]:
    """Column widths (in characters) that fit the longest value of each column."""
    widths = [MIN_WIDTH] * columns
    for row in rows:
        for index, value in enumerate(row[:columns]):
            widths[index] = max(widths[index], text_width(value))
    return [min(MAX_WIDTH, width + 2) for width in widths]


def set_widths(worksheet, widths: Sequence[float]) -> None:
    for index, width in enumerate(widths, start=1):
        worksheet.column_dimensions[get_column_letter(index)].width = width


def safe_cell_value(worksheet, value: Any) -> Any:
    """What to append to a write-only worksheet for a value coming from data.

    openpyxl stores a str starting with "=" as a formula and one such as "#N/A" as an error:
    that text becomes a string cell. Anything else is returned as is (numbers stay numbers,
    ordinary text is already a string cell), so the common case costs no cell object.
    """
    if isinstance(value, str):
        if ILLEGAL_CHARACTERS_RE.search(value):
            # Control characters can't be stored in XLSX (openpyxl raises): drop them.
            value = ILLEGAL_CHARACTERS_RE.sub("", value)
        if value.startswith("=") or value in ERROR_CODES:
            return _cell(worksheet, value)
    return value


def append_row(worksheet, values: Sequence[Any], font: Font | None = None) -> None:
    """Append a row of data to a write-only worksheet; text is never a formula.

    With a font every cell, blanks included, is styled; without, blanks stay empty.
    """
    if font is None:
        # Inlined first-character test: the deal log appends 10,000 rows of 31 values.
        worksheet.append(
            [
                safe_cell_value(worksheet, value)
                if isinstance(value, str)
                and (value[:1] in _UNSAFE_FIRST or ILLEGAL_CHARACTERS_RE.search(value))
                else value
                for value in values
            ]
        )
    else:
        worksheet.append([_cell(worksheet, value, font) for value in values])


def _cell(worksheet, value: Any, font: Font | None = None) -> Cell:
    if isinstance(value, str):
        value = ILLEGAL_CHARACTERS_RE.sub("", value)
    cell = WriteOnlyCell(worksheet, value=value)
    if isinstance(value, str):
        cell.data_type = "s"
    if font is not None:
        cell.font = font
    return cell


def safe_csv_value(value: Any) -> Any:
    """A CSV field: blanks empty, numbers as they are (negative scores included), and text
    starting with a formula trigger prefixed with a single quote so it is not evaluated."""
    if value is None:
        return ""
    if isinstance(value, str) and value.startswith(CSV_FORMULA_TRIGGERS):
        return "'" + value
    return value


def csv_decimal(value: Any) -> Any:
    """A fractional score in the language's decimal mark (14,5 in French, as a French spreadsheet
    reads it with semicolon-separated fields), after the formula guard (text only): -283,5 is a
    number, never the text '-283,5. Whole numbers and text as they are."""
    if isinstance(value, float):
        return number_format(value, use_l10n=True)
    return value


def titled_sheet(
    workbook, name: str, title: str, header: Sequence[str], rows: Sequence[Sequence[Any]]
) -> None:
    """A worksheet of a write-only workbook: a bold title line, bold headings frozen above the
    rows, columns fitted to their text. Names, clubs and teams are data: append_row never lets
    them become formulas."""
    worksheet = workbook.create_sheet(title=name[:31])
    set_widths(worksheet, fit_widths([header, *rows], len(header)))
    worksheet.freeze_panes = f"A{HEADER_ROWS + 1}"
    append_row(worksheet, [title], BOLD)
    append_row(worksheet, header, BOLD)
    for row in rows:
        append_row(worksheet, row)
