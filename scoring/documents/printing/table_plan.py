"""The table plan of a position: every table with who sits at each seat, and a QR code to the
live standings, to pin up in the hall. When players enter their deals on phones, each table also
shows its code and a QR code of its entry page, from the public address (read from the existing
links: printing never creates one)."""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.translation import gettext as _

from scoring.documents.printing.phone_entry import phone_entry
from scoring.documents.printing.render import render_pdf
from scoring.models import TableLink
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
        links = _links(tables) if phones else {}
        for table in tables:
            # Read by the template beside the table's own fields (not model fields).
            link = links.get(table.pk)
            entry = phone_entry(link, base_url) if link is not None else None
            table.entry_code = entry.code if entry else ""  # type: ignore[attr-defined]
            table.entry_qr = entry.qr if entry else ""  # type: ignore[attr-defined]
        plans.append({"position": position, "tables": tables})
    return render_pdf(
        TEMPLATE,
        {
            "tournament": tournament,
            "plans": plans,
            "qr": qr_svg(qr_url) if qr_url else "",
            "qr_url": qr_url,
            "document_title": _("Plan des tables"),
        },
        base_url,
    )


def _links(tables: Sequence[object]) -> dict[int, TableLink]:
    """Table id → its usable link, in one query."""
    ids = [table.pk for table in tables]  # type: ignore[attr-defined]
    return {
        link.table_id: link for link in TableLink.objects.filter(table_id__in=ids, revoked=False)
    }
