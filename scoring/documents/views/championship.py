"""A season championship's ranking as a PDF and an XLSX workbook."""

from __future__ import annotations

from django.http import HttpResponse
from django.urls import reverse
from django.utils.text import slugify
from django.views.decorators.http import require_safe

from scoring.documents.exports import championship_xlsx
from scoring.documents.printing.championship_pdf import championship_pdf
from scoring.models import Championship
from scoring.season.access import ChampionshipRequest, championship_required
from scoring.season.championships import championship_standings
from tournament.access.permissions import Permission
from tournament.public_address import absolute_url

XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


def _filename(championship: Championship, extension: str) -> str:
    name = slugify(f"championnat {championship.name} {championship.season}") or "championnat"
    return f"{name}.{extension}"


@championship_required(Permission.CHAMPIONSHIP_MANAGE)
@require_safe
def championship_pdf_view(request: ChampionshipRequest, pk: int) -> HttpResponse:
    championship = request.championship
    qr_url = (
        absolute_url(request, reverse("public-championship", args=[championship.pk]))
        if championship.is_public
        else None
    )
    pdf = championship_pdf(championship_standings(championship), qr_url=qr_url)
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{_filename(championship, "pdf")}"'
    return response


@championship_required(Permission.CHAMPIONSHIP_MANAGE)
@require_safe
def championship_xlsx_view(request: ChampionshipRequest, pk: int) -> HttpResponse:
    championship = request.championship
    content = championship_xlsx.build(championship_standings(championship))
    response = HttpResponse(content, content_type=XLSX)
    response["Content-Disposition"] = f'attachment; filename="{_filename(championship, "xlsx")}"'
    return response
