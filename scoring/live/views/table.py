"""A table's phone page and its running sheet, which the phone refreshes (the sheets' phone page,
scoring.sheets.views.table.page, draws both): a live view like every other (@versioned), by the
table's own revision, computed for each phone (its player's rows are its own), never stored."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import get_language
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from scoring.live.versioned import current_etag, etag_header, versioned
from scoring.models import TableLink
from scoring.sheets import table_entry
from scoring.sheets.views.table.common import reports_queue, table_link
from scoring.sheets.views.table.page import (
    remember_device,
    sheet_context,
    sheet_state,
    sheet_viewer,
)
from tournament.public_address import absolute_url

# The table's sheet in the live store's terms.
SHEET = "table-sheet"


def _sheet_variant(request: HttpRequest, link: TableLink) -> str:
    """The table (its sheet is never another table's), the phone's player (their own rows are
    "mine"), the call shown (it lapses with time, not with a write) and the language."""
    player, call = sheet_viewer(request, link)
    shown = f"{call.pk}{'t' if call.taken_at else 'o'}" if call is not None else "-"
    return f"{link.pk}:{player.pk if player is not None else 0}:{shown}:{get_language()}"


def _sheet_scope(request: HttpRequest, link: TableLink) -> tuple[int, int]:
    """The table's revision: its tournament's writes beyond one sheet, plus its own sheet's
    (table_entry.table_revision), so a deal at another table leaves this phone a 304. Read
    before the sheet, so the sheet shown is never older."""
    tournament_id = link.table.position.tournament_id
    return tournament_id, table_entry.table_revision(tournament_id, link.table_id)


@never_cache
@require_safe
@table_link(page=True)
def table_entry_page(request: HttpRequest, link: TableLink) -> HttpResponse:
    # The sheet drawn in the page is the partial's: its first refresh is already a 304 (the
    # revision read first, so the sheet drawn is never older).
    etag = current_etag(SHEET, _sheet_variant(request, link), _sheet_scope(request, link))
    context = sheet_context(link, sheet_state(request, link))
    context["sheet_etag"] = etag_header(etag)
    # The short way back to this page, printed under the bookmark hint: the table's code there.
    context["code_page"] = absolute_url(request, reverse("table-code"))
    return remember_device(request, render(request, "scoring/table_entry.html", context))


@never_cache
@require_safe
@table_link(page=True)
@reports_queue
@versioned(SHEET, _sheet_variant, scope=_sheet_scope, store=False)
def table_sheet_partial(request: HttpRequest, link: TableLink) -> HttpResponse:
    """The running sheet, refreshed by the phone after each save and every few seconds, with
    the ETag it was sent with (static/js/table_entry.js): unchanged, a 304 that reads no deal."""
    return render(
        request, "scoring/_table_sheet.html", sheet_context(link, sheet_state(request, link))
    )
