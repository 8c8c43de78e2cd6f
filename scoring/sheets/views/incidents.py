"""Incidents (a fault at a table or in the tournament, with its penalty) and the organiser's
default penalty per kind of incident.
"""

from __future__ import annotations

import json
from typing import Any

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.db.models import QuerySet
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext

from scoring.core.deal import DealError
from scoring.core.penalties import penalty_defaults
from scoring.models import Incident, ScoreSheet
from scoring.sheets import services
from scoring.sheets.forms import IncidentForm, PenaltyDefaultsForm
from scoring.sheets.views.sheet_page import int_or_none
from tournament.access.lifecycle import Locked
from tournament.access.permissions import (
    Permission,
    TournamentRequest,
    capabilities,
    permission_required,
)
from tournament.evening.selectors import played_tables, positions_in_order
from tournament.pages import form_post
from tournament.players.selectors import roster


@permission_required(Permission.MANAGE)
def incident_create(request: TournamentRequest, pk: int) -> HttpResponse:
    """Record a fault on a sheet (optionally a deal) or on the tournament."""
    tournament = request.tournament
    sheet, registrations = _incident_sheet(request)
    initial = {"deal_number": int_or_none(request.GET.get("deal"))}
    # Without a sheet (the Incidents tab), the form asks the position and table.
    tables = played_tables(tournament) if sheet is None else None
    form = IncidentForm(
        request.POST or None, registrations=registrations, tables=tables, initial=initial
    )
    if request.method == "POST" and form.is_valid():
        if form.cleaned_data.get("table") is not None:
            sheet = services.sheet_for_table(table=form.cleaned_data["table"])
        incident = _incident_record(request, form, sheet)
        if incident is not None:
            messages.success(request, gettext("Incident enregistré."))
            _warn_barred_taker(request, incident)
            if sheet is not None:
                return redirect("sheet-detail", sheet.pk)
            return redirect("incident-list", tournament.pk)
    return render(
        request,
        "scoring/incident_form.html",
        {
            "tournament": tournament,
            "tab": "incidents",
            "form": form,
            "sheet": sheet,
            "defaults": json.dumps(penalty_defaults(tournament.penalty_defaults)),
        },
    )


def _incident_sheet(request: TournamentRequest) -> tuple[ScoreSheet | None, QuerySet[Any]]:
    """The sheet the incident is recorded from (?sheet=, or the form's hidden field) and the
    players it may concern: that sheet's, or the whole roster without one."""
    tournament = request.tournament
    sheet_id = int_or_none(request.GET.get("sheet") or request.POST.get("sheet"))
    registrations = roster(tournament)
    if sheet_id is None:
        return None, registrations
    sheet = get_object_or_404(
        ScoreSheet.objects.select_related("table__position"), pk=sheet_id, tournament=tournament
    )
    return sheet, registrations.filter(pk__in=sheet.players.values("registration_id"))


def _incident_record(
    request: TournamentRequest, form: IncidentForm, sheet: ScoreSheet | None
) -> Incident | None:
    """The incident the valid form records, or None with the refusal added to the form."""
    data = form.cleaned_data
    try:
        return services.incident_record(
            tournament=request.tournament,
            kind=data["kind"],
            registration=data["registration"],
            sheet=sheet,
            deal_number=data.get("deal_number"),
            decision=data.get("decision", ""),
            note=data.get("note", ""),
            penalty_points=data.get("penalty_points"),
            user=request.user,
        )
    except (Locked, DealError) as err:
        # A locked sheet, or a petit sec cancelling a deal the sheet can't change.
        form.add_error(None, " ".join(getattr(err, "messages", [str(err)])))
    except ValidationError as err:  # no amount given and no default one
        for field, errors in err.message_dict.items():
            form.add_error(field if field in form.fields else None, errors)
    return None


def _warn_barred_taker(request: TournamentRequest, incident: Incident) -> None:
    """The deal was typed before the incident: the rules bar its taker from bidding."""
    barred = services.incident_barred_taker(incident)
    if barred is not None and incident.registration is not None:
        messages.warning(
            request,
            gettext(
                "Attention : la donne %(number)s a pour preneur %(name)s, à qui cet "
                "incident interdisait d'enchérir. Corrigez la donne ou donnez un score "
                "arbitral."
            )
            % {"name": incident.registration.player, "number": barred.number},
        )


@permission_required(Permission.VIEW)
def incident_list(request: TournamentRequest, pk: int) -> HttpResponse:
    """The tournament's incident log, filterable by type, position, table and player."""
    tournament = request.tournament
    incidents = Incident.objects.filter(tournament=tournament).select_related(
        "registration__player", "sheet__table__position", "created_by"
    )
    filters = {
        "kind": request.GET.get("kind", ""),
        "position": int_or_none(request.GET.get("position")),
        "table": int_or_none(request.GET.get("table")),
        "player": int_or_none(request.GET.get("player")),
    }
    if filters["kind"]:
        incidents = incidents.filter(kind=filters["kind"])
    if filters["position"] is not None:
        incidents = incidents.filter(sheet__table__position__number=filters["position"])
    if filters["table"] is not None:
        incidents = incidents.filter(sheet__table__number=filters["table"])
    if filters["player"] is not None:
        incidents = incidents.filter(registration_id=filters["player"])
    return render(
        request,
        "scoring/incident_list.html",
        {
            "tournament": tournament,
            "tab": "incidents",
            "incidents": incidents,
            "filters": filters,
            "kinds": Incident.Kind.choices,
            "positions": positions_in_order(tournament),
            "registrations": roster(tournament),
            "is_arbiter": capabilities(request.user, tournament)["manage"],
        },
    )


@permission_required(Permission.MANAGE)
def penalty_settings(request: TournamentRequest, pk: int) -> HttpResponse:
    """The organiser's default penalty per incident type (arbiters only)."""
    tournament = request.tournament
    # Blank amounts show the rules' default where they state one.
    defaults = penalty_defaults(tournament.penalty_defaults)
    initial = {f"kind_{k}": v for k, v in defaults.items()}
    initial["share_penalties"] = tournament.share_penalties
    form = PenaltyDefaultsForm(request.POST or None, initial=initial)
    saved = form_post(
        request,
        form,
        lambda data: services.penalty_defaults_set(
            tournament=tournament,
            defaults=form.defaults(),
            share=data["share_penalties"],
            user=request.user,
        ),
        lambda _done: gettext("Pénalités par défaut enregistrées."),
        "incident-list",
        tournament.pk,
    )
    if saved is not None:
        return saved
    return render(
        request,
        "scoring/penalty_settings.html",
        {"tournament": tournament, "tab": "incidents", "form": form},
    )
