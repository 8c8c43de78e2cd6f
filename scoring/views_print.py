"""PDF downloads for the club's printer: score sheets, table plans, itineraries, rankings.

Arbiters and scorers only: the documents carry every player's name and unpublished seatings.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404

from scoring.models import ScoreSheet
from scoring.printing.blank_sheets import blank_sheets_pdf
from scoring.printing.completed_sheets import position_sheets_pdf, sheet_pdf
from scoring.printing.render import pdf_filename
from tournament.models import Position
from tournament.roles import scorer_required


def pdf_response(pdf: bytes, filename: str) -> HttpResponse:
    response = HttpResponse(pdf, content_type="application/pdf")
    # Inline: the browser's viewer opens it and prints it; saving keeps the file name.
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    return response


def _position(pk: int, number: int) -> Position:
    return get_object_or_404(
        Position.objects.select_related("tournament"), tournament_id=pk, number=number
    )


@scorer_required
def blank_sheets(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    position = _position(pk, number)
    pdf = blank_sheets_pdf(position, base_url=request.build_absolute_uri("/"))
    return pdf_response(
        pdf, pdf_filename("feuilles-vierges", position.tournament.name, f"p{number}")
    )


@scorer_required
def position_sheets(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    position = _position(pk, number)
    pdf = position_sheets_pdf(position, base_url=request.build_absolute_uri("/"))
    return pdf_response(pdf, pdf_filename("feuilles", position.tournament.name, f"p{number}"))


@scorer_required
def one_sheet(request: HttpRequest, pk: int) -> HttpResponse:
    sheet = get_object_or_404(
        ScoreSheet.objects.select_related("tournament", "table__position"), pk=pk
    )
    pdf = sheet_pdf(sheet, base_url=request.build_absolute_uri("/"))
    return pdf_response(pdf, pdf_filename("feuille", sheet.tournament.name, sheet))
