"""Shared PDF plumbing: HTML template → A4 PDF bytes, inline QR codes, the public standings URL."""

from __future__ import annotations

import io
import re
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
    # Imported here: WeasyPrint loads Pango at import time, which costs every other request.
    from weasyprint import HTML

    context = {**page_margins(context.get("tournament")), **context}
    # Whitespace-only text between tags costs parsing and layout time on every page.
    html = strip_spaces_between_tags(render_to_string(template_name, context))
    return HTML(string=html, base_url=base_url or "/").write_pdf()


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


_XML_DECLARATION = re.compile(r"^<\?xml[^>]*\?>\s*")
_SVG_ID = re.compile(r'\sid="[^"]*"')


def qr_svg(url: str) -> str:
    """An inline <svg> QR code for `url` (no file or network access, so rendering stays fast)."""
    import qrcode
    from qrcode.image.svg import SvgPathImage

    qr = qrcode.QRCode(border=2, image_factory=SvgPathImage)
    qr.add_data(url)
    qr.make(fit=True)
    buffer = io.BytesIO()
    qr.make_image().save(buffer)
    svg = _XML_DECLARATION.sub("", buffer.getvalue().decode())
    # The same code printed on several pages would repeat the path's id in one document.
    return _SVG_ID.sub("", svg)


def public_standings_url(request: HttpRequest, tournament: Tournament) -> str:
    """Where the printed QR codes lead: the public standings, absolute."""
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
