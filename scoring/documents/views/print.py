"""PDF downloads for the club's printer: score sheets, table plans, itineraries, rankings.

Arbiters and scorers only: the documents carry every player's name and unpublished seatings.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db.models import Count
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from scoring.documents.printing.blank_sheets import blank_sheets_pdf
from scoring.documents.printing.completed_sheets import position_sheets_pdf, sheet_pdf
from scoring.documents.printing.itinerary_cards import itinerary_cards, itinerary_cards_pdf
from scoring.documents.printing.ranking_pdf import KINDS, ranking_pdf, ranking_title
from scoring.documents.printing.render import pdf_filename, public_standings_url
from scoring.documents.printing.table_plan import table_plan_pdf
from scoring.documents.printing.who_sits_where import who_sits_where_pdf
from scoring.live.reprints import cards_printed
from scoring.live.views.reports import event_documents_allowed
from scoring.models import ScoreSheet
from scoring.sheets.table_entry.links import phones_enabled
from tournament.access.permissions import (
    Permission,
    TournamentRequest,
    capabilities,
    permission_required,
)
from tournament.evening.selectors import position_or_404
from tournament.public_address import site_root, unreachable_from_phones

if TYPE_CHECKING:
    from tournament.models import Position, Tournament


@permission_required(Permission.VIEW)
def print_index(request: TournamentRequest, pk: int) -> HttpResponse:
    """The "Impressions" tab: every printable document of the tournament, by position."""
    tournament = request.tournament
    positions = tournament.positions.order_by("number").annotate(
        table_count=Count("tables", distinct=True),
        sheet_count=Count("tables__sheet", distinct=True),
    )
    context = {
        "tournament": tournament,
        "tab": "print",
        "positions": positions,
        "has_teams": tournament.teams.exists(),
        "event_documents": event_documents_allowed(request.user, tournament),
    }
    return render(request, "print/index.html", context)


def pdf_response(pdf: bytes, filename: str) -> HttpResponse:
    response = HttpResponse(pdf, content_type="application/pdf")
    # Inline: the browser's viewer opens it and prints it; saving keeps the file name.
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    return response


def _loopback_question(request: HttpRequest, tournament: Tournament, title: str) -> HttpResponse:
    """The page asking before printing QR codes that lead phones to this computer only."""
    # "Print anyway" repeats the request with the same query (?brouillons=non, ?numeros=...)
    # and the same method: a POST from an arbiter records the printed cards.
    query = request.GET.copy()
    query["adresse"] = "locale"
    context = {
        "tournament": tournament,
        "tab": "print",
        "document_title": title,
        "address": site_root(request),
        "anyway_query": query.urlencode(),
        "anyway_post": request.method == "POST",
    }
    return render(request, "print/loopback_confirm.html", context)


def _loopback_unconfirmed(
    request: HttpRequest, tournament: Tournament, *, phones: bool = True
) -> bool:
    """True when the document's QR codes would lead phones to this computer only and the
    arbiter has not yet chosen to print anyway. Its codes: the tables' entry pages when
    players enter deals on phones (`phones`), the public pages when the tournament is public."""
    has_codes = (phones and phones_enabled(tournament)) or tournament.is_public
    return has_codes and unreachable_from_phones(request) and request.GET.get("adresse") != "locale"


@permission_required(Permission.VIEW)
def blank_sheets(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    position = position_or_404(pk, number)
    tournament = position.tournament
    if _loopback_unconfirmed(request, tournament):
        # Their QR codes would lead every phone to 127.0.0.1: ask before paper is wasted.
        title = _("Feuilles vierges de la position %(number)s") % {"number": position.number}
        return _loopback_question(request, tournament, title)
    pdf = blank_sheets_pdf(position, base_url=site_root(request))
    return pdf_response(
        pdf, pdf_filename("feuilles-vierges", position.tournament.name, f"p{number}")
    )


@permission_required(Permission.VIEW)
def position_sheets(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    position = position_or_404(pk, number)
    pdf = position_sheets_pdf(position, base_url=site_root(request))
    return pdf_response(pdf, pdf_filename("feuilles", position.tournament.name, f"p{number}"))


@permission_required(Permission.VIEW, "sheets__pk")
def one_sheet(request: HttpRequest, pk: int) -> HttpResponse:
    sheet = get_object_or_404(
        ScoreSheet.objects.select_related("tournament", "table__position"), pk=pk
    )
    pdf = sheet_pdf(sheet, base_url=site_root(request))
    return pdf_response(pdf, pdf_filename("feuille", sheet.tournament.name, sheet))


def _positions(tournament: Tournament, number: int | None) -> list[Position]:
    """One position, or every drawn position when no number is given."""
    positions = tournament.positions.order_by("number")
    if number is None:
        return list(positions)
    position = positions.filter(number=number).first()
    if position is None:
        raise Http404
    return [position]


def _suffix(number: int | None) -> str:
    return f"p{number}" if number is not None else ""


@permission_required(Permission.VIEW)
def table_plan(request: TournamentRequest, pk: int, number: int | None = None) -> HttpResponse:
    tournament = request.tournament
    if _loopback_unconfirmed(request, tournament):
        # Its tables' QR codes would lead every phone to 127.0.0.1, as the blank sheets' would.
        return _loopback_question(request, tournament, _("Plan des tables"))
    pdf = table_plan_pdf(
        tournament,
        _positions(tournament, number),
        qr_url=public_standings_url(request, tournament),
        base_url=site_root(request),
    )
    return pdf_response(pdf, pdf_filename("plan-des-tables", tournament.name, _suffix(number)))


@permission_required(Permission.VIEW)
def who_sits_where(request: TournamentRequest, pk: int, number: int | None = None) -> HttpResponse:
    tournament = request.tournament
    pdf = who_sits_where_pdf(
        tournament, _positions(tournament, number), base_url=site_root(request)
    )
    return pdf_response(pdf, pdf_filename("qui-est-ou", tournament.name, _suffix(number)))


def _registration_number(text: str) -> bool:
    return text.isascii() and text.isdigit() and len(text) <= 6


@require_http_methods(["GET", "POST"])
@permission_required(Permission.VIEW)
def itineraries(request: TournamentRequest, pk: int) -> HttpResponse:
    """The cards as a PDF. A GET only reads (a link preview or a prefetch changes nothing); the
    print buttons POST, and an arbiter's POST keeps what each card says for the reprint list."""
    tournament = request.tournament
    if _loopback_unconfirmed(request, tournament):
        # Each card's QR code would lead its player's phone to 127.0.0.1: ask first.
        return _loopback_question(request, tournament, _("Cartes d'itinéraire des joueurs"))
    # ?brouillons=non: draft positions left blank instead of marked "brouillon — peut changer".
    drafts = request.GET.get("brouillons") != "non"
    # ?numeros=3,7: those players' cards only (the cockpit's cards to reprint).
    # Only plain ASCII digits that a registration number can be ("²" or 25 digits would crash
    # int() or the query): anything else names no card.
    wanted = request.GET.get("numeros")
    numbers = (
        {int(n) for n in (p.strip() for p in wanted.split(",")) if _registration_number(n)}
        if wanted
        else None
    )
    cards = itinerary_cards(tournament, drafts=drafts, numbers=numbers)
    pdf = itinerary_cards_pdf(tournament, cards=cards, base_url=site_root(request))
    # Printed by an arbiter (the print button's POST): what each card says is kept, for the
    # cockpit to tell which to reprint (a scorer's print and any GET change nothing).
    if request.method == "POST" and capabilities(request.user, tournament)["manage"]:
        cards_printed(tournament=tournament, cards=cards, user=request.user)
    return pdf_response(pdf, pdf_filename("itineraires", tournament.name))


# The file names speak French like the documents (the query keeps its stable English keys).
FILE_KINDS = {"individual": "individuel", "team": "equipes", "position": "position"}


@permission_required(Permission.VIEW)
def ranking(request: TournamentRequest, pk: int) -> HttpResponse:
    """?kind=individual|team|position, and &position=n for a position's results."""
    tournament = request.tournament
    kind = request.GET.get("kind", "individual")
    if kind not in KINDS:
        raise Http404
    number = None
    if kind == "position":
        try:
            number = int(request.GET["position"])
        except (KeyError, ValueError):
            raise Http404 from None
        if not tournament.positions.filter(number=number).exists():
            raise Http404
    if _loopback_unconfirmed(request, tournament, phones=False):
        # Its code would lead every phone to 127.0.0.1 instead of the public standings.
        return _loopback_question(request, tournament, ranking_title(kind, number))
    pdf = ranking_pdf(
        tournament,
        kind,
        position=number,
        qr_url=public_standings_url(request, tournament),
        base_url=site_root(request),
    )
    return pdf_response(
        pdf, pdf_filename("classement", FILE_KINDS[kind], tournament.name, _suffix(number))
    )
