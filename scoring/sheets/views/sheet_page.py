"""What the score-sheet page's views share: loading the sheet, its entry form, rendering it, the
two ways a write is turned down (a locked sheet, a sheet that moved since the page loaded), and
the writes posted from the page: the deal form's round trip (a new deal or a correction) and a
versioned action (validate, delete a deal...).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from django import forms
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect, QueryDict
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext
from django_htmx.http import HttpResponseClientRedirect

from scoring.core.deal import DealError
from scoring.models import Deal, ScoreSheet
from scoring.sheets import services, table_entry
from scoring.sheets.forms import CrossCheckForm, DealForm, FigureDealForm, deal_initial
from scoring.sheets.screen import (
    SheetView,
    barred_seats,
    last_writer,
    load_sheet_view,
    neighbour_tables,
    sheet_is_full,
)
from scoring.sheets.services import StaleSheetError
from tournament.access.lifecycle import Locked
from tournament.access.permissions import TournamentRequest, capabilities
from tournament.core.schema import INT32_MAX, INT32_MIN

# The URL's object, seen from the tournament (tournament.access's look-ups).
SHEET = "sheets__pk"
DEAL = "sheets__deals__pk"
TABLE = "positions__tables__pk"

# How a row is typed: in detail (taker, bouts, points, bonuses) or from the FFT sheet's figures.
MODES = {"detailed": False, "figures": True}

F = TypeVar("F", bound=forms.Form)


def get_sheet(pk: int) -> ScoreSheet:
    return get_object_or_404(
        ScoreSheet.objects.select_related("tournament", "table__position"), pk=pk
    )


def get_deal(pk: int) -> Deal:
    return get_object_or_404(
        Deal.objects.select_related("sheet__tournament", "sheet__table__position"), pk=pk
    )


def int_or_none(value: str | None) -> int | None:
    """A posted or asked integer (a version, a deal or page number, an id), or None when it is
    not one or lies beyond what a database column holds (it is then kept nowhere)."""
    try:
        number = int(value) if value not in (None, "") and len(value) <= 12 else None
    except (TypeError, ValueError):
        return None
    return number if number is not None and INT32_MIN <= number <= INT32_MAX else None


def load(request: TournamentRequest, sheet: ScoreSheet) -> SheetView:
    """The sheet as the desk shows it, typed in the mode the page asks for (or the tournament's)."""
    view = load_sheet_view(sheet)
    asked = request.POST.get("mode") or request.GET.get("mode")
    if asked in MODES:
        view.figures = MODES[asked]
        view.mode_asked = True
    return view


def form_class(view: SheetView, deal: Deal | None = None) -> type[DealForm]:
    # A correction keeps the way its deal was typed, unless the arbiter switched the page.
    figures = deal.is_figure_only if deal is not None and not view.mode_asked else view.figures
    return FigureDealForm if figures else DealForm


def entry_form(
    view: SheetView, data: QueryDict | None = None, deal: Deal | None = None
) -> DealForm:
    """A bound form for what was typed, or a fresh one for the next deal (or the edited one)."""
    number = deal.number if deal else view.next_number
    barred = barred_on(view, number)
    cls = form_class(view, deal)
    if data is not None:
        return cls(data, seats=view.seats, barred=barred)
    initial = deal_initial(deal, view.seats) if deal else {"dealer": view.next_dealer}
    initial["version"] = view.sheet.version
    return cls(initial=initial, seats=view.seats, barred=barred)


def barred_on(view: SheetView, number: int) -> dict[int, str]:
    """Seats that may not bid on deal `number` (fausse donne, revoke in defence)."""
    if number == view.next_number:
        return view.barred_next
    seat_of = {c.registration_id: c.seat for c in view.columns}
    return barred_seats(view.incidents, number, seat_of)


def valid_deal(form: DealForm) -> dict[str, Any] | None:
    """The engine's input of a valid form (the form reads it while cleaning), else None."""
    return form.deal_data if form.is_valid() else None


def as_typed(data: QueryDict) -> dict[str, str]:
    """What was posted, kept in the history; NUL (refused in PostgreSQL's JSON) shown as �."""
    return {
        key.replace("\x00", "\ufffd"): values[-1].replace("\x00", "\ufffd")
        for key, values in data.lists()
        if key != "csrfmiddlewaretoken" and values
    }


def kept(request: TournamentRequest, sheet: ScoreSheet, make: type[F], **kwargs: Any) -> F:
    """The posted form again, on the sheet's current version: what was typed stays on screen,
    checked (so its errors show) but not flagged as a conflict of its own."""
    data = request.POST.copy()
    data["version"] = str(sheet.version)
    form = make(data, **kwargs)
    form.is_valid()
    return form


def seat_fields(view: SheetView) -> dict[str, Any]:
    """What a form with a field per seat needs: the seats' labels, in the paper sheet's order."""
    return {"labels": view.seats.labels, "order": view.seats.in_order()}


def render_sheet(
    request: TournamentRequest,
    view: SheetView,
    form: DealForm,
    *,
    editing: Deal | None = None,
    conflict: str = "",
    crosscheck: CrossCheckForm | None = None,
) -> HttpResponse:
    labels = [view.seats.labels[c.seat] for c in view.columns]
    if crosscheck is None:
        initial: dict[str, Any] = {"version": view.sheet.version}
        for column, value in zip(view.columns, view.paper or [], strict=False):
            initial[f"bilan_{column.seat}"] = value
        crosscheck = CrossCheckForm(initial=initial, **seat_fields(view))
    context = {
        "tournament": view.sheet.tournament,
        "tab": "entry",
        "view": view,
        "lock": services.sheet_lock_message(view.sheet),
        "full": sheet_is_full(view),
        "sheet": view.sheet,
        "form": form,
        "editing": editing,
        "conflict": conflict,
        "crosscheck": crosscheck,
        "column_labels": labels,
        "perms_arbiter": capabilities(request.user, view.sheet.tournament)["manage"],
        # A table's players vouch for its sheet on their phones: who has, who hasn't yet.
        "signers": _signers(view),
    }
    if request.htmx:
        return render(request, "scoring/_sheet_body.html", context)
    context["neighbours"] = neighbour_tables(view.sheet)
    return render(request, "scoring/sheet_detail.html", context)


def _signers(view: SheetView) -> list[table_entry.Signer]:
    if view.sheet.table_id is None:
        return []
    names = {c.seat: c.name for c in view.columns}
    signed = table_entry.signed_seats(view.sheet)
    return [table_entry.Signer(c.seat, names[c.seat], c.seat in signed) for c in view.columns]


def next_page(request: HttpRequest) -> str | None:
    """The page of this site a form says to go back to after its write (`next`, posted or in
    the address the form was opened with: the page of what waits), if any."""
    target = request.POST.get("next") or request.GET.get("next", "")
    if not target.startswith("/") or "\x00" in target:
        return None
    allowed = url_has_allowed_host_and_scheme(
        target, {request.get_host()}, require_https=request.is_secure()
    )
    return target if allowed else None


def done(request: TournamentRequest, sheet: ScoreSheet) -> HttpResponse:
    """After a successful write: htmx gets the refreshed sheet, a plain form post a redirect
    (to the page it came from when it says so: the page of what waits before a close)."""
    target = next_page(request)
    if target is not None:
        # htmx would swap the whole page it was sent back to into the sheet: the browser goes.
        return HttpResponseClientRedirect(target) if request.htmx else HttpResponseRedirect(target)
    if request.htmx:
        sheet.refresh_from_db(fields=["version", "paper_bilans", "status", "signatures"])
        view = load(request, sheet)
        return render_sheet(request, view, entry_form(view))
    return redirect("sheet-detail", sheet.pk)


def refused(
    request: TournamentRequest,
    sheet: ScoreSheet,
    err: Locked,
    *,
    typed: bool = False,
    **kwargs: Any,
) -> HttpResponse:
    """A write on a locked sheet: nothing written, what was `typed` kept, the reason shown."""
    sheet.refresh_from_db(fields=["version", "paper_bilans", "status", "signatures"])
    view = load(request, sheet)
    form = kept(request, sheet, form_class(view), seats=view.seats) if typed else entry_form(view)
    return render_sheet(request, view, form, conflict=" ".join(err.messages), **kwargs)


def stale(
    request: TournamentRequest,
    sheet: ScoreSheet,
    *,
    typed: dict[str, Any] | None,
    expected: int | None,
) -> tuple[SheetView, str]:
    """The sheet moved since the page was loaded: nothing was written. What was `typed` goes to
    the history beside the state that won (when given), the sheet is read again, and the
    message telling the user who changed it comes back with it."""
    if typed is not None:
        services.conflict_record(
            sheet=sheet, data=typed, expected_version=expected, user=request.user
        )
    sheet.refresh_from_db(fields=["version", "paper_bilans", "status", "signatures"])
    who = last_writer(sheet) or gettext("quelqu'un d'autre")
    message = gettext(
        "Conflit : %(who)s a modifié cette feuille pendant votre saisie. Rien n'a été écrasé : "
        "la feuille ci-dessous est la version enregistrée, et votre saisie est conservée dans "
        "le formulaire (et dans l'historique). Vérifiez puis validez à nouveau."
    ) % {"who": who}
    return load(request, sheet), message


def stale_deal(
    request: TournamentRequest,
    sheet: ScoreSheet,
    form: DealForm,
    expected: int | None,
    editing: Deal | None = None,
) -> HttpResponse:
    """A deal typed on a sheet that moved meanwhile: the sheet as it is now, the deal as typed."""
    # The engine's input, or what was posted when the form never got that far (no CSRF token).
    typed = form.deal_data or as_typed(request.POST)
    view, conflict = stale(request, sheet, typed=typed, expected=expected)
    form = kept(request, sheet, form_class(view, editing), seats=view.seats)
    return render_sheet(request, view, form, editing=editing, conflict=conflict)


def deal_entry(
    request: TournamentRequest, view: SheetView, *, editing: Deal | None = None
) -> HttpResponse:
    """The sheet page's deal form, for the next deal or the one `editing`: a GET shows it, a POST
    writes the engine's input of a valid form on the version the page was based on, as a new deal
    (services.deal_record) or as the correction of the one edited (services.deal_update). A deal
    the engine refuses, a moved sheet or a locked one come back with what was typed; a done
    write shows the sheet."""
    sheet = view.sheet
    if request.method != "POST":
        return render_sheet(request, view, entry_form(view, deal=editing), editing=editing)
    form = entry_form(view, request.POST, deal=editing)
    data = valid_deal(form)
    if data is not None:
        expected = form.cleaned_data["version"]
        try:
            if editing is None:
                services.deal_record(
                    sheet=sheet, data=data, user=request.user, expected_version=expected
                )
            else:
                services.deal_update(
                    deal=editing, data=data, user=request.user, expected_version=expected
                )
        except DealError as err:
            form.add_deal_error(err)
        except StaleSheetError:
            return stale_deal(request, sheet, form, expected, editing=editing)
        except Locked as err:
            return refused(request, sheet, err, typed=True, editing=editing)
        else:
            return done(request, sheet)
    return render_sheet(request, view, form, editing=editing)


def sheet_write(
    request: TournamentRequest,
    sheet: ScoreSheet,
    write: Callable[[int], object],
    *,
    typed: dict[str, object] | None = None,
) -> HttpResponse:
    """A versioned write posted from the sheet page: `write(version)` runs with the version the
    page was based on (required); a refused write shows why, a moved sheet shows the conflict
    (and keeps `typed` in the history beside the state that won, when given)."""
    version = int_or_none(request.POST.get("version"))
    try:
        if version is None:
            raise StaleSheetError(sheet, None)
        write(version)
    except ValidationError as err:  # Locked is one
        return refused(request, sheet, err if isinstance(err, Locked) else Locked(err.messages))
    except StaleSheetError:
        view, conflict = stale(request, sheet, typed=typed, expected=version)
        return render_sheet(request, view, entry_form(view), conflict=conflict)
    return done(request, sheet)
