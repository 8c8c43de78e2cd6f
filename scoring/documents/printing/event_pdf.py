"""An event's ranking on paper: each bracket of a session (or one bracket) with its cut and
carry-over named above its lines, a QR code to the event's public page when it is public."""

from __future__ import annotations

from scoring.documents.printing.render import render_pdf
from scoring.events.rankings import SESSION, EventDocument
from scoring.qr import qr_svg

TEMPLATE = "print/event_ranking.html"


def event_pdf(document: EventDocument, *, qr_url: str = "", base_url: str | None = None) -> bytes:
    parts = [
        {
            "label": part.label,
            "notes": document.notes(part),
            "lines": part.lines(document.kind),
            "carries": part.standings.carries,
        }
        for part in document.parts
    ]
    event = document.event
    context = {
        "header_left": f"{event.name} · {event.date:%d/%m/%Y}",
        "document": document,
        "document_title": document.subject,
        "by_session": document.kind == SESSION,
        "parts": parts,
        "qr": qr_svg(qr_url) if qr_url else "",
        "qr_url": qr_url,
    }
    return render_pdf(TEMPLATE, context, base_url)
