"""An event's rankings to download or print: one session's brackets, or one bracket, in the
session's order (`seance`) or the cumulative one (`cumul`), as XLSX, CSV or PDF. Whoever runs
the venue (Permission.EVENT_DESK): the arbiter's figures (every sheet; its confirmed deals)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.http import Http404, HttpResponse
from django.urls import reverse
from django.utils.text import slugify
from django.views.decorators.http import require_safe

from scoring.documents.exports.event_ranking import build_xlsx, stream_csv
from scoring.documents.printing.event_pdf import event_pdf
from scoring.documents.views.exports import XLSX
from scoring.documents.views.print import pdf_response
from scoring.events.brackets import event_brackets
from scoring.events.rankings import KINDS, event_document
from tournament.access.permissions import EventRequest, Permission, event_required
from tournament.public_address import absolute_url, site_root

if TYPE_CHECKING:
    from scoring.events.rankings import EventDocument

FORMATS = ("xlsx", "csv", "pdf")


def _respond(
    request: EventRequest, document: EventDocument, fmt: str, *name: object
) -> HttpResponse:
    filename = "-".join(slugify(str(part)) for part in name if str(part))
    if fmt == "pdf":
        event = request.event
        qr_url = (
            absolute_url(request, reverse("public-event", args=[event.pk]))
            if event.is_public
            else ""
        )
        pdf = event_pdf(document, qr_url=qr_url, base_url=site_root(request))
        return pdf_response(pdf, f"{filename}.pdf")
    if fmt == "csv":
        response = HttpResponse("".join(stream_csv(document)), content_type="text/csv")
    else:
        response = HttpResponse(build_xlsx(document), content_type=XLSX)
    response["Content-Disposition"] = f'attachment; filename="{filename}.{fmt}"'
    return response


def _checked(kind: str, fmt: str) -> None:
    if kind not in KINDS or fmt not in FORMATS:
        raise Http404


@event_required(Permission.EVENT_DESK)
@require_safe
def event_session_document(
    request: EventRequest, pk: int, session: int, kind: str, fmt: str
) -> HttpResponse:
    """Every bracket of one session, side by side in one file."""
    _checked(kind, fmt)
    brackets = event_brackets(request.event).get(session)
    if not brackets:
        raise Http404
    document = event_document(request.event, session, brackets, kind)
    return _respond(request, document, fmt, request.event.name, f"seance-{session}", kind)


@event_required(Permission.EVENT_DESK)
@require_safe
def event_bracket_document(
    request: EventRequest, pk: int, bracket: int, kind: str, fmt: str
) -> HttpResponse:
    """One bracket of the event."""
    _checked(kind, fmt)
    found = request.event.brackets.filter(pk=bracket).first()
    if found is None:
        raise Http404
    session = found.session or 1
    brackets = event_brackets(request.event).get(session) or [found]
    document = event_document(request.event, session, brackets, kind, only=found)
    name = (request.event.name, f"seance-{session}", found.bracket, kind)
    return _respond(request, document, fmt, *name)
