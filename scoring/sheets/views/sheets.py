"""A score sheet on the arbiter's desk: open or create it, type its deals from the paper (or
correct one), check them against the paper's bilans, validate it, let it take one deal more, read
its history.
"""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.core.validators import ProhibitNullCharactersValidator
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from scoring.core.deal import DealError
from scoring.models import ScoreSheet
from scoring.sheets import history, services
from scoring.sheets.forms import CrossCheckForm, FreeSheetForm
from scoring.sheets.services import StaleSheetError
from scoring.sheets.views.sheet_page import (
    DEAL,
    SHEET,
    TABLE,
    barred_on,
    deal_entry,
    done,
    entry_form,
    form_class,
    get_deal,
    get_sheet,
    int_or_none,
    kept,
    load,
    refused,
    render_sheet,
    seat_fields,
    sheet_write,
    stale,
    valid_deal,
)
from tournament.access.lifecycle import Locked
from tournament.access.permissions import Permission, TournamentRequest, permission_required
from tournament.evening.selectors import table_or_404
from tournament.players.selectors import roster


@permission_required(Permission.SCORE, SHEET)
def sheet_detail(request: TournamentRequest, pk: int) -> HttpResponse:
    """The entry page; a POST appends the typed deal (htmx swaps the sheet and a fresh row)."""
    return deal_entry(request, load(request, get_sheet(pk)))


@permission_required(Permission.SCORE, DEAL)
def deal_edit(request: TournamentRequest, pk: int) -> HttpResponse:
    """Correct a deal: the form takes its values; saving recomputes everything after it."""
    deal = get_deal(pk)
    return deal_entry(request, load(request, deal.sheet), editing=deal)


@permission_required(Permission.SCORE, SHEET)
@require_POST
def deal_preview(request: TournamentRequest, pk: int) -> HttpResponse:
    """The row the typed deal would add, computed by the engine, before anything is saved."""
    sheet = get_sheet(pk)
    view = load(request, sheet)
    number = int_or_none(request.POST.get("number")) or view.next_number
    form = form_class(view)(request.POST, seats=view.seats, barred=barred_on(view, number))
    scores = None
    data = valid_deal(form)
    if data is not None:
        try:
            scores = services.compute_scores(data, sheet.tournament.rule_set)
        except DealError as err:
            form.add_deal_error(err)
    cells = [scores[c.seat] for c in view.columns] if scores else None
    return render(request, "scoring/_preview.html", {"form": form, "cells": cells, "view": view})


@permission_required(Permission.SCORE, SHEET)
@require_POST
def sheet_crosscheck(request: TournamentRequest, pk: int) -> HttpResponse:
    """Store the bilans written on the paper sheet; differences are flagged on the sheet."""
    sheet = get_sheet(pk)
    view = load(request, sheet)
    form = CrossCheckForm(request.POST, **seat_fields(view))
    if not form.is_valid():
        return render_sheet(request, view, entry_form(view), crosscheck=form)
    expected = form.cleaned_data["version"]
    try:
        services.sheet_set_paper_bilans(
            sheet=sheet, bilans=form.bilans(), user=request.user, expected_version=expected
        )
    except Locked as err:
        return refused(request, sheet, err)
    except StaleSheetError:
        typed = {"paper_bilans": form.bilans()}
        view, conflict = stale(request, sheet, typed=typed, expected=expected)
        crosscheck = kept(request, sheet, CrossCheckForm, **seat_fields(view))
        return render_sheet(
            request, view, entry_form(view), conflict=conflict, crosscheck=crosscheck
        )
    return done(request, sheet)


@permission_required(Permission.MANAGE, SHEET)
@require_POST
def sheet_validate(request: TournamentRequest, pk: int) -> HttpResponse:
    """The arbiter accepts a sheet (then it is locked), or un-validates it with a reason."""
    sheet = get_sheet(pk)

    def validate(version: int) -> None:
        reason = request.POST.get("reason", "")
        if "\x00" in reason:  # PostgreSQL refuses NUL in the history's JSON: as the forms do
            raise ValidationError(ProhibitNullCharactersValidator.message)
        services.sheet_validate(
            sheet=sheet,
            validated=request.POST.get("validated") == "1",
            reason=reason,
            user=request.user,
            expected_version=version,
        )

    return sheet_write(request, sheet, validate)


@permission_required(Permission.MANAGE, SHEET)
@require_POST
def sheet_extra_deal(request: TournamentRequest, pk: int) -> HttpResponse:
    """The arbiter lets a full sheet take one deal more (a replayed deal, a decision)."""
    sheet = get_sheet(pk)
    return sheet_write(
        request,
        sheet,
        lambda version: services.sheet_allow_extra_deal(
            sheet=sheet, user=request.user, expected_version=version
        ),
    )


@permission_required(Permission.VIEW, SHEET)
def sheet_history(request: TournamentRequest, pk: int) -> HttpResponse:
    """Who changed what on the sheet, in words (seats, names, French contracts)."""
    sheet = get_sheet(pk)
    return render(
        request,
        "scoring/sheet_history.html",
        {
            "tournament": sheet.tournament,
            "tab": "entry",
            "sheet": sheet,
            "entries": history.sheet_history(sheet),
        },
    )


@permission_required(Permission.SCORE, TABLE)
def sheet_for_table(request: TournamentRequest, pk: int) -> HttpResponse:
    """Open a table's sheet; a POST creates it with the seated players on first use (GET never
    writes: it opens an existing sheet or offers the button that creates it)."""
    table = table_or_404(pk)
    sheet = ScoreSheet.objects.filter(table=table).first()
    if sheet is not None:
        return redirect("sheet-detail", sheet.pk)
    if not table.seats.exists():
        messages.error(request, gettext("Cette table n'a pas encore de joueurs placés."))
        return redirect("entry-overview", table.position.tournament_id, table.position.number)
    if request.method == "POST":
        try:
            sheet = services.sheet_for_table(table=table)
        except Locked as err:
            messages.error(request, " ".join(err.messages))
            return redirect("entry-overview", table.position.tournament_id, table.position.number)
        return redirect("sheet-detail", sheet.pk)
    return render(
        request,
        "scoring/sheet_open.html",
        {"tournament": table.position.tournament, "tab": "entry", "table": table},
    )


@permission_required(Permission.SCORE)
def sheet_free_create(request: TournamentRequest, pk: int) -> HttpResponse:
    """A sheet without a seating plan: pick 3 to 5 registered players (a club evening)."""
    tournament = request.tournament
    registrations = roster(tournament)
    form = FreeSheetForm(request.POST or None, registrations=registrations)
    if request.method == "POST" and form.is_valid():
        try:
            sheet = services.sheet_create_free(
                tournament=tournament,
                registrations=form.players(),
                title=form.cleaned_data["title"],
                user=request.user,
            )
        except Locked as err:
            form.add_error(None, err)
        else:
            return redirect("sheet-detail", sheet.pk)
    return render(
        request,
        "scoring/sheet_free_form.html",
        {"tournament": tournament, "tab": "entry", "form": form},
    )
