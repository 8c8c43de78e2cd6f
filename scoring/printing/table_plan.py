"""The table plan of a position: every table with who sits at each seat, and a QR code to the
live standings, to pin up in the hall."""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.translation import gettext as _

from scoring.printing.render import qr_svg, render_pdf
from tournament.models import Position, Tournament
from tournament.services import position_plan

TEMPLATE = "print/table_plan.html"


def table_plan_pdf(
    tournament: Tournament,
    positions: Sequence[Position],
    *,
    qr_url: str,
    base_url: str | None = None,
) -> bytes:
    """One section per position (each starting on a new page), tables in number order."""
    plans = [{"position": position, "tables": position_plan(position)} for position in positions]
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
