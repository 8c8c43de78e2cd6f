"""Blank feuilles de marque for a position: one landscape page per table, filled in by hand."""

from __future__ import annotations

from django.utils.translation import gettext as _

from scoring.printing.render import render_pdf
from scoring.printing.sheet_page import (
    SheetPage,
    blank_rows,
    game_label,
    players_at,
    row_heights,
    seated_columns,
    start_labels,
)
from tournament.models import Position, Table

TEMPLATE = "print/sheets.html"


def blank_sheet_pages(position: Position) -> list[SheetPage]:
    tournament = position.tournament
    labels = start_labels(tournament)
    tables = Table.objects.filter(position=position).prefetch_related("seats__registration__player")
    pages = []
    for table in tables:
        seats = list(table.seats.all())
        players = players_at(table, seats)
        pages.append(
            SheetPage(
                tournament=tournament,
                position_number=position.number,
                table_number=table.number,
                game_label=game_label(table, players),
                columns=seated_columns(seats, labels),
                rows=blank_rows(tournament.deals_for_table_size(players), players),
            )
        )
    return pages


def blank_sheets_pdf(position: Position, *, base_url: str | None = None) -> bytes:
    """All the blank sheets of a position in one PDF, one page per table."""
    pages = blank_sheet_pages(position)
    return render_pdf(
        TEMPLATE,
        {
            "tournament": position.tournament,
            "pages": pages,
            "row_heights": row_heights(pages),
            "orientation": "landscape",
            "document_title": _("Feuilles de marque — position %(number)s")
            % {"number": position.number},
        },
        base_url,
    )
