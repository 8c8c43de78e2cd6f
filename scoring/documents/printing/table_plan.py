"""The table plan of a position: every table with who sits at each seat, and a QR code to the
live standings, to pin up in the hall. When players enter their deals on phones, each table also
shows its code (read from the existing links: printing never creates one)."""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.translation import gettext as _

from scoring.documents.printing.phone_entry import codes_by_table
from scoring.documents.printing.render import render_pdf
from scoring.qr import qr_svg
from scoring.sheets.table_entry.links import phones_enabled
from tournament.evening.selectors import position_plan
from tournament.models import Position, Tournament

TEMPLATE = "print/table_plan.html"


def table_plan_pdf(
    tournament: Tournament,
    positions: Sequence[Position],
    *,
    qr_url: str,
    base_url: str | None = None,
) -> bytes:
    """One section per position (each starting on a new page), tables in number order."""
    phones = phones_enabled(tournament)
    plans = []
    for position in positions:
        tables = position_plan(position)
        codes = codes_by_table(tables) if phones else {}
        for table in tables:
            # Read by the template beside the table's own fields (not a model field).
            table.entry_code = codes.get(table.pk, "")  # type: ignore[attr-defined]
        plans.append({"position": position, "tables": tables})
    return render_pdf(
        TEMPLATE,
        {
            "tournament": tournament,
            "plans": plans,
            "qr": qr_svg(qr_url),
            "qr_url": qr_url,
            "document_title": _("Plan des tables"),
        },
        base_url,
    )
