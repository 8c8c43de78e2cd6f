"""The arbiter's desk: score sheets typed from the paper, corrections, incidents and penalties."""

from __future__ import annotations

import json

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.core.validators import ProhibitNullCharactersValidator
from django.http import HttpRequest, HttpResponse, QueryDict
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from scoring import history, services, table_entry
from scoring.engine import DealError
from scoring.entry_progress import position_being_entered, sheets_to_enter
from scoring.forms import (
    AdjustForm,
    CrossCheckForm,
    DealForm,
    FigureDealForm,
    FreeSheetForm,
    IncidentForm,
    PenaltyDefaultsForm,
    deal_initial,
)
from scoring.models import Deal, Incident, ScoreSheet, TableLink
from scoring.penalties import RULE_PENALTY_DEFAULTS
from scoring.position_overview import position_overview
from scoring.services import StaleSheetError
from scoring.sheet_screen import SheetView, barred_seats, load_sheet_view
from tournament.access import Permission, capabilities, permission_required
from tournament.lifecycle import Locked
from tournament.models import ChangeLog, Position, Registration, Table

SHEET = "sheets__pk"
# The position the arbiter last opened by hand on the desk, per tournament (session key).
DESK_POSITION_KEY = "desk-position-%s"
DEAL = "sheets__deals__pk"
TABLE = "positions__tables__pk"


def _sheet(pk: int) -> ScoreSheet:
    return get_object_or_404(
        ScoreSheet.objects.select_related("tournament", "table__position"), pk=pk
    )


def _deal(pk: int) -> Deal:
    return get_object_or_404(
        Deal.objects.select_related("sheet__tournament", "sheet__table__position"), pk=pk
    )


# How a row is typed: in detail (taker, bouts, points, bonuses) or from the FFT sheet's figures.
MODES = {"detailed": False, "figures": True}


def _load(request: HttpRequest, sheet: ScoreSheet) -> SheetView:
    """The sheet as the desk shows it, typed in the mode the page asks for (or the tournament's)."""
    view = load_sheet_view(sheet)
    asked = request.POST.get("mode") or request.GET.get("mode")
    if asked in MODES:
        view.figures = MODES[asked]
        view.mode_asked = True
    return view


def _form_class(view: SheetView, deal: Deal | None = None) -> type[DealForm]:
    # A correction keeps the way its deal was typed, unless the arbiter switched the page.
    figures = deal.is_figure_only if deal is not None and not view.mode_asked else view.figures
    return FigureDealForm if figures else DealForm


def _entry_form(view: SheetView, data: QueryDict | None = None, deal: Deal | None = None):
    """A bound form for what was typed, or a fresh one for the next deal (or the edited one)."""
    number = deal.number if deal else view.next_number
    barred = _barred(view, number)
    form_class = _form_class(view, deal)
    if data is not None:
        return form_class(data, seats=view.seats, barred=barred)
    initial = deal_initial(deal, view.seats) if deal else {"dealer": view.next_dealer}
    initial["version"] = view.sheet.version
    return form_class(initial=initial, seats=view.seats, barred=barred)


def _barred(view: SheetView, number: int) -> dict[int, str]:
    """Seats that may not bid on deal `number` (fausse donne, revoke in defence)."""
    if number == view.next_number:
        return view.barred_next
    seat_of = {c.registration_id: c.seat for c in view.columns}
    names = {c.seat: c.name for c in view.columns}
    return barred_seats(view.incidents, number, seat_of, names)


def _conflict_message(sheet: ScoreSheet) -> str:
    last = (
        ChangeLog.objects.filter(sheet=sheet)
        .exclude(action=ChangeLog.Action.CONFLICT)
        .select_related("user")
        .first()
    )
    who = last.user.get_username() if last and last.user else gettext("quelqu'un d'autre")
    return gettext(
        "Conflit : %(who)s a modifié cette feuille pendant votre saisie. Rien n'a été écrasé : "
        "la feuille ci-dessous est la version enregistrée, et votre saisie est conservée dans "
        "le formulaire (et dans l'historique). Vérifiez puis validez à nouveau."
    ) % {"who": who}


def _as_typed(data: QueryDict) -> dict[str, str]:
    """What was posted, kept in the history; NUL (refused in PostgreSQL's JSON) shown as �."""
    return {
        key.replace("\x00", "\ufffd"): value.replace("\x00", "\ufffd")
        for key, value in data.items()
        if key != "csrfmiddlewaretoken"
    }


def _with_version(data: QueryDict, version: int) -> QueryDict:
    data = data.copy()
    data["version"] = str(version)
    return data


def _render_sheet(
    request: HttpRequest,
    view: SheetView,
    form: DealForm,
    *,
    editing: Deal | None = None,
    conflict: str = "",
    crosscheck: CrossCheckForm | None = None,
) -> HttpResponse:
    tournament = view.sheet.tournament
    labels = [view.seats.labels[c.seat] for c in view.columns]
    if crosscheck is None:
        initial = {"version": view.sheet.version}
        for column, value in zip(view.columns, view.paper or [], strict=False):
            initial[f"bilan_{column.seat}"] = value
        crosscheck = CrossCheckForm(
            initial=initial, labels=view.seats.labels, order=view.seats.in_order()
        )
    context = {
        "tournament": tournament,
        "tab": "desk",
        "view": view,
        "lock": services.sheet_lock_message(view.sheet),
        "full": services.sheet_is_full(view),
        "sheet": view.sheet,
        "form": form,
        "editing": editing,
        "conflict": conflict,
        "crosscheck": crosscheck,
        "column_labels": labels,
        "perms_arbiter": capabilities(request.user, view.sheet.tournament)["manage"],
    }
    if request.htmx:
        return render(request, "scoring/_sheet_body.html", context)
    context["neighbours"] = _neighbour_tables(view.sheet)
    return render(request, "scoring/sheet_detail.html", context)


def _neighbour_tables(sheet: ScoreSheet) -> dict[str, Table | None]:
    """The tables before and after this sheet's, for the keys that move between sheets."""
    if sheet.table_id is None:
        return {}
    number = sheet.table.number
    tables = list(Table.objects.filter(position_id=sheet.table.position_id).order_by("number"))
    before = [t for t in tables if t.number < number]
    after = [t for t in tables if t.number > number]
    return {"previous": before[-1] if before else None, "next": after[0] if after else None}


def _done(request: HttpRequest, sheet: ScoreSheet) -> HttpResponse:
    """After a successful write: htmx gets the refreshed sheet, a plain form post a redirect."""
    if request.htmx:
        sheet.refresh_from_db(fields=["version", "paper_bilans", "status"])
        view = _load(request, sheet)
        return _render_sheet(request, view, _entry_form(view))
    return redirect("sheet-detail", sheet.pk)


def _int_or_none(value: str | None) -> int | None:
    try:
        return int(value) if value not in (None, "") else None
    except (TypeError, ValueError):
        return None


# --- the sheet ------------------------------------------------------------------------------


@permission_required(Permission.SCORE, SHEET)
def sheet_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """The entry page; a POST appends the typed deal (htmx swaps the sheet and a fresh row)."""
    sheet = _sheet(pk)
    view = _load(request, sheet)
    if request.method != "POST":
        return _render_sheet(request, view, _entry_form(view))
    form = _entry_form(view, request.POST)
    if form.is_valid():
        expected = form.cleaned_data["version"]
        try:
            services.deal_record(
                sheet=sheet, data=form.deal_data, user=request.user, expected_version=expected
            )
        except DealError as err:
            form.add_deal_error(err)
        except StaleSheetError:
            return _conflict(request, sheet, form, expected)
        except Locked as err:
            return _refused(request, sheet, err, form=form)
        else:
            return _done(request, sheet)
    return _render_sheet(request, view, form)


def _refused(request: HttpRequest, sheet: ScoreSheet, err: Locked, **kwargs) -> HttpResponse:
    """A write on a locked sheet: nothing written, what was typed kept, the reason shown."""
    sheet.refresh_from_db(fields=["version", "paper_bilans", "status"])
    view = _load(request, sheet)
    form = kwargs.pop("form", None)
    if form is not None:
        form = _form_class(view)(_with_version(request.POST, sheet.version), seats=view.seats)
        form.is_valid()
    else:
        form = _entry_form(view)
    return _render_sheet(request, view, form, conflict=" ".join(err.messages), **kwargs)


def _conflict(
    request: HttpRequest, sheet: ScoreSheet, form, expected: int | None, editing=None
) -> HttpResponse:
    data = getattr(form, "deal_data", None) or _as_typed(request.POST)
    data = {k: v for k, v in data.items() if k != "csrfmiddlewaretoken"}
    services.conflict_record(sheet=sheet, data=data, expected_version=expected, user=request.user)
    sheet.refresh_from_db(fields=["version", "paper_bilans"])
    view = _load(request, sheet)
    kept = _form_class(view, editing)(_with_version(request.POST, sheet.version), seats=view.seats)
    kept.is_valid()  # show what was typed without flagging anything
    return _render_sheet(request, view, kept, editing=editing, conflict=_conflict_message(sheet))


@permission_required(Permission.SCORE, SHEET)
@require_POST
def deal_preview(request: HttpRequest, pk: int) -> HttpResponse:
    """The row the typed deal would add, computed by the engine, before anything is saved."""
    sheet = _sheet(pk)
    view = _load(request, sheet)
    number = _int_or_none(request.POST.get("number")) or view.next_number
    form = _form_class(view)(request.POST, seats=view.seats, barred=_barred(view, number))
    scores = None
    if form.is_valid():
        try:
            scores = services.compute_scores(form.deal_data, sheet.tournament.rule_set)
        except DealError as err:
            form.add_deal_error(err)
    cells = [scores[c.seat] for c in view.columns] if scores else None
    return render(request, "scoring/_preview.html", {"form": form, "cells": cells, "view": view})


@permission_required(Permission.SCORE, DEAL)
def deal_edit(request: HttpRequest, pk: int) -> HttpResponse:
    """Correct a deal: the form takes its values; saving recomputes everything after it."""
    deal = _deal(pk)
    sheet = deal.sheet
    view = _load(request, sheet)
    if request.method != "POST":
        return _render_sheet(request, view, _entry_form(view, deal=deal), editing=deal)
    form = _entry_form(view, request.POST, deal=deal)
    if form.is_valid():
        expected = form.cleaned_data["version"]
        try:
            services.deal_update(
                deal=deal, data=form.deal_data, user=request.user, expected_version=expected
            )
        except DealError as err:
            form.add_deal_error(err)
        except StaleSheetError:
            return _conflict(request, sheet, form, expected, editing=deal)
        except Locked as err:
            return _refused(request, sheet, err, form=form, editing=deal)
        else:
            return _done(request, sheet)
    return _render_sheet(request, view, form, editing=deal)


@permission_required(Permission.SCORE, DEAL)
@require_POST
def deal_delete(request: HttpRequest, pk: int) -> HttpResponse:
    deal = _deal(pk)
    sheet = deal.sheet
    expected = _int_or_none(request.POST.get("version"))
    try:
        if expected is None:
            # A write without the version it was based on can't be checked for conflicts.
            raise StaleSheetError(sheet, None)
        services.deal_delete(deal=deal, user=request.user, expected_version=expected)
    except Locked as err:
        return _refused(request, sheet, err)
    except StaleSheetError:
        services.conflict_record(
            sheet=sheet,
            data={"delete_deal": deal.number},
            expected_version=expected,
            user=request.user,
        )
        sheet.refresh_from_db(fields=["version", "paper_bilans"])
        view = _load(request, sheet)
        return _render_sheet(request, view, _entry_form(view), conflict=_conflict_message(sheet))
    return _done(request, sheet)


@permission_required(Permission.MANAGE, DEAL)
def deal_adjust(request: HttpRequest, pk: int) -> HttpResponse:
    """An arbiter's score for a deal (with a reason), or the taker's choice after a revoke."""
    deal = _deal(pk)
    sheet = deal.sheet
    view = _load(request, sheet)
    form = AdjustForm(
        request.POST or None,
        labels=view.seats.labels,
        order=view.seats.in_order(),
        initial={"version": sheet.version, **{f"score_{s}": v for s, v in enumerate(deal.scores)}},
    )
    conflict = ""
    if request.method == "POST":
        action = request.POST.get("action", "adjust")
        expected = _int_or_none(request.POST.get("version"))
        try:
            if expected is None:
                raise StaleSheetError(sheet, None)
            if action == "clear":
                services.deal_adjust(
                    deal=deal, scores=None, reason="", user=request.user, expected_version=expected
                )
                return redirect("sheet-detail", sheet.pk)
            if action in ("not_recorded", "recorded"):
                try:
                    services.deal_set_not_recorded(
                        deal=deal,
                        not_recorded=action == "not_recorded",
                        user=request.user,
                        expected_version=expected,
                    )
                except ValueError:
                    messages.error(
                        request,
                        gettext(
                            "Le score ne peut être laissé non marqué qu'après une renonce en "
                            "défense et un contrat chuté."
                        ),
                    )
                    return redirect("deal-adjust", deal.pk)
                return redirect("sheet-detail", sheet.pk)
            if form.is_valid():
                scores = form.cleaned_data.get("scores")
                if scores is None:
                    scores = services.lost_by_margin_scores(deal, form.cleaned_data["margin"])
                services.deal_adjust(
                    deal=deal,
                    scores=scores,
                    reason=form.cleaned_data["reason"],
                    user=request.user,
                    expected_version=expected,
                )
                return redirect("sheet-detail", sheet.pk)
        except StaleSheetError:
            services.conflict_record(
                sheet=sheet,
                data=_as_typed(request.POST),
                expected_version=expected,
                user=request.user,
            )
            conflict = _conflict_message(sheet)
            sheet.refresh_from_db(fields=["version"])
            form = AdjustForm(
                _with_version(request.POST, sheet.version),
                labels=view.seats.labels,
                order=view.seats.in_order(),
            )
            form.is_valid()
        except Locked as err:
            messages.error(request, " ".join(err.messages))
            return redirect("sheet-detail", sheet.pk)
        except ValueError as err:
            form.add_error("margin", str(err))
    has_revoke = any(i.kind == Incident.Kind.RENONCE_DEFENCE for i in _line_incidents(view, deal))
    failed = (
        deal.taker is not None
        and bool(deal.computed_scores)
        and (deal.computed_scores[deal.taker] < 0)
    )
    return render(
        request,
        "scoring/deal_adjust.html",
        {
            "tournament": sheet.tournament,
            "tab": "desk",
            "sheet": sheet,
            "deal": deal,
            "view": view,
            "form": form,
            "conflict": conflict,
            "may_skip_score": has_revoke and failed,
            "computed": [
                (view.seats.labels[seat], deal.computed_scores[seat])
                for seat in view.seats.in_order()
                if seat < len(deal.computed_scores)
            ],
        },
    )


def _line_incidents(view: SheetView, deal: Deal) -> list[Incident]:
    return [i for i in view.incidents if i.deal_number == deal.number]


@permission_required(Permission.SCORE, SHEET)
@require_POST
def sheet_crosscheck(request: HttpRequest, pk: int) -> HttpResponse:
    """Store the bilans written on the paper sheet; differences are flagged on the sheet."""
    sheet = _sheet(pk)
    view = _load(request, sheet)
    form = CrossCheckForm(request.POST, labels=view.seats.labels, order=view.seats.in_order())
    if form.is_valid():
        expected = form.cleaned_data["version"]
        try:
            services.sheet_set_paper_bilans(
                sheet=sheet, bilans=form.bilans(), user=request.user, expected_version=expected
            )
        except Locked as err:
            return _refused(request, sheet, err)
        except StaleSheetError:
            services.conflict_record(
                sheet=sheet,
                data={"paper_bilans": form.bilans()},
                expected_version=expected,
                user=request.user,
            )
            sheet.refresh_from_db(fields=["version", "paper_bilans"])
            view = _load(request, sheet)
            kept = CrossCheckForm(
                _with_version(request.POST, sheet.version),
                labels=view.seats.labels,
                order=view.seats.in_order(),
            )
            kept.is_valid()
            return _render_sheet(
                request,
                view,
                _entry_form(view),
                conflict=_conflict_message(sheet),
                crosscheck=kept,
            )
        return _done(request, sheet)
    return _render_sheet(request, view, _entry_form(view), crosscheck=form)


@permission_required(Permission.MANAGE, SHEET)
@require_POST
def sheet_validate(request: HttpRequest, pk: int) -> HttpResponse:
    """The arbiter accepts a sheet (then it is locked), or un-validates it with a reason."""
    sheet = _sheet(pk)

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

    return _sheet_write(request, sheet, validate)


def _sheet_write(request: HttpRequest, sheet: ScoreSheet, write) -> HttpResponse:
    """A versioned write posted from the sheet page: `write(version)` runs with the version the
    page was based on (required); a refused write shows why, a moved sheet shows the conflict."""
    version = _int_or_none(request.POST.get("version"))
    try:
        if version is None:
            raise StaleSheetError(sheet, None)
        write(version)
    except ValidationError as err:  # Locked is one
        return _refused(request, sheet, err if isinstance(err, Locked) else Locked(err.messages))
    except StaleSheetError:
        sheet.refresh_from_db(fields=["version", "paper_bilans", "status"])
        view = _load(request, sheet)
        return _render_sheet(request, view, _entry_form(view), conflict=_conflict_message(sheet))
    return _done(request, sheet)


@permission_required(Permission.MANAGE, DEAL)
@require_POST
def deal_confirm(request: HttpRequest, pk: int) -> HttpResponse:
    """The arbiter accepts a deal entered at the table (rejecting it is deleting it)."""
    deal = _deal(pk)
    return _sheet_write(
        request,
        deal.sheet,
        lambda version: table_entry.deal_confirm_by_arbiter(
            deal=deal, user=request.user, expected_version=version
        ),
    )


@permission_required(Permission.MANAGE)
@require_POST
def table_links_create(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """Codes for the tables of a position published before the links existed."""
    position = get_object_or_404(
        Position, tournament_id=pk, number=number, status=Position.Status.PUBLISHED
    )
    table_entry.links_for_position(position)
    return redirect("desk-overview", pk, number)


@permission_required(Permission.MANAGE, "positions__tables__pk")
@require_POST
def table_link_revoke(request: HttpRequest, pk: int) -> HttpResponse:
    """A leaked or lost code: the table gets a new link and code; the old ones stop working."""
    link = get_object_or_404(TableLink.objects.select_related("table__position"), table_id=pk)
    new = table_entry.link_revoke(link=link, user=request.user)
    messages.success(
        request,
        gettext("Table %(number)s : nouveau code %(code)s.")
        % {"number": new.table.number, "code": new.code},
    )
    return redirect("desk-overview", new.table.position.tournament_id, new.table.position.number)


@permission_required(Permission.MANAGE, SHEET)
@require_POST
def sheet_extra_deal(request: HttpRequest, pk: int) -> HttpResponse:
    """The arbiter lets a full sheet take one deal more (a replayed deal, a decision)."""
    sheet = _sheet(pk)
    return _sheet_write(
        request,
        sheet,
        lambda version: services.sheet_allow_extra_deal(
            sheet=sheet, user=request.user, expected_version=version
        ),
    )


@permission_required(Permission.VIEW, SHEET)
def sheet_history(request: HttpRequest, pk: int) -> HttpResponse:
    """Who changed what on the sheet, in words (seats, names, French contracts)."""
    sheet = _sheet(pk)
    return render(
        request,
        "scoring/sheet_history.html",
        {
            "tournament": sheet.tournament,
            "tab": "desk",
            "sheet": sheet,
            "entries": history.sheet_history(sheet),
        },
    )


@permission_required(Permission.SCORE, TABLE)
def sheet_for_table(request: HttpRequest, pk: int) -> HttpResponse:
    """Open a table's sheet; a POST creates it with the seated players on first use (GET never
    writes: it opens an existing sheet or offers the button that creates it)."""
    table = get_object_or_404(Table.objects.select_related("position__tournament"), pk=pk)
    sheet = ScoreSheet.objects.filter(table=table).first()
    if sheet is not None:
        return redirect("sheet-detail", sheet.pk)
    if not table.seats.exists():
        messages.error(request, gettext("Cette table n'a pas encore de joueurs placés."))
        return redirect("desk-overview", table.position.tournament_id, table.position.number)
    if request.method == "POST":
        try:
            sheet = services.sheet_for_table(table=table)
        except Locked as err:
            messages.error(request, " ".join(err.messages))
            return redirect("desk-overview", table.position.tournament_id, table.position.number)
        return redirect("sheet-detail", sheet.pk)
    return render(
        request,
        "scoring/sheet_open.html",
        {"tournament": table.position.tournament, "tab": "desk", "table": table},
    )


@permission_required(Permission.SCORE)
def sheet_free_create(request: HttpRequest, pk: int) -> HttpResponse:
    """A sheet without a seating plan: pick 3 to 5 registered players (a club evening)."""
    tournament = request.tournament
    registrations = Registration.objects.filter(tournament=tournament).select_related("player")
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
        {"tournament": tournament, "tab": "desk", "form": form},
    )


# --- the overview ---------------------------------------------------------------------------


@permission_required(Permission.VIEW)
def desk_overview(request: HttpRequest, pk: int, number: int | None = None) -> HttpResponse:
    """Every table of a position and its sheet's state: what is still missing at a glance."""
    tournament = request.tournament
    positions = list(Position.objects.filter(tournament=tournament).order_by("number"))
    live = request.htmx and request.htmx.target == "overview-live"
    published = [p for p in positions if p.status == Position.Status.PUBLISHED]
    to_enter = sheets_to_enter(tournament, published) if not live else {}
    moved_on_key = DESK_POSITION_KEY % tournament.pk
    if number is not None:
        position = get_object_or_404(Position, tournament=tournament, number=number)
        if not request.htmx:
            # Opening a position by hand is moving on to it: the desk stays there from now on.
            request.session[moved_on_key] = number
    else:
        # The position still being entered, not the last published one: "1" + Enter must not
        # open table 1 of a position published while this one's sheets are coming in.
        position = position_being_entered(positions, to_enter, request.session.get(moved_on_key))
    rows = position_overview(position) if position else []
    # Table codes matter only when players enter deals on their phones.
    links = (
        {link.table_id: link for link in TableLink.objects.filter(table__position=position)}
        if tournament.entry_mode != tournament.EntryMode.PAPER
        else {}
    )
    for row in rows:
        row.link = links.get(row.table.pk)
    context = {
        "tournament": tournament,
        "tab": "desk",
        "positions": positions,
        "position": position,
        "rows": rows,
        "links": links,
        "can_manage": capabilities(request.user, tournament)["manage"],
        "missing": sum(1 for r in rows if r.state == "missing"),
    }
    if live:
        # The live overview refreshes its table every few seconds.
        return render(request, "scoring/_overview_live.html", context)
    context["free_sheets"] = ScoreSheet.objects.filter(tournament=tournament, table__isnull=True)
    if position is not None:
        # Earlier positions with sheets still to enter, and the next published one to move on to.
        context["earlier_to_enter"] = [
            to_enter[p.pk] for p in published if p.number < position.number and p.pk in to_enter
        ]
        context["this_to_enter"] = to_enter.get(position.pk)
        context["next_published"] = next((p for p in published if p.number > position.number), None)
    return render(request, "scoring/desk_overview.html", context)


# --- incidents and penalties ----------------------------------------------------------------


@permission_required(Permission.MANAGE)
def incident_create(request: HttpRequest, pk: int) -> HttpResponse:
    """Record a fault on a sheet (optionally a deal) or on the tournament."""
    tournament = request.tournament
    sheet_id = _int_or_none(request.GET.get("sheet") or request.POST.get("sheet"))
    sheet = None
    registrations = Registration.objects.filter(tournament=tournament).select_related("player")
    if sheet_id is not None:
        sheet = get_object_or_404(
            ScoreSheet.objects.select_related("table__position"), pk=sheet_id, tournament=tournament
        )
        registrations = registrations.filter(pk__in=sheet.players.values("registration_id"))
    initial = {"deal_number": _int_or_none(request.GET.get("deal"))}
    form = IncidentForm(request.POST or None, registrations=registrations, initial=initial)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            incident = services.incident_record(
                tournament=tournament,
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
        else:
            messages.success(request, gettext("Incident enregistré."))
            barred = services.incident_barred_taker(incident)
            if barred is not None:
                # The deal was typed before the incident: the rules bar its taker from bidding.
                messages.warning(
                    request,
                    gettext(
                        "Attention : %(name)s est noté preneur de la donne %(number)s alors "
                        "qu'il ne pouvait pas enchérir. Corrigez la donne ou donnez un score "
                        "arbitral."
                    )
                    % {"name": incident.registration.player, "number": barred.number},
                )
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
            "defaults": json.dumps(
                {**RULE_PENALTY_DEFAULTS, **(tournament.penalty_defaults or {})}
            ),
        },
    )


@permission_required(Permission.VIEW)
def incident_list(request: HttpRequest, pk: int) -> HttpResponse:
    """The tournament's incident log, filterable by type, position, table and player."""
    tournament = request.tournament
    incidents = Incident.objects.filter(tournament=tournament).select_related(
        "registration__player", "sheet__table__position", "created_by"
    )
    filters = {
        "kind": request.GET.get("kind", ""),
        "position": _int_or_none(request.GET.get("position")),
        "table": _int_or_none(request.GET.get("table")),
        "player": _int_or_none(request.GET.get("player")),
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
            "positions": Position.objects.filter(tournament=tournament).order_by("number"),
            "registrations": Registration.objects.filter(tournament=tournament).select_related(
                "player"
            ),
            "is_arbiter": capabilities(request.user, tournament)["manage"],
        },
    )


@permission_required(Permission.MANAGE)
def penalty_settings(request: HttpRequest, pk: int) -> HttpResponse:
    """The organiser's default penalty per incident type (arbiters only)."""
    tournament = request.tournament
    # Blank amounts show the rules' default where they state one.
    defaults = {**RULE_PENALTY_DEFAULTS, **(tournament.penalty_defaults or {})}
    initial = {f"kind_{k}": v for k, v in defaults.items()}
    initial["share_penalties"] = tournament.share_penalties
    form = PenaltyDefaultsForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            services.penalty_defaults_set(
                tournament=tournament,
                defaults=form.defaults(),
                share=form.cleaned_data["share_penalties"],
                user=request.user,
            )
        except Locked as err:
            form.add_error(None, err)
        else:
            messages.success(request, gettext("Pénalités par défaut enregistrées."))
            return redirect("incident-list", tournament.pk)
    return render(
        request,
        "scoring/penalty_settings.html",
        {"tournament": tournament, "tab": "incidents", "form": form},
    )
