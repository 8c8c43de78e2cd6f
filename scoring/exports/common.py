"""Helpers shared by the spreadsheet builders: titles, header style, column widths."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from django.utils.translation import gettext as _
from openpyxl.styles import Font
from openpyxl.utils import get_column_letter

from tournament.models import Tournament

BOLD = Font(bold=True)
MIN_WIDTH = 4
MAX_WIDTH = 60


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
