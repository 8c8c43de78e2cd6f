"""Teams of a team tournament: the list, forming a team, taking a player out."""

from __future__ import annotations

from django.http import HttpResponse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournament.access.permissions import Permission, TournamentRequest, permission_required
from tournament.pages import desk_page, form_post
from tournament.players import teams as team_services
from tournament.players.forms import TeamForm
from tournament.players.teams import team_remove_member
from tournament.players.views import registration_view


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
    saved = form_post(
        request,
        form,
        lambda data: team_services.team_assign(
            tournament=tournament,
            name=data["name"],
            registrations=list(data["members"]),
            user=request.user,
        ),
        lambda team: _("Équipe %(team)s enregistrée.") % {"team": team.name},
        "team-list",
        pk,
    )
    if saved is not None:
        return saved
    return _team_page(request, tournament, form, status=400)


team_member_remove = registration_view(team_remove_member, None, "team-list")
