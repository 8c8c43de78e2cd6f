"""Circuits seen from an invited club: the circuits its arbiters take part in, and the page
where each puts their own tournaments in or takes them out (the organisers' pages are the
championship's)."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from scoring.season.access import ChampionshipRequest, championship_required, visible_circuits
from scoring.season.circuits import (
    circuit_entry_or_404,
    circuit_page,
    circuit_tournament_add,
    circuit_tournament_remove,
)
from tournament.access.permissions import Permission, may, permission_required, refuse


@permission_required(Permission.CHAMPIONSHIPS, lookup=None)
@require_safe
def circuit_list(request: HttpRequest) -> HttpResponse:
    circuits = visible_circuits(request.user).select_related("host_club")
    circuits = circuits.order_by("-season", "name")
    return render(request, "championship/circuit_list.html", {"circuits": circuits})


@championship_required(Permission.CIRCUIT_CONTRIBUTE)
@require_safe
def circuit_detail(request: ChampionshipRequest, pk: int) -> HttpResponse:
    page = circuit_page(request.championship, request.user)
    return render(request, "championship/circuit_detail.html", {"page": page})


def _entry(request: ChampionshipRequest, pk: int, tournament: int, *, on: bool) -> HttpResponse:
    """Put one of the user's tournaments in the circuit or take it out: another club's
    tournament, or one the user does not run, is refused (403)."""
    entry = circuit_entry_or_404(request.championship, tournament)
    found = entry.tournament
    if not may(request.user, Permission.CIRCUIT_ENTER, entry):
        return refuse(request)
    service = circuit_tournament_add if on else circuit_tournament_remove
    if service(user=request.user, championship=request.championship, tournament=found):
        if on:
            messages.success(request, _("« %(name)s » ajouté au circuit.") % {"name": found.name})
        else:
            messages.success(request, _("« %(name)s » retiré du circuit.") % {"name": found.name})
    return redirect("circuit-detail", pk=pk)


@championship_required(Permission.CIRCUIT_CONTRIBUTE)
@require_POST
def circuit_tournament_add_view(request: ChampionshipRequest, pk: int, tournament: int):
    return _entry(request, pk, tournament, on=True)


@championship_required(Permission.CIRCUIT_CONTRIBUTE)
@require_POST
def circuit_tournament_remove_view(request: ChampionshipRequest, pk: int, tournament: int):
    return _entry(request, pk, tournament, on=False)
