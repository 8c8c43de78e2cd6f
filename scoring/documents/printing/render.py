"""Shared PDF plumbing: HTML template → A4 PDF bytes, the public standings URL (QR codes:
`scoring.qr`)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.template.loader import render_to_string
from django.urls import NoReverseMatch, reverse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.html import strip_spaces_between_tags
from django.utils.translation import gettext as _

from tournament.models import Tournament
from tournament.public_address import absolute_url


def render_pdf(template_name: str, context: dict[str, Any], base_url: str | None = None) -> bytes:
    """Render one HTML document and print it to PDF.

    One document per PDF whatever the page count: WeasyPrint lays out a single tree, so the
    cost per page stays flat (no per-page document merge).
    """
    context = {**page_margins(context.get("tournament")), **context}
    # Whitespace-only text between tags costs parsing and layout time on every page.
    html = strip_spaces_between_tags(render_to_string(template_name, context))
    return html_to_pdf(html, base_url or "/")


def html_to_pdf(html: str, base_url: str) -> bytes:
    """WeasyPrint's layout of one HTML document (the tests reuse the PDF of identical HTML)."""
    # Imported here: WeasyPrint loads Pango at import time, which costs every other request.
    from weasyprint import HTML

    return HTML(string=html, base_url=base_url).write_pdf()


def page_margins(tournament: Tournament | None) -> dict[str, Any]:
    """What every page repeats in its margins: the tournament, the print date, "Page"."""
    printed_at = timezone.localtime()
    header = ""
    if tournament is not None:
        header = f"{tournament.name} · {date_format(tournament.date, 'j F Y')}"
    return {
        "printed_at": printed_at,
        "header_left": header,
        "footer_left": _("Imprimé le %(when)s") % {"when": date_format(printed_at, "d/m/Y H:i")},
        "page_word": _("Page"),
    }


def public_standings_url(request: HttpRequest, tournament: Tournament) -> str:
    """Where the printed QR codes lead: the public standings, absolute; "" (no code printed)
    while the tournament is not public, since its public page answers 404."""
    if not tournament.is_public:
        return ""
    try:
        path = reverse("public-tournament", args=[tournament.pk])
    except NoReverseMatch:
        # Public pages not routed yet: fall back to the tournament's own page, then the home.
        try:
            path = tournament.get_absolute_url()
        except NoReverseMatch:
            path = reverse("home")
    return absolute_url(request, path)


def pdf_filename(*parts: object) -> str:
    """A safe ASCII file name such as `feuilles-vierges-open-de-chalon-p2.pdf`."""
    from django.utils.text import slugify

    return "-".join(slugify(str(part)) for part in parts if str(part)) + ".pdf"
