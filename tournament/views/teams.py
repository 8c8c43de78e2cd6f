"""Teams of a team tournament: the list, forming a team, taking a player out."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from .. import services
from ..access import (
    Permission,
    TournamentRequest,
    permission_required,
)
from ..forms import TeamForm
from .common import desk_page, form_errors, registration_post


def _team_page(request, tournament, form=None, status=200) -> HttpResponse:
    teams = tournament.teams.prefetch_related("members__player")
    return desk_page(
        request,
        tournament,
        "teams",
        "tournament/team_list.html",
        status=status,
        teams=teams,
        form=form or TeamForm(tournament=tournament),
        loners=tournament.registrations.filter(team__isnull=True).select_related("player"),
    )


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
    return registration_post(
        request, pk, registration, services.team_remove_member, None, "team-list"
    )
