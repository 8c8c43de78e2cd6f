"""A tournament's spreadsheets: the ranking (XLSX and CSV), the deals (XLSX and CSV)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.http import HttpResponse, StreamingHttpResponse
from django.utils.text import slugify
from django.views.decorators.http import require_safe

from scoring.documents.exports import deals_csv, deals_xlsx, ranking_csv, ranking_xlsx
from scoring.live.provisional import mark_provisional
from scoring.live.standings import standings_for
from scoring.live.waiting import waiting_deals_of
from tournament.access.permissions import Permission, TournamentRequest, permission_required

if TYPE_CHECKING:
    from tournament.models import Tournament

XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


@permission_required(Permission.EXPORT)
@require_safe
def export_ranking_xlsx(request: TournamentRequest, pk: int) -> HttpResponse:
    tournament = request.tournament
    standings = mark_provisional(standings_for(tournament))
    content = ranking_xlsx.build(standings, waiting_deals_of(tournament.pk))
    return _download(content, XLSX, f"{_slug(tournament)}-classement.xlsx")


@permission_required(Permission.EXPORT)
@require_safe
def export_ranking_csv(request: TournamentRequest, pk: int) -> HttpResponse:
    tournament = request.tournament
    standings = mark_provisional(standings_for(tournament))
    content = "".join(ranking_csv.stream(standings, waiting_deals_of(tournament.pk)))
    return _download(
        content.encode(), "text/csv; charset=utf-8", f"{_slug(tournament)}-classement.csv"
    )


@permission_required(Permission.EXPORT)
@require_safe
def export_deals_xlsx(request: TournamentRequest, pk: int) -> HttpResponse:
    tournament = request.tournament
    content = deals_xlsx.build(tournament)
    return _download(content, XLSX, f"{_slug(tournament)}-donnes.xlsx")


@permission_required(Permission.EXPORT)
@require_safe
def export_deals_csv(request: TournamentRequest, pk: int) -> StreamingHttpResponse:
    tournament = request.tournament
    response = StreamingHttpResponse(deals_csv.stream(tournament), content_type="text/csv")
    response["Content-Disposition"] = f'attachment; filename="{_slug(tournament)}-donnes.csv"'
    return response


def _download(content: bytes, content_type: str, filename: str) -> HttpResponse:
    response = HttpResponse(content, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def _slug(tournament: Tournament) -> str:
    return slugify(tournament.name) or f"tournoi-{tournament.pk}"
