"""A deal once on the sheet: delete it, confirm one entered at the table, give it an arbiter's
score (or take it back), and the taker's choice after a revoke in defence. Correcting it is the
sheet page's deal form (views.sheets.deal_edit).
"""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.http import HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from scoring.models import Deal
from scoring.sheets import services, table_entry
from scoring.sheets.forms import AdjustForm
from scoring.sheets.screen import SheetView
from scoring.sheets.services import StaleSheetError
from scoring.sheets.views.sheet_page import (
    DEAL,
    as_typed,
    get_deal,
    int_or_none,
    kept,
    load,
    next_page,
    seat_fields,
    sheet_write,
    stale,
)
from tournament.access.lifecycle import Locked
from tournament.access.permissions import Permission, TournamentRequest, permission_required


def _deal_write(
    request: TournamentRequest,
    deal: Deal,
    service: Callable[..., object],
    typed: dict[str, object] | None = None,
) -> HttpResponse:
    """`service(deal=, user=, expected_version=)` posted from the sheet page (`sheet_write`)."""

    def write(version: int) -> object:
        return service(deal=deal, user=request.user, expected_version=version)

    return sheet_write(request, deal.sheet, write, typed=typed)


@permission_required(Permission.SCORE, DEAL)
@require_POST
def deal_delete(request: TournamentRequest, pk: int) -> HttpResponse:
    deal = get_deal(pk)
    return _deal_write(request, deal, services.deal_delete, {"delete_deal": deal.number})


@permission_required(Permission.MANAGE, DEAL)
@require_POST
def deal_confirm(request: TournamentRequest, pk: int) -> HttpResponse:
    """The arbiter accepts a deal entered at the table (rejecting it is deleting it)."""
    return _deal_write(request, get_deal(pk), table_entry.deal_confirm_by_arbiter)


# --- the arbiter's score --------------------------------------------------------------------


def _adjust_form(deal: Deal, view: SheetView) -> AdjustForm:
    """The arbiter's score form as the page opens: the deal's scores, the sheet's version."""
    return AdjustForm(
        **seat_fields(view),
        initial={
            "version": deal.sheet.version,
            **{f"score_{seat}": score for seat, score in enumerate(deal.scores)},
        },
    )


def _adjust_page(
    request: TournamentRequest, deal: Deal, view: SheetView, form: AdjustForm, conflict: str = ""
) -> HttpResponse:
    """The arbiter's score page: the computed score, the form, the taker's choice if offered."""
    sheet = deal.sheet
    return render(
        request,
        "scoring/deal_adjust.html",
        {
            "tournament": sheet.tournament,
            "tab": "entry",
            "sheet": sheet,
            "deal": deal,
            "view": view,
            "form": form,
            "conflict": conflict,
            "may_skip_score": services.deal_may_go_unrecorded(deal),
            "computed": [
                (view.seats.labels[seat], deal.computed_scores[seat])
                for seat in view.seats.in_order()
                if seat < len(deal.computed_scores)
            ],
        },
    )


def _adjust_write(
    request: TournamentRequest, deal: Deal, write: Callable[[int], HttpResponse | None]
) -> HttpResponse:
    """A versioned write from the arbiter's score page: `write(version)` runs with the version
    the page was based on (required) and may answer itself (a form to correct); a locked sheet
    sends back to the sheet, a moved one shows the conflict, a done write the sheet."""
    sheet = deal.sheet
    expected = int_or_none(request.POST.get("version"))
    try:
        if expected is None:
            raise StaleSheetError(sheet, None)
        response = write(expected)
    except StaleSheetError:
        view, conflict = stale(request, sheet, typed=as_typed(request.POST), expected=expected)
        form = kept(request, sheet, AdjustForm, **seat_fields(view))
        return _adjust_page(request, deal, view, form, conflict)
    except Locked as err:
        messages.error(request, " ".join(err.messages))
        response = None
    if response is None and (target := next_page(request)) is not None:
        return HttpResponseRedirect(target)  # back to the page of what waits it came from
    return response or redirect("sheet-detail", sheet.pk)


@permission_required(Permission.MANAGE, DEAL)
def deal_adjust(request: TournamentRequest, pk: int) -> HttpResponse:
    """An arbiter's score for a deal, with a reason: given in full, or the contract declared
    lost by a margin."""
    deal = get_deal(pk)
    view = load(request, deal.sheet)
    if request.method != "POST":
        return _adjust_page(request, deal, view, _adjust_form(deal, view))
    if request.POST.get("action", "adjust") != "adjust":
        # A page opened before clearing and (not) recording had routes of their own posts its
        # choice here: nothing is written, the arbiter gets the current page to choose again.
        messages.error(request, gettext("Cette page avait changé : faites votre choix à nouveau."))
        return redirect("deal-adjust", deal.pk)
    form = AdjustForm(request.POST, **seat_fields(view))

    def adjust(version: int) -> HttpResponse | None:
        if not form.is_valid():
            return _adjust_page(request, deal, view, form)
        try:
            scores = form.cleaned_data.get("scores")
            if scores is None:
                scores = services.lost_by_margin_scores(deal, form.cleaned_data["margin"])
            services.deal_adjust(
                deal=deal,
                scores=scores,
                reason=form.cleaned_data["reason"],
                user=request.user,
                expected_version=version,
            )
        except ValueError as err:  # a margin the contract can't be lost by
            form.add_error("margin", str(err))
            return _adjust_page(request, deal, view, form)
        return None

    return _adjust_write(request, deal, adjust)


@permission_required(Permission.MANAGE, DEAL)
@require_POST
def deal_adjust_clear(request: TournamentRequest, pk: int) -> HttpResponse:
    """Back to the computed score."""
    deal = get_deal(pk)

    def clear(version: int) -> None:
        services.deal_adjust(
            deal=deal, scores=None, reason="", user=request.user, expected_version=version
        )

    return _adjust_write(request, deal, clear)


@permission_required(Permission.MANAGE, DEAL)
@require_POST
def deal_score_recorded(request: TournamentRequest, pk: int) -> HttpResponse:
    """The taker's choice after a revoke in defence and a failed contract: leave the score
    unrecorded (`action=not_recorded`) or record it after all."""
    deal = get_deal(pk)

    def choose(version: int) -> HttpResponse | None:
        try:
            services.deal_set_not_recorded(
                deal=deal,
                not_recorded=request.POST.get("action") == "not_recorded",
                user=request.user,
                expected_version=version,
            )
        except ValueError:  # no revoke in defence, or the contract was made
            messages.error(
                request,
                gettext(
                    "Le score ne peut être laissé non marqué qu'après une renonce en "
                    "défense et un contrat chuté."
                ),
            )
            return redirect("deal-adjust", deal.pk)
        return None

    return _adjust_write(request, deal, choose)
