"""The arbiter's rankings and player pages (the spreadsheets: `scoring.documents.views`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.core.paginator import EmptyPage
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_safe
from django_tables2 import RequestConfig

from scoring.live import tables
from scoring.live.provisional import mark_provisional
from scoring.live.standings import Standings, player_deals, standings_for
from scoring.live.waiting import waiting_deals_of
from scoring.sheets.views.sheet_page import int_or_none
from tournament.access.permissions import Permission, TournamentRequest, may, permission_required
from tournament.core.collation import matches
from tournament.players.selectors import registration_or_404

if TYPE_CHECKING:
    from tournament.models import Registration, Tournament

VIEWS = ("individuel", "position", "equipes", "clubs")


def ranking_context(
    request: HttpRequest,
    tournament: Tournament,
    *,
    public: bool,
    per_page: int | None = None,
    standings: Standings | None = None,
) -> dict:
    """The ranking tabs shared by the arbiter's page and the public page, of `standings` (the
    shared ones, their provisional positions filled in) or else freshly computed ones.

    With `per_page`, the table shows one page of that many rows (the `page` parameter): only
    that page's rows are built unless the visitor sorts on another column.
    """
    if standings is None:
        standings = mark_provisional(standings_for(tournament, public=public))
    view = request.GET.get("vue", "individuel")
    if view not in VIEWS:
        view = "individuel"
    position = int_or_none(request.GET.get("position"))
    # The position whose own ranking is shown, if the one asked for has been played.
    shown = position if position is not None and position in standings.positions else None
    if shown is not None:
        view = "position"
    elif view == "position":
        view = "individuel"
    name = "public-player" if public else "ranking-player"

    def url(key):
        return reverse(name, args=[tournament.pk, key])

    query = request.GET.get("q", "").strip()
    if view in ("equipes", "clubs"):
        ranked = standings.teams if view == "equipes" else standings.clubs
        table = tables.GroupRankingTable(tables.group_records(ranked, names=view == "equipes"))
    else:
        ranked = standings.by_position(shown) if shown is not None else standings.players
        if query:
            # "cote" finds CÔTÉ: accents, case and word order don't matter.
            ranked = [r for r in ranked if matches(query, r.row.name)]
        positions = [] if view == "position" else standings.positions
        table = tables.ranking_table(
            tables.RankedRecords(ranked, lambda rows: tables.player_records(rows, url, positions)),
            positions=positions,
            partial=standings.partial_numbers,
            show_team=standings.has_teams,
            show_club=bool(standings.clubs),  # a club ranking has every player with a club
        )
    RequestConfig(request, paginate=False).configure(table)
    if per_page:
        _paginate(table, per_page, int_or_none(request.GET.get("page")))
    return {
        "tournament": tournament,
        "standings": standings,
        "table": table,
        "view": view,
        "position": position,
        "query": query,
    }


def event_documents_allowed(user, tournament: Tournament) -> bool:
    """A bracket's ranking and printing tabs link to its event's documents (cumulative
    rankings of the session and of the bracket) for whoever runs the event's venue."""
    event = tournament.event if tournament.event_id else None
    return event is not None and may(user, Permission.EVENT_DESK, event)


@permission_required(Permission.VIEW)
@require_safe
def ranking(request: TournamentRequest, pk: int) -> HttpResponse:
    tournament = request.tournament
    context = ranking_context(request, tournament, public=False)
    # What waits is listed beside the totals, never counted in them.
    context.update(tab="ranking", waiting=waiting_deals_of(tournament.pk))
    context["event_documents"] = event_documents_allowed(request.user, tournament)
    return render(request, "scoring/ranking.html", context)


@permission_required(Permission.VIEW)
@require_safe
def ranking_player(request: TournamentRequest, pk: int, registration: int) -> HttpResponse:
    tournament = request.tournament
    entry = registration_or_404(tournament, registration)
    return render(request, "scoring/ranking_player.html", player_context(tournament, entry, False))


def player_context(
    tournament: Tournament, entry: Registration, public: bool, standings: Standings | None = None
) -> dict:
    """A player's page, from `standings` (the shared ones) or else freshly computed ones."""
    if standings is None:
        standings = standings_for(tournament, public=public)
    return {
        "tournament": tournament,
        "entry": entry,
        "standings": standings,
        "ranked": standings.rank_of(entry.pk),
        "deals": player_deals(tournament, entry, public=public),
        "tab": "ranking",
        "public": public,
    }


def _paginate(table, per_page: int, page: int | None) -> None:
    """One page of the table; a page number out of range shows the nearest page.

    Only the page comes from the request: a visitor's `per_page` would undo the point.
    """
    try:
        table.paginate(per_page=per_page, page=max(page or 1, 1))
    except EmptyPage:
        table.paginate(per_page=per_page, page=table.paginator.num_pages)
