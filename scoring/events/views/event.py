"""The desk's event pages: the list, creating an event (its session 1), the event page (sessions
and brackets), a bracket's cut with its preview, and replacing a withdrawal after a cut."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from scoring.events import brackets, cuts, replace
from scoring.events.forms import CutForm, ReplaceForm
from tournament.access.lifecycle import DealsWaiting
from tournament.access.permissions import (
    EventRequest,
    Permission,
    TournamentRequest,
    event_required,
    may,
    permission_required,
    refuse,
)
from tournament.access.scopes import visible_events
from tournament.pages import error_messages, form_errors, waiting_url
from tournament.tournaments.forms import TournamentForm


@permission_required(Permission.CREATE, None)
@require_safe
def event_list(request: HttpRequest) -> HttpResponse:
    events = visible_events(request.user)
    return render(request, "scoring/events/event_list.html", {"events": events})


@permission_required(Permission.CREATE, None)
@require_http_methods(["GET", "POST"])
def event_create(request: HttpRequest) -> HttpResponse:
    form = TournamentForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            event = brackets.event_create(data=form.cleaned_data, owner=request.user)
        except ValidationError as error:
            form_errors(form, error)
        else:
            messages.success(request, _("Épreuve créée : inscrivez le champ en séance 1."))
            return redirect(event)
    return render(request, "scoring/events/event_form.html", {"form": form})


@event_required()
@require_safe
def event_detail(request: EventRequest, pk: int) -> HttpResponse:
    event = request.event
    sessions = brackets.event_brackets(event)
    event_cuts = cuts.event_cuts(event)
    cut_sources = {cut.source_id for cut in event_cuts}
    replacements = [(cut, ReplaceForm(qualified=cut.qualified)) for cut in event_cuts]
    context = {
        "event": event,
        "sessions": sorted(sessions.items()),
        "cut_sources": cut_sources,
        "cuts": replacements,
    }
    return render(request, "scoring/events/event_detail.html", context)


def _event_of(request: TournamentRequest):
    if request.tournament.event_id is None:
        raise Http404
    return request.tournament.event


def _back(request: TournamentRequest, event) -> str:
    """Where a bracket's event pages lead back: the event's page for its owner; a co-arbiter,
    who may cut or replace in this bracket but not open the event, goes to the bracket's."""
    if may(request.user, Permission.EVENT_MANAGE, event):
        return event.get_absolute_url()
    return request.tournament.get_absolute_url()


def _unseated_warnings(request: TournamentRequest, cut) -> None:
    """The brackets the cut could not seat, each named: the main bracket and the consolante may
    be refused with the same message (a duo cut to two teams each)."""
    unseated = cut.report.get("unseated", {})
    for bracket in (cut.qualified, cut.consolante):
        message = unseated.get(str(bracket.pk)) if bracket is not None else None
        if message:
            label = bracket.get_bracket_display()
            messages.warning(
                request, _("%(bracket)s : %(message)s") % {"bracket": label, "message": message}
            )


@permission_required(Permission.MANAGE)
@require_http_methods(["GET", "POST"])
def cut_form(request: TournamentRequest, pk: int) -> HttpResponse:
    """The cut of a bracket: "Aperçu" shows who qualifies and the tie at the line, nothing
    written; "Appliquer" applies it (whoever may manage the bracket)."""
    source = request.tournament
    event = _event_of(request)
    form = CutForm(request.POST or None)
    preview = None
    # The cut reads the session's final standings: neither previewed nor applied before then.
    unfinished = not cuts.session_over(source)
    if request.method == "POST" and unfinished:
        refused = _("La séance n'est pas terminée : l'aperçu et la coupe attendent sa fin.")
        form.add_error(None, refused)
    elif request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            if "apply" in request.POST:
                cut = cuts.cut_apply(
                    source=source,
                    rule=data["rule"],
                    value=data["value"],
                    by_team=data["by_team"],
                    consolante=data["consolante"],
                    carry_over_percent=data["carry_over_percent"],
                    seating_method=data["seating"],
                    user=request.user,
                )
                messages.success(request, _("Coupe appliquée."))
                _unseated_warnings(request, cut)
                return redirect(_back(request, event))
            preview = cuts.cut_preview(
                source=source, rule=data["rule"], value=data["value"], by_team=data["by_team"]
            ).report
        except DealsWaiting as error:
            # The same page as a close's: the arbiter decides each waiting deal there.
            error_messages(request, error)
            return redirect(waiting_url(error))
        except ValidationError as error:
            form_errors(form, error)
    context = {
        "event": event,
        "back": _back(request, event),
        "tournament": source,
        "form": form,
        "preview": preview,
        "unfinished": unfinished,
    }
    return render(request, "scoring/events/cut_form.html", context)


@permission_required(Permission.MANAGE)
@require_POST
def cut_replace(request: TournamentRequest, pk: int) -> HttpResponse:
    """A withdrawal in a qualified bracket, replaced by the next in line of its cut."""
    qualified = request.tournament
    event = _event_of(request)
    cut = cuts.cut_into(qualified)
    if cut is None:
        raise Http404
    # The next in line leaves the consolante (withdrawn there, its drafts seated again): a
    # write to that bracket too, asked of it.
    if cut.consolante is not None and not may(request.user, Permission.MANAGE, cut.consolante):
        return refuse(request)
    form = ReplaceForm(request.POST, qualified=qualified)
    if not form.is_valid():
        messages.error(request, _("Choisissez le joueur forfait."))
        return redirect(_back(request, event))
    try:
        added = replace.cut_withdrawal_replace(
            cut=cut, registration=form.cleaned_data["registration"], user=request.user
        )
    except ValidationError as error:
        error_messages(request, error)
    else:
        names = ", ".join(r.player.full_name for r in added)
        messages.success(request, _("Repêché : %(names)s.") % {"names": names})
    return redirect(_back(request, event))
