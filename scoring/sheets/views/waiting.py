"""The page of what waits before a close, a finish, a cut or a seating by rank: table by table,
each waiting deal with the sheet's own actions (confirm, correct, adjust, delete), each phone's
unsent deals and each late deal with the arbiter's decision; then the step it waited for."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from scoring.core.deal import DealError
from scoring.late import LateDeal, PhoneQueue
from scoring.models import ScoreSheet
from scoring.sheets import waiting
from scoring.sheets.services import StaleSheetError, compute_scores
from scoring.sheets.views.sheet_page import next_page
from tournament.access.lifecycle import WAITING_ACTIONS
from tournament.access.permissions import Permission, TournamentRequest, permission_required
from tournament.evening.selectors import position_or_404
from tournament.pages import error_messages
from tournament.seats import sheet_order_key

LATE = "positions__tables__late_deals__pk"
QUEUE = "positions__tables__phone_queues__pk"


def _named_scores(scores: Any, names: list[str], order: list[int]) -> list[tuple[str, Any]]:
    """(name, points) in the phone's columns' `order` (seat indexes, paper sheet order), from
    scores by seat index."""
    scores = scores if isinstance(scores, list) else []
    return [(names[i], scores[i]) for i in order if i < len(scores)]


def _late_lines(item: LateDeal, names: list[str], order: list[int]) -> dict[str, Any]:
    """A late deal as the page lists it: who sent it, what it gives each player."""
    data = item.data if isinstance(item.data, dict) else {}
    try:
        scores = compute_scores(data, item.table.position.tournament.rule_set)
    except (DealError, KeyError, TypeError, ValueError):
        scores = []
    return {
        "item": item,
        "contract": data.get("contract") or (_("Tous passent") if data.get("passed") else ""),
        "taker": names[data["taker"]]
        if isinstance(data.get("taker"), int) and 0 <= data["taker"] < len(names)
        else "",
        "scores": _named_scores(scores, names, order),
    }


@permission_required(Permission.MANAGE)
@require_safe
def deals_waiting(request: TournamentRequest, pk: int) -> HttpResponse:
    """What waits at each table (of the position to close, or of the whole tournament), with
    what the arbiter may decide; once nothing waits, the step it waited for."""
    tournament = request.tournament
    then = request.GET.get("pour", "")
    then = then if then in WAITING_ACTIONS else ""
    position = None
    if then == "close":
        number = request.GET.get("position", "")
        position = position_or_404(pk, int(number)) if number.isdigit() else None
        then = then if position is not None else ""
    tables = waiting.waiting_at(tournament, [position] if position is not None else None)
    for table in tables:
        seats = sorted(
            table.table.seats.select_related("registration__player"), key=lambda s: s.index
        )
        names = [seat.registration.player.full_name for seat in seats]
        # Each score beside its player, in the columns' order of the table's phones (N, S, E, O).
        order = sorted(range(len(seats)), key=lambda i: sheet_order_key(seats[i].direction))
        table.deal_lines = [(d, _named_scores(d.scores, names, order)) for d in table.deals]  # type: ignore[attr-defined]
        table.late_lines = [_late_lines(item, names, order) for item in table.late]  # type: ignore[attr-defined]
    return render(
        request,
        "scoring/deals_waiting.html",
        {
            "tournament": tournament,
            "tab": "entry",
            "tables": tables,
            "then": then,
            "doing": WAITING_ACTIONS.get(then, ""),
            "position": position,
            "here": request.get_full_path(),
        },
    )


def _decide(request: TournamentRequest, run, done: str) -> HttpResponse:
    """A decision posted from the page: run it, say so, back to the page."""
    try:
        run()
    except (ValidationError, DealError, StaleSheetError) as error:
        if isinstance(error, ValidationError):  # Locked too
            error_messages(request, error)
        elif isinstance(error, DealError):
            messages.error(request, _(error.template) % error.params)
        else:
            messages.error(request, str(error))
    else:
        messages.success(request, done)
    return HttpResponseRedirect(next_page(request) or _page(request))


def _page(request: TournamentRequest) -> str:
    return reverse("deals-waiting", args=[request.tournament.pk])


@permission_required(Permission.MANAGE, LATE)
@require_POST
def late_deal_decide(request: TournamentRequest, pk: int, decision: str) -> HttpResponse:
    """Accept a late deal (it counts, confirmed by the arbiter) or reject it (kept, not
    counted)."""
    if decision not in ("accept", "reject"):
        raise Http404
    late = get_object_or_404(LateDeal.objects.select_related("table__position"), pk=pk)
    if decision == "accept":
        done = _("Donne tardive acceptée : elle compte.")
        validated = ScoreSheet.objects.filter(
            table=late.table, status=ScoreSheet.Status.VALIDATED
        ).exists()
        if validated:  # the service reopens the sheet to take it, then validates it again
            done += " " + _(
                "La feuille de la table %(table)s était validée : dévalidée pour la recevoir, "
                "puis validée de nouveau (noté dans l'historique)."
            ) % {"table": late.table.number}
        return _decide(
            request, lambda: waiting.late_deal_accept(late=late, user=request.user), done
        )
    return _decide(
        request,
        lambda: waiting.late_deal_reject(late=late, user=request.user),
        _("Donne tardive refusée : gardée dans l'historique, elle ne compte pas."),
    )


@permission_required(Permission.MANAGE, QUEUE)
@require_POST
def phone_queue_acknowledge(request: TournamentRequest, pk: int) -> HttpResponse:
    """Go on although a phone holds unsent deals: they will arrive as late deals."""
    queue = get_object_or_404(PhoneQueue, pk=pk)
    return _decide(
        request,
        lambda: waiting.phone_queue_acknowledge(queue=queue, user=request.user),
        _("Noté : ce que ce téléphone enverra arrivera comme donne tardive."),
    )
