"""Blank feuilles de marque for a position: one landscape page per table, filled in by hand.

Each deal row has a place for everything the desk asks (contract, taker, called partner at a
table of 5, bouts, points, poignées, petit au bout, chelem), then each player's figure in the FFT
sheet's seat order, and the sheet ends with the totals and the bilans.

When players may enter their deals on phones, each sheet also carries its table's code and a QR
code of the table's entry page (read from the existing links: printing never creates one).
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from scoring.documents.printing.phone_entry import phone_entry, usable_link
from scoring.documents.printing.render import render_pdf
from scoring.documents.printing.sheet_page import (
    SheetPage,
    blank_rows,
    game_label,
    has_called_king,
    players_at,
    row_heights,
    seated_columns,
)
from scoring.sheets.table_entry.links import phones_enabled
from tournament.evening.selectors import start_labels
from tournament.models import Position, Table

TEMPLATE = "print/sheets.html"


def blank_sheet_pages(position: Position, base_url: str | None = None) -> list[SheetPage]:
    """One page per table; `base_url` (the site's root, absolute) makes the QR codes' links."""
    tournament = position.tournament
    labels = start_labels(tournament)
    tables = Table.objects.filter(position=position).prefetch_related("seats__registration__player")
    phones = phones_enabled(tournament)
    if phones:
        tables = tables.select_related("link")
    pages = []
    for table in tables:
        seats = list(table.seats.all())
        players = players_at(table, seats)
        link = usable_link(table) if phones else None
        pages.append(
            SheetPage(
                tournament=tournament,
                position_number=position.number,
                table_number=table.number,
                game_label=game_label(table, players),
                columns=seated_columns(seats, labels),
                rows=blank_rows(tournament.deals_for_table_size(players), players),
                called_king=has_called_king(table, players),
                phone=phone_entry(link, base_url) if link else None,
            )
        )
    return pages


def blank_sheets_pdf(position: Position, *, base_url: str | None = None) -> bytes:
    """All the blank sheets of a position in one PDF, one page per table."""
    pages = blank_sheet_pages(position, base_url)
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
