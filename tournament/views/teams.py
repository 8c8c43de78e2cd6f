"""Teams of a team tournament: the list, forming a team, taking a player out."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from .. import services
from ..access import (
    Permission,
    TournamentRequest,
    permission_required,
)
from ..forms import TeamForm
from ..models import Registration
from .common import desk_context, form_errors, post_outcome


def _team_page(request, tournament, form=None, status=200) -> HttpResponse:
    teams = tournament.teams.prefetch_related("members__player")
    context = desk_context(
        request,
        tournament,
        "teams",
        teams=teams,
        form=form or TeamForm(tournament=tournament),
        loners=tournament.registrations.filter(team__isnull=True).select_related("player"),
    )
    return render(request, "tournament/team_list.html", context, status=status)


@permission_required(Permission.VIEW)
def team_list(request: TournamentRequest, pk: int) -> HttpResponse:
    return _team_page(request, request.tournament)


@permission_required(Permission.MANAGE)
@require_POST
def team_assign(request: TournamentRequest, pk: int) -> HttpResponse:
    tournament = request.tournament
    form = TeamForm(request.POST, tournament=tournament)
    if form.is_valid():
        try:
            team = services.team_assign(
                tournament=tournament,
                name=form.cleaned_data["name"],
                registrations=list(form.cleaned_data["members"]),
                user=request.user,
            )
        except ValidationError as error:
            form_errors(form, error)
        else:
            messages.success(request, _("Équipe %(team)s enregistrée.") % {"team": team.name})
            return redirect("team-list", pk)
    return _team_page(request, tournament, form, status=400)


@permission_required(Permission.MANAGE)
@require_POST
def team_member_remove(request: TournamentRequest, pk: int, registration: int) -> HttpResponse:
    entry = get_object_or_404(Registration, pk=registration, tournament_id=pk)
    return post_outcome(
        request,
        lambda: services.team_remove_member(registration=entry, user=request.user),
        None,
        "team-list",
        pk,
    )
