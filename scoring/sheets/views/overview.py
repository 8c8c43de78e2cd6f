"""Score entry's overview of a position: every table and the state of its sheet, the
position still being entered, and the table codes players type on their phones.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.contrib import messages
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from scoring.models import ScoreSheet, TableLink
from scoring.sheets import services, table_entry
from scoring.sheets.entry_progress import position_being_entered, sheets_to_enter
from scoring.sheets.position_overview import position_overview
from scoring.sheets.views.sheet_page import TABLE
from scoring.sheets.waiting import late_deals_waiting
from tournament.access.permissions import (
    Permission,
    TournamentRequest,
    capabilities,
    permission_required,
)
from tournament.evening.selectors import position_in_play, position_or_404, positions_in_order

if TYPE_CHECKING:
    from tournament.models import Position

# The position the arbiter last opened by hand on the desk, per tournament (session key).
ENTRY_POSITION_KEY = "entry-position-%s"


@permission_required(Permission.VIEW)
def entry_overview(request: TournamentRequest, pk: int, number: int | None = None) -> HttpResponse:
    """Every table of a position and its sheet's state: what is still missing at a glance."""
    tournament = request.tournament
    positions = list(positions_in_order(tournament))
    live = request.htmx and request.htmx.target == "overview-live"
    published = [p for p in positions if p.status == p.Status.PUBLISHED]
    to_enter = sheets_to_enter(tournament, published) if not live else {}
    moved_on_key = ENTRY_POSITION_KEY % tournament.pk
    position: Position | None
    if number is not None:
        # From the positions just read (one query fewer on a page that polls every few seconds).
        position = next((p for p in positions if p.number == number), None)
        if position is None:
            raise Http404
        position.tournament = tournament
        if not request.htmx:
            # Opening a position by hand is moving on to it: the desk stays there from now on.
            request.session[moved_on_key] = number
    else:
        # The position still being entered, not the last published one: "1" + Enter must not
        # open table 1 of a position published while this one's sheets are coming in.
        position = position_being_entered(positions, to_enter, request.session.get(moved_on_key))
    rows = position_overview(position) if position else []
    # Table codes matter only when players enter deals on their phones.
    links = (
        {link.table_id: link for link in TableLink.objects.filter(table__position=position)}
        if tournament.entry_mode != tournament.EntryMode.PAPER
        else {}
    )
    for row in rows:
        row.link = links.get(row.table.pk)
    context = {
        "tournament": tournament,
        "tab": "entry",
        "positions": positions,
        "position": position,
        # The cockpit's position in play, marked in the picker (the desk may work on another).
        "in_play": position_in_play(positions),
        "rows": rows,
        "links": links,
        "can_manage": capabilities(request.user, tournament)["manage"],
        "missing": sum(1 for r in rows if r.state == "missing"),
        # Tables calling the arbiter from a phone: at the top until someone goes (one query).
        "calls": table_entry.open_calls(tournament),
    }
    if live:
        # The live overview refreshes its table every few seconds.
        return render(request, "scoring/_overview_live.html", context)
    context["free_sheets"] = ScoreSheet.objects.filter(tournament=tournament, table__isnull=True)
    context["late_waiting"] = late_deals_waiting(tournament)
    if position is not None:
        # Earlier positions with sheets still to enter, and the next published one to move on to.
        context["earlier_to_enter"] = [
            to_enter[p.pk] for p in published if p.number < position.number and p.pk in to_enter
        ]
        context["this_to_enter"] = to_enter.get(position.pk)
        context["next_published"] = next((p for p in published if p.number > position.number), None)
    return render(request, "scoring/entry_overview.html", context)


@permission_required(Permission.MANAGE)
@require_POST
def position_validate(request: TournamentRequest, pk: int, number: int) -> HttpResponse:
    """Validate the position's complete and verified sheets in one action; say what is left."""
    position = position_or_404(pk, number)
    result = services.position_validate_ready(position=position, user=request.user)
    level = messages.success if not result.left else messages.warning
    level(request, result.summary)
    return redirect("entry-overview", pk, number)


@permission_required(Permission.MANAGE, TABLE)
@require_POST
def table_link_revoke(request: TournamentRequest, pk: int) -> HttpResponse:
    """A leaked or lost code: the table gets a new link and code; the old ones stop working."""
    link = get_object_or_404(TableLink.objects.select_related("table__position"), table_id=pk)
    new = table_entry.link_revoke(link=link, user=request.user)
    messages.success(
        request,
        gettext("Table %(number)s : nouveau code %(code)s.")
        % {"number": new.table.number, "code": new.code},
    )
    return redirect("entry-overview", new.table.position.tournament_id, new.table.position.number)
