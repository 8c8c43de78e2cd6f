"""The arbiter's report as a PDF: the tournament, its staff and field, the positions played,
every incident with its rule and decision, the adjusted scores, the calls for the arbiter, the
final ranking with licences, and room for the signatures."""

from __future__ import annotations

from django.utils.translation import gettext as _

from scoring.documents.arbiter_report import ArbiterReport
from scoring.documents.printing.render import render_pdf

TEMPLATE = "print/arbiter_report.html"


def arbiter_report_pdf(report: ArbiterReport, *, base_url: str | None = None) -> bytes:
    return render_pdf(
        TEMPLATE,
        {
            "tournament": report.tournament,
            "report": report,
            "document_title": _("Rapport de l'arbitre"),
        },
        base_url,
    )
