"""Positions: the plan, who sits where, generating, publishing, swapping two seats."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournament.access.permissions import Permission, TournamentRequest, permission_required
from tournament.evening import positions as position_services
from tournament.evening import swaps as swap_services
from tournament.evening.fairness import PlanChange, plan_drift, replan_change
from tournament.evening.forms import SEATING_CHOICES, GenerateForm, SwapForm
from tournament.evening.plan_quality import plan_quality
from tournament.evening.positions import EarlierPositionsUnfinished, generation_seconds
from tournament.evening.selectors import (
    last_played_position,
    next_seating,
    position_or_404,
    position_plan,
    positions_overview,
    seated_registrations,
    tournament_plan,
    who_sits_where,
)
from tournament.evening.swaps import seat_swap_preview
from tournament.evening.tables import WhoSitsWhereTable
from tournament.pages import desk_context, desk_page, error_messages, form_errors, post_outcome

# The session key of a re-plan's before → after, shown once by the next positions page.
PLAN_CHANGE = "plan-change-%s"


def _replanned(request: TournamentRequest, tournament, run):
    """`run` (a re-plan) keeping what it did to every fairness measure for the next page."""
    before = tournament_plan(tournament)

    def replan():
        result = run()
        change = replan_change(tournament, before)
        if change is not None:
            request.session[PLAN_CHANGE % tournament.pk] = change.as_data()
        return result

    return replan


def _plan_change(request: TournamentRequest, tournament) -> PlanChange | None:
    data = request.session.pop(PLAN_CHANGE % tournament.pk, None)
    return PlanChange.from_data(data) if data else None


@permission_required(Permission.VIEW)
def position_list(request: TournamentRequest, pk: int) -> HttpResponse:
    tournament = request.tournament
    positions = positions_overview(tournament)
    played = last_played_position(tournament)
    return desk_page(
        request,
        tournament,
        "positions",
        "tournament/position_list.html",
        positions=positions,
        played=played,
        # How the next position to play is seated: the generator, or the standings (a final).
        seating_choices=SEATING_CHOICES,
        next_seating=next_seating(positions, played),
        # Over 2 s, a progress bar follows this budget while the generating POST runs.
        generation_seconds=generation_seconds(tournament, played),
        quality=plan_quality(tournament),  # so the arbiter sees the plan is fair before publishing
        drift=plan_drift(tournament),  # worse than the generator left it
        plan_change=_plan_change(request, tournament),
    )


@permission_required(Permission.VIEW)
def position_detail(request: TournamentRequest, pk: int, number: int) -> HttpResponse:
    """The table plan: each table with its players in seat order."""
    position = position_or_404(pk, number)
    return desk_page(
        request,
        position.tournament,
        "positions",
        "tournament/position_detail.html",
        position=position,
        played=last_played_position(position.tournament),
        tables=position_plan(position),
        swap_form=SwapForm(registrations=seated_registrations(position)),
        plan_change=_plan_change(request, position.tournament),
    )


@permission_required(Permission.VIEW)
def position_who_sits_where(request: TournamentRequest, pk: int, number: int) -> HttpResponse:
    position = position_or_404(pk, number)
    table = WhoSitsWhereTable(who_sits_where(position))
    return desk_page(
        request,
        position.tournament,
        "positions",
        "tournament/position_who_sits_where.html",
        position=position,
        table=table,
    )


@permission_required(Permission.MANAGE)
@require_POST
def position_generate(request: TournamentRequest, pk: int) -> HttpResponse:
    """Plan every position not yet published; also the re-plan after withdrawals and arrivals."""
    tournament = request.tournament
    form = GenerateForm(request.POST)
    valid = form.is_valid()
    seed = form.cleaned_data["seed"] if valid else None
    method = (form.cleaned_data["seating"] or None) if valid else None
    return post_outcome(
        request,
        _replanned(
            request,
            tournament,
            lambda: position_services.position_generate(
                tournament=tournament, seed=seed, user=request.user, seating_method=method
            ),
        ),
        lambda positions: (
            _("Positions %(first)s à %(last)s planifiées en brouillon (graine %(seed)s).")
            % {
                "first": positions[0].number,
                "last": positions[-1].number,
                "seed": positions[0].seed,
            }
        ),
        "position-list",
        pk,
    )


@permission_required(Permission.MANAGE)
@require_POST
def position_regenerate(request: TournamentRequest, pk: int, number: int) -> HttpResponse:
    position = position_or_404(pk, number)
    return post_outcome(
        request,
        _replanned(
            request,
            position.tournament,
            lambda: position_services.position_regenerate(position=position, user=request.user),
        ),
        lambda _done: _("Position %(number)s régénérée.") % {"number": number},
        "position-detail",
        pk,
        number,
    )


@permission_required(Permission.MANAGE)
@require_POST
def position_publish(request: TournamentRequest, pk: int, number: int) -> HttpResponse:
    position = position_or_404(pk, number)
    try:
        position_services.position_publish(
            position=position,
            user=request.user,
            unfinished_confirmed=request.POST.get("confirm") == "1",
        )
    except EarlierPositionsUnfinished as unfinished:
        # Asked, not refused: the same POST with confirm=1 publishes.
        return desk_page(
            request,
            position.tournament,
            "positions",
            "tournament/position_publish_confirm.html",
            position=position,
            reasons=unfinished.messages,
            to_enter=unfinished.to_enter,
        )
    except ValidationError as error:
        error_messages(request, error)
    else:
        messages.success(request, _("Position %(number)s publiée.") % {"number": number})
    return redirect("position-detail", pk, number)


@permission_required(Permission.MANAGE)
def seat_swap(request: TournamentRequest, pk: int, number: int) -> HttpResponse:
    """GET shows what the swap changes (E before and after); POST with confirm applies it."""
    position = position_or_404(pk, number)
    form = SwapForm(
        request.POST or request.GET or None, registrations=seated_registrations(position)
    )
    preview = None
    if form.is_bound and form.is_valid():
        first, second = form.cleaned_data["first"], form.cleaned_data["second"]
        try:
            if request.method == "POST":
                swap_services.seat_swap(
                    position=position, first=first, second=second, user=request.user
                )
                messages.success(
                    request,
                    _("%(a)s et %(b)s ont échangé leurs places.")
                    % {"a": first.player.full_name, "b": second.player.full_name},
                )
                return redirect("position-detail", pk, number)
            preview = seat_swap_preview(position=position, first=first, second=second)
        except ValidationError as error:
            form_errors(form, error)
    context = desk_context(
        request, position.tournament, "positions", position=position, form=form, preview=preview
    )
    template = "tournament/_swap_preview.html" if request.htmx else "tournament/seat_swap.html"
    return render(request, template, context)
