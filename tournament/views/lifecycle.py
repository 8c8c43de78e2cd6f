"""Finishing, closing and reopening (logged, with a reason) and naming a tournament's staff."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from .. import lifecycle, staff
from ..access import (
    Permission,
    TournamentRequest,
    capabilities,
    permission_required,
)
from ..models import TournamentRole
from ..services.selectors import position_or_404
from .common import error_messages, post_outcome


@permission_required(Permission.MANAGE)
@require_POST
def tournament_finish(request: TournamentRequest, pk: int) -> HttpResponse:
    return post_outcome(
        request,
        lambda: lifecycle.tournament_finish(tournament=request.tournament, user=request.user),
        lambda _done: _("Tournoi terminé : les résultats sont verrouillés."),
        "tournament-detail",
        pk,
    )


@permission_required(Permission.MANAGE)
@require_POST
def tournament_reopen(request: TournamentRequest, pk: int) -> HttpResponse:
    return post_outcome(
        request,
        lambda: lifecycle.tournament_reopen(
            tournament=request.tournament, reason=request.POST.get("reason", ""), user=request.user
        ),
        lambda _done: _("Tournoi rouvert."),
        "tournament-detail",
        pk,
    )


@permission_required(Permission.MANAGE)
@require_POST
def position_close(request: TournamentRequest, pk: int, number: int) -> HttpResponse:
    return post_outcome(
        request,
        lambda: lifecycle.position_close(position=position_or_404(pk, number), user=request.user),
        lambda _done: _("Position %(number)s close.") % {"number": number},
        "position-detail",
        pk,
        number,
    )


@permission_required(Permission.MANAGE)
@require_POST
def position_reopen(request: TournamentRequest, pk: int, number: int) -> HttpResponse:
    return post_outcome(
        request,
        lambda: lifecycle.position_reopen(
            position=position_or_404(pk, number),
            reason=request.POST.get("reason", ""),
            user=request.user,
        ),
        lambda _done: _("Position %(number)s rouverte.") % {"number": number},
        "position-detail",
        pk,
        number,
    )


@permission_required(Permission.ADMINISTER)
def tournament_staff(request: TournamentRequest, pk: int) -> HttpResponse:
    """The owner names co-arbiters and scorers (existing accounts), or removes them."""
    tournament = request.tournament
    typed = {"username": "", "role": TournamentRole.Role.SCORER}
    status = 200
    if request.method == "POST":
        typed = {
            "username": request.POST.get("username", "")[:150],
            "role": request.POST.get("role", ""),
        }
        try:
            staff.staff_add(
                tournament=tournament,
                user=request.user,
                password=request.POST.get("password", "")[:128],
                **typed,
            )
        except ValidationError as error:
            error_messages(request, error)
            status = 400
        else:
            messages.success(request, _("%(name)s ajouté.") % {"name": typed["username"]})
            return redirect("tournament-staff", pk)
    return render(
        request,
        "tournament/staff.html",
        {
            "tournament": tournament,
            "tab": "staff",
            "can": capabilities(request.user, tournament),
            "can_edit": True,
            "entries": tournament.roles.select_related("user"),
            "roles": TournamentRole.Role.choices,
            "typed": typed,
        },
        status=status,
    )


@permission_required(Permission.ADMINISTER)
@require_POST
def tournament_staff_remove(request: TournamentRequest, pk: int, role: int) -> HttpResponse:
    entry = get_object_or_404(
        TournamentRole.objects.select_related("user", "tournament"), pk=role, tournament_id=pk
    )
    staff.staff_remove(entry=entry, user=request.user)
    messages.success(request, _("%(name)s retiré.") % {"name": entry.user.get_username()})
    return redirect("tournament-staff", pk)
