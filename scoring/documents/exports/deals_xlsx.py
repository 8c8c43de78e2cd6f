"""The deal log workbook: one row per deal, streamed with openpyxl's write-only mode."""

from __future__ import annotations

import io

from django.utils.translation import gettext as _
from openpyxl import Workbook
from openpyxl.styles import Font

from scoring.documents.exports import deal_log
from scoring.documents.exports.common import BOLD, append_row, fit_widths, set_widths, title_line
from tournament.models import Tournament

HEADER_ROWS = 2
ADJUSTED = Font(italic=True, color="A3201A")
# Widths of the columns holding numbers or short words, in characters.
SHORT = 9


def build(tournament: Tournament) -> bytes:
    """The workbook as bytes. Adjusted deals are marked in their column and in red italics."""
    workbook = Workbook(write_only=True)
    worksheet = workbook.create_sheet(title=_("Donnes"))
    header = deal_log.header()
    names = deal_log.seat_names(tournament)
    # Widths are set before any row is written (write-only mode): names and headings decide.
    longest_name = max((len(player.label) for player in names.values()), default=10)
    widths = fit_widths([header], len(header))
    # Dealer, taker, partner, mort, then each seat's name (seats are place, name, n°, licence,
    # score), and an incident's culprit.
    name_columns = {4, 5, 6, 7} | {22 + 5 * seat for seat in range(deal_log.MAX_SEATS)}
    name_columns.add(header.index(_("Joueur fautif")))
    for index in range(len(widths)):
        if index in name_columns:
            widths[index] = max(widths[index], longest_name + 2)
        else:
            widths[index] = max(widths[index], SHORT)
    widths[11] = max(widths[11], longest_name + 12)  # poignées: name (size)
    widths[19] = max(widths[19], 30)  # adjustment reason
    widths[20] = max(widths[20], 18)  # computed scores
    for title in (_("Saisie par"), _("Confirmée par")):  # "12 – NAME" or "arbitre <username>"
        index = header.index(title)
        widths[index] = max(widths[index], longest_name + 7)
    set_widths(worksheet, widths)
    worksheet.freeze_panes = f"A{HEADER_ROWS + 1}"
    append_row(worksheet, [title_line(tournament, _("Journal des donnes"))], BOLD)
    append_row(worksheet, header, BOLD)
    adjusted_column = header.index(_("Score arbitral"))
    for row in deal_log.rows(tournament, names):
        # Names and reasons are data: append_row never lets them become formulas.
        append_row(worksheet, row, ADJUSTED if row[adjusted_column] else None)
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()
