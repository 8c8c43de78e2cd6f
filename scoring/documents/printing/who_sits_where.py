"""The alphabetical "who sits where" list of a position: name, number, table and seat."""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.translation import gettext as _

from scoring.documents.printing.render import render_pdf
from tournament.evening.selectors import who_sits_where
from tournament.models import Position, Tournament

TEMPLATE = "print/who_sits_where.html"


def who_sits_where_pdf(
    tournament: Tournament, positions: Sequence[Position], *, base_url: str | None = None
) -> bytes:
    """One alphabetical list per position (each starting on a new page), in two columns."""
    lists = [{"position": position, "rows": who_sits_where(position)} for position in positions]
    return render_pdf(
        TEMPLATE,
        {
            "tournament": tournament,
            "lists": lists,
            "document_title": _("Qui est où ?"),
        },
        base_url,
    )
