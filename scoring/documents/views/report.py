"""The arbiter's report of a tournament: the PDF to sign and send, and its figures as CSV.

For the tournament's staff, as every printed document (the players' names, licences and the
incidents are on it): Permission.VIEW, asked by permission_required like the print views.
"""

from __future__ import annotations

from django.http import HttpResponse
from django.views.decorators.http import require_safe

from scoring.documents.arbiter_report import arbiter_report
from scoring.documents.exports import arbiter_report_csv
from scoring.documents.printing.arbiter_report_pdf import arbiter_report_pdf
from scoring.documents.printing.render import pdf_filename
from scoring.documents.views.print import pdf_response
from tournament.access.permissions import Permission, TournamentRequest, permission_required
from tournament.public_address import site_root


@permission_required(Permission.VIEW)
@require_safe
def report_pdf(request: TournamentRequest, pk: int) -> HttpResponse:
    tournament = request.tournament
    pdf = arbiter_report_pdf(arbiter_report(tournament), base_url=site_root(request))
    return pdf_response(pdf, pdf_filename("rapport-arbitre", tournament.name))


@permission_required(Permission.VIEW)
@require_safe
def report_csv(request: TournamentRequest, pk: int) -> HttpResponse:
    tournament = request.tournament
    content = arbiter_report_csv.build(arbiter_report(tournament))
    response = HttpResponse(content, content_type="text/csv; charset=utf-8")
    filename = pdf_filename("rapport-arbitre", tournament.name).removesuffix(".pdf") + ".csv"
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response
