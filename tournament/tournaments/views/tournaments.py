"""The desk's tournaments: the list of those one works on, creating one, its settings."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from tournament.access.permissions import (
    Permission,
    TournamentRequest,
    may,
    permission_required,
    visible_tournaments,
)
from tournament.clubs.selectors import clubs_of, home_club
from tournament.pages import desk_context, form_errors, settings_form_post
from tournament.tournaments import services as tournament_services
from tournament.tournaments.forms import TournamentForm
from tournament.tournaments.services import tournament_update
from tournament.tournaments.tables import TournamentTable


@login_required
def tournament_list(request: HttpRequest) -> HttpResponse:
    """The tournaments the user works on, and only those."""
    table = TournamentTable(visible_tournaments(request.user))
    return render(
        request,
        "tournament/tournament_list.html",
        {"table": table, "can_edit": may(request.user, Permission.CREATE)},
    )


@permission_required(Permission.CREATE, None)
def tournament_create(request: HttpRequest) -> HttpResponse:
    form = TournamentForm(
        request.POST or None,
        clubs=clubs_of(request.user),
        initial_club=home_club(request.user),
    )
    if request.method == "POST" and form.is_valid():
        try:
            tournament = tournament_services.tournament_create(
                data=form.cleaned_data, owner=request.user, club=form.cleaned_data["host_club"]
            )
        except ValidationError as error:
            form_errors(form, error)
        else:
            messages.success(request, _("Tournoi créé."))
            return redirect(tournament)
    return render(request, "tournament/tournament_form.html", {"form": form})


@permission_required(Permission.MANAGE)
def tournament_edit(request: TournamentRequest, pk: int) -> HttpResponse:
    tournament = request.tournament
    form, saved = settings_form_post(
        request,
        TournamentForm,
        lambda data: tournament_update(tournament=tournament, data=data, user=request.user),
        _("Tournoi enregistré."),
        "tournament-detail",
    )
    if saved is not None:
        return saved
    return render(
        request,
        "tournament/tournament_edit.html",
        desk_context(request, tournament, "dashboard", form=form),
    )
