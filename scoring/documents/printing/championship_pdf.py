"""The season championship's ranking for the club's notice board."""

from __future__ import annotations

from django.utils.translation import gettext as _

from scoring.documents.printing.render import render_pdf
from scoring.live.waiting import waiting_notes
from scoring.qr import qr_svg
from scoring.season.championships import ChampionshipStandings, lines

TEMPLATE = "print/championship.html"


def championship_pdf(
    standings: ChampionshipStandings, *, qr_url: str | None, base_url: str | None = None
) -> bytes:
    """The ranking, the players listed apart, and which results count (dropped ones in
    brackets), with the deals its tournaments' totals leave out while they wait; a QR code to
    the public page when the championship is public."""
    championship = standings.championship
    ranked, apart = lines(standings)
    title = _("Classement du championnat")
    return render_pdf(
        TEMPLATE,
        {
            "championship": championship,
            "standings": standings,
            "uncounted": waiting_notes(standings.finished),
            "ranked": ranked,
            "apart": apart,
            "tie_breaks": standings.criteria_labels,
            "qr": qr_svg(qr_url) if qr_url else "",
            "qr_url": qr_url,
            "document_title": title,
            "header_left": " · ".join(p for p in (championship.name, championship.season) if p),
        },
        base_url,
    )
