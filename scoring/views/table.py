"""A table's own page on the players' phones: no account, a secret link scoped to one table.

The link's token is the only credential: each view resolves it to its one table (refused once
the position is closed, the tournament finished or the arbiter revoked it) and reads or writes
nothing else. Writes answer JSON so that the phone can queue them offline and resend them.
"""

from __future__ import annotations

from functools import wraps
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST, require_safe

from scoring import table_entry
from scoring.engine import DealError
from scoring.http import json_object
from scoring.models import Deal, ScoreSheet, TableLink
from scoring.services import StaleSheetError, compute_scores, deal_input_check, sheet_is_full
from scoring.sheet_screen import load_sheet_view
from tournament import throttle
from tournament.access import json_error
from tournament.lifecycle import Locked
from tournament.seats import sheet_order_key

# Guessing table codes: attempts allowed per client address and window.
CODE_ATTEMPTS = 20
CODE_WINDOW = 600  # seconds


def _closed(request: HttpRequest) -> HttpResponse:
    return render(request, "scoring/table_closed.html", status=404)


def _body(request: HttpRequest) -> dict[str, Any]:
    return json_object(request.body, field="body", unreadable=_("Corps JSON illisible."))


def table_link(*, page: bool):
    """Resolve the URL's token to its table's link, the pages' only credential; a closed or
    unknown link answers the "no longer valid" page (or its JSON) and the view never runs."""

    def decorator(view):
        @wraps(view)
        def wrapper(request: HttpRequest, token: str) -> HttpResponse:
            try:
                link = table_entry.link_for(token)
            except table_entry.TableClosed:
                if page:
                    return _closed(request)
                return json_error(None, _("Ce lien de table n'est plus valable."), 404)
            return view(request, link)

        return wrapper

    return decorator


def _client_address(request: HttpRequest) -> str:
    # The same address as the login throttle sees (the trusted proxy setting applies).
    return settings.AXES_CLIENT_IP_CALLABLE(request) or "?"


@never_cache
def table_code(request: HttpRequest) -> HttpResponse:
    """Type the code printed on the table's sheet instead of scanning its QR code."""
    error = ""
    code = ""
    if request.method == "POST":
        key = f"table-code:{_client_address(request)}"
        code = table_entry.normalise_code(request.POST.get("code", ""))
        # Every attempt is counted before the code is looked up (one atomic statement), so
        # parallel guesses can't slip past the limit between a read and a write.
        if throttle.hit(key, CODE_WINDOW) > CODE_ATTEMPTS:
            error = _("Trop d'essais : attendez quelques minutes ou demandez à l'arbitre.")
        else:
            link = TableLink.objects.filter(code=code).first() if code else None
            if link is not None:
                return redirect("table-entry", link.token)
            error = _("Code inconnu : vérifiez le code imprimé sur la feuille de la table.")
    status = 400 if error else 200
    return render(request, "scoring/table_code.html", {"error": error, "code": code}, status=status)


def _sheet_context(link: TableLink) -> dict:
    """The running sheet as the phone shows it (rows, totals, bilans, who deals, who waits)."""
    table = link.table
    sheet = table_entry.table_sheet(link)
    seats = sorted(table.seats.select_related("registration__player"), key=lambda s: s.index)
    # By seat index, as the engine and the page's script count seats.
    names = [seat.registration.player.full_name for seat in seats]
    # What the page lists: (seat index, name) in the paper sheet's order (N, S, E, O, 5e).
    order = sorted(range(len(seats)), key=lambda i: sheet_order_key(seats[i].direction))
    people = [(seat, names[seat]) for seat in order]
    next_dealer = 0
    context = {
        "link": link,
        "table": table,
        "position": table.position,
        "tournament": table.position.tournament,
        "names": names,
        "people": people,
        "sheet": sheet,
        "view": None,
        "version": 0,
        "next_number": 1,
        "next_dealer": next_dealer,
        # The tap rows that are plain choices: the engine's contracts, the oudlers, which side
        # took the petit au bout (none at first).
        "contracts": Deal.Contract.choices,
        "oudlers": [(str(n), str(n)) for n in range(4)],
        "petit_au_bout": [("", _("Non")), *Deal.Side.choices],
        "called_king": table.game == "five",
        "dead_is_dealer": table.game == "five_dead",
    }
    if sheet is not None:
        view = load_sheet_view(sheet)
        next_dealer = view.next_dealer
        totals = [0] * len(names)
        for line in view.lines:
            for seat, points in enumerate(line.deal.scores[: len(names)]):
                totals[seat] += points
        context.update(
            totals=[totals[seat] for seat in order],
            rows=[(line, [line.deal.scores[seat] for seat in order]) for line in view.lines],
            view=view,
            version=sheet.version,
            next_number=view.next_number,
            next_dealer=next_dealer,
            pending=[line for line in view.lines if line.deal.pending],
            full=sheet_is_full(view),
        )
    context["dealer_name"] = names[next_dealer] if names else ""
    return context


@never_cache
@require_safe
@table_link(page=True)
def table_entry_page(request: HttpRequest, link: TableLink) -> HttpResponse:
    return render(request, "scoring/table_entry.html", _sheet_context(link))


@never_cache
@require_safe
@table_link(page=True)
def table_sheet_partial(request: HttpRequest, link: TableLink) -> HttpResponse:
    """The running sheet, refreshed by the phone after each save and every few seconds."""
    return render(request, "scoring/_table_sheet.html", _sheet_context(link))


@require_POST
@table_link(page=False)
def table_preview(request: HttpRequest, link: TableLink) -> JsonResponse:
    """The row the deal would add, computed by the engine, before anything is saved."""
    try:
        payload = _body(request)
        sheet = table_entry.table_sheet(link) or ScoreSheet(
            tournament=link.table.position.tournament, table=link.table
        )
        if sheet.pk is None:
            sheet._players_count = link.table.seats.count()
        data = deal_input_check(payload.get("deal"), sheet)
        scores = compute_scores(data, link.table.position.tournament.rule_set)
    except DealError as err:
        return json_error(err.field, _(err.template) % err.params)
    return JsonResponse({"scores": scores})


@require_POST
@table_link(page=False)
def table_deal_create(request: HttpRequest, link: TableLink) -> JsonResponse:
    """Record a deal typed at the table; a resend of the same client id answers the original."""
    try:
        payload = _body(request)
        deal, replayed = table_entry.phone_deal_record(
            link=link,
            client_id=payload.get("client_id"),
            data=payload.get("deal"),
            entered_by=payload.get("entered_by"),
            version=payload.get("version"),
        )
    except DealError as err:
        return json_error(err.field, _(err.template) % err.params)
    except StaleSheetError as err:
        return json_error(
            "version",
            _(
                "La feuille a changé sur un autre téléphone (donne ajoutée ou confirmée). "
                "Vérifiez la feuille puis renvoyez."
            ),
            409,
            version=err.sheet.version,
        )
    except Locked as err:
        return json_error("sheet", " ".join(err.messages), 409)
    sheet_version = ScoreSheet.objects.values_list("version", flat=True).get(pk=deal.sheet_id)
    return JsonResponse(
        {
            "deal": deal.pk,
            "number": deal.number,
            "scores": deal.scores,
            "pending": deal.pending,
            "version": sheet_version,
            "replayed": replayed,
        },
        status=200 if replayed else 201,
    )


@require_POST
@table_link(page=False)
def table_confirm(request: HttpRequest, link: TableLink) -> JsonResponse:
    """A player of the other side confirms the waiting deals with their personal code."""
    return _with_code(request, link, finish=False)


@require_POST
@table_link(page=False)
def table_finish(request: HttpRequest, link: TableLink) -> JsonResponse:
    """The table says its sheet is complete (the arbiter still validates it)."""
    return _with_code(request, link, finish=True)


def _with_code(request: HttpRequest, link: TableLink, *, finish: bool) -> JsonResponse:
    try:
        payload = _body(request)
        if finish:
            table_entry.sheet_finish_at_table(
                link=link, seat=payload.get("seat"), pin=payload.get("pin")
            )
            return JsonResponse({"status": "complete"})
        deals = table_entry.deals_confirm(
            link=link, seat=payload.get("seat"), pin=payload.get("pin")
        )
    except DealError as err:
        return json_error(err.field, _(err.template) % err.params)
    except table_entry.ConfirmationRefused as err:
        return json_error("pin", str(err), 429 if err.throttled else 403)
    except Locked as err:
        return json_error("sheet", " ".join(err.messages), 409)
    return JsonResponse({"confirmed": [deal.number for deal in deals]})


@require_safe
def service_worker(request: HttpRequest) -> HttpResponse:
    """Keeps the table page on the phone so that a reload without Wi-Fi still opens it."""
    script = render(request, "scoring/table_sw.js", {"partial": reverse("table-code")})
    response = HttpResponse(script.content, content_type="application/javascript")
    response["Cache-Control"] = "no-cache"
    response["Service-Worker-Allowed"] = "/table/"
    return response
