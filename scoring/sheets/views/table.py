"""A table's own page on the players' phones: no account, a secret link scoped to one table.

The link's token opens one table (refused once the position is closed, the tournament finished
or the arbiter revoked it) and reads or writes nothing else. Who enters, confirms, contests or
corrects a deal is proved by a personal code the server checks (scoring.sheets.table_entry.codes):
from the phone's binding cookie, set once the player typed their code, or from a code sent with
the request; never from a seat the request names. Writes answer JSON so that the phone can queue
them offline and resend them.
"""

from __future__ import annotations

import json
import secrets
from functools import wraps
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST, require_safe

from scoring.core.engine import DealError
from scoring.http import json_object
from scoring.models import Deal, ScoreSheet, TableLink
from scoring.sheets import table_entry
from scoring.sheets.screen import load_sheet_view, sheet_is_full
from scoring.sheets.services import StaleSheetError, compute_scores, deal_input_check
from tournament.access import throttle
from tournament.access.lifecycle import Locked
from tournament.access.permissions import json_error
from tournament.public_address import absolute_url
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
        def wrapper(request: HttpRequest, token: str, **kwargs: Any) -> HttpResponse:
            try:
                link = table_entry.link_for(token)
            except table_entry.TableClosed:
                if page:
                    return _closed(request)
                return json_error(None, _("Ce lien de table n'est plus valable."), 404)
            return view(request, link, **kwargs)

        return wrapper

    return decorator


def _client_address(request: HttpRequest) -> str:
    # The same address as the login throttle sees (the trusted proxy setting applies).
    return settings.AXES_CLIENT_IP_CALLABLE(request) or "?"


def _client(request: HttpRequest) -> table_entry.Client:
    """The guessing client: its address and the phone's own random cookie."""
    device = request.COOKIES.get(table_entry.DEVICE_COOKIE, "")
    if not device.isalnum():
        device = ""
    return table_entry.Client(address=_client_address(request), device=device[:40])


def _bound(request: HttpRequest, link: TableLink):
    return table_entry.bound_player(link, request.COOKIES.get(table_entry.BINDING_COOKIE))


def _table_path(link: TableLink) -> str:
    return reverse("table-entry", args=[link.token])


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


def _sheet_context(link: TableLink, bound=None) -> dict:
    """The running sheet as the phone shows it (rows, totals, bilans, who deals, who waits,
    who entered each waiting deal and which ones this phone's player may correct)."""
    table = link.table
    sheet = table_entry.table_sheet(link)
    seats = sorted(table.seats.select_related("registration__player"), key=lambda s: s.index)
    # By seat index, as the engine and the page's script count seats.
    names = [seat.registration.player.full_name for seat in seats]
    # What the page lists: (seat index, name) in the paper sheet's order (N, S, E, O, 5e).
    order = sorted(range(len(seats)), key=lambda i: sheet_order_key(seats[i].direction))
    people = [(seat, names[seat]) for seat in order]
    seat_of = {seat.registration_id: index for index, seat in enumerate(seats)}
    bound_seat = seat_of.get(bound.pk) if bound is not None else None
    next_dealer = 0
    context = {
        "bound": bound,
        "bound_seat": bound_seat,
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
            rows=[_row(line, order, names, seat_of, bound_seat) for line in view.lines],
            view=view,
            version=sheet.version,
            next_number=view.next_number,
            next_dealer=next_dealer,
            pending=[line for line in view.lines if line.deal.pending],
            full=sheet_is_full(view),
        )
    context["dealer_name"] = names[next_dealer] if names else ""
    return context


def _row(line, order, names, seat_of, bound_seat) -> dict[str, Any]:
    """A sheet row on the phone: its scores in the page's order and, while it waits, who
    entered it, whether it is contested, and the inputs its enterer corrects from."""
    deal = line.deal
    enterer = seat_of.get(deal.entered_by_player_id)
    description = line.description
    if line.detail is not None and deal.taker is not None and deal.taker < len(names):
        # A seat letter means little on a phone: the contract and the taker's name lead.
        lead = f"{deal.get_contract_display()} · {names[deal.taker]}"
        if deal.partner is not None and deal.partner < len(names):
            lead += f" + {names[deal.partner]}"
        elif line.detail.alone:
            lead += " " + line.detail.alone_text
        description = line.detail.text_led_by(lead)
    return {
        "line": line,
        "description": description,
        "scores": [deal.scores[seat] for seat in order],
        "enterer": names[enterer] if enterer is not None else "",
        "mine": deal.pending and enterer is not None and enterer == bound_seat,
        "inputs": json.dumps(deal.engine_input()) if deal.pending else "",
    }


@never_cache
@require_safe
@table_link(page=True)
def table_entry_page(request: HttpRequest, link: TableLink) -> HttpResponse:
    context = _sheet_context(link, _bound(request, link))
    # The short way back to this page, printed under the bookmark hint: the table's code there.
    context["code_page"] = absolute_url(request, reverse("table-code"))
    response = render(request, "scoring/table_entry.html", context)
    if not _client(request).device:
        # The phone's own random id: wrong codes lock this phone, not the table's other ones.
        response.set_cookie(
            table_entry.DEVICE_COOKIE,
            secrets.token_hex(16),
            max_age=365 * 24 * 3600,
            path="/table/",
            httponly=True,
            samesite="Lax",
            secure=request.is_secure(),
        )
    return response


@never_cache
@require_safe
@table_link(page=True)
def table_sheet_partial(request: HttpRequest, link: TableLink) -> HttpResponse:
    """The running sheet, refreshed by the phone after each save and every few seconds."""
    return render(request, "scoring/_table_sheet.html", _sheet_context(link, _bound(request, link)))


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


def _enterer(request: HttpRequest, link: TableLink, payload: dict[str, Any]):
    """Who enters or corrects: a code sent with the request (its seat and pin), else the
    player this phone was bound to. Never a seat alone."""
    if "pin" in payload:
        return table_entry.code_check(
            link=link,
            seat=payload.get("entered_by"),
            pin=payload.get("pin"),
            client=_client(request),
        )
    registration = _bound(request, link)
    if registration is None:
        raise table_entry.CodeRefused(
            _("Identifiez-vous d'abord : votre nom et votre code personnel, en haut de la page."),
            field="entered_by",
        )
    return registration


def _refused(err: Exception) -> JsonResponse:
    """The one JSON answer of the table's refusals."""
    if isinstance(err, DealError):
        return json_error(err.field, _(err.template) % err.params)
    if isinstance(err, table_entry.CodeRefused):
        return json_error(err.field, str(err), 429 if err.throttled else 403)
    if isinstance(err, StaleSheetError):
        return json_error(
            "version",
            _(
                "La feuille a changé sur un autre téléphone (donne ajoutée ou confirmée). "
                "Vérifiez la feuille puis renvoyez."
            ),
            409,
            version=err.sheet.version,
        )
    if isinstance(err, Locked):
        return json_error("sheet", " ".join(err.messages), 409)
    if isinstance(err, table_entry.CallRefused):
        return json_error("call", str(err), 429)
    raise err


REFUSALS = (
    DealError,
    table_entry.CodeRefused,
    StaleSheetError,
    Locked,
    table_entry.CallRefused,
)


def _deal_answer(deal: Deal, *, status: int, replayed: bool = False) -> JsonResponse:
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
        status=status,
    )


@require_POST
@table_link(page=False)
def table_identify(request: HttpRequest, link: TableLink) -> JsonResponse:
    """A player proves who they are once (name and personal code): this phone then enters the
    table's deals in their name, until the position ends or they leave it."""
    try:
        payload = _body(request)
        registration = table_entry.code_check(
            link=link, seat=payload.get("seat"), pin=payload.get("pin"), client=_client(request)
        )
    except REFUSALS as err:
        return _refused(err)
    response = JsonResponse({"name": registration.player.full_name})
    response.set_cookie(
        table_entry.BINDING_COOKIE,
        table_entry.binding_value(link, registration),
        max_age=table_entry.codes.BINDING_MAX_AGE,
        path=_table_path(link),
        httponly=True,
        samesite="Lax",
        secure=request.is_secure(),
    )
    return response


@require_POST
@table_link(page=False)
def table_forget(request: HttpRequest, link: TableLink) -> JsonResponse:
    """This phone stops entering in its player's name (the phone changes hands)."""
    response = JsonResponse({"name": None})
    response.delete_cookie(table_entry.BINDING_COOKIE, path=_table_path(link), samesite="Lax")
    return response


@require_POST
@table_link(page=False)
def table_deal_create(request: HttpRequest, link: TableLink) -> JsonResponse:
    """Record a deal typed at the table; a resend of the same client id answers the original."""
    try:
        payload = _body(request)
        client_id = table_entry.check_client_id(payload.get("client_id"))
        earlier = table_entry.replayed_deal(link, client_id)
        if earlier is not None:
            return _deal_answer(earlier, status=200, replayed=True)
        deal, replayed = table_entry.phone_deal_record(
            link=link,
            client_id=client_id,
            data=payload.get("deal"),
            version=payload.get("version"),
            enterer=_enterer(request, link, payload),
        )
    except REFUSALS as err:
        return _refused(err)
    return _deal_answer(deal, status=200 if replayed else 201, replayed=replayed)


@require_POST
@table_link(page=False)
def table_deal_correct(request: HttpRequest, link: TableLink, number: int) -> JsonResponse:
    """The player who entered a waiting deal corrects it; it waits for a new confirmation."""
    try:
        payload = _body(request)
        deal = table_entry.phone_deal_correct(
            link=link,
            number=number,
            data=payload.get("deal"),
            version=payload.get("version"),
            enterer=_enterer(request, link, payload),
        )
    except REFUSALS as err:
        return _refused(err)
    return _deal_answer(deal, status=200)


@require_POST
@table_link(page=False)
def table_confirm(request: HttpRequest, link: TableLink) -> JsonResponse:
    """A player of the other side confirms the waiting deals with their personal code."""
    try:
        payload = _body(request)
        deals = table_entry.deals_confirm(
            link=link,
            seat=payload.get("seat"),
            pin=payload.get("pin"),
            client=_client(request),
            version=payload.get("version"),
        )
    except REFUSALS as err:
        return _refused(err)
    return JsonResponse({"confirmed": [deal.number for deal in deals]})


@require_POST
@table_link(page=False)
def table_contest(request: HttpRequest, link: TableLink) -> JsonResponse:
    """A player of the other side refuses a waiting deal, with their code and a word."""
    try:
        payload = _body(request)
        deal = table_entry.deal_contest(
            link=link,
            seat=payload.get("seat"),
            pin=payload.get("pin"),
            number=payload.get("number"),
            note=payload.get("note"),
            client=_client(request),
        )
    except REFUSALS as err:
        return _refused(err)
    return JsonResponse({"contested": deal.number})


@require_POST
@table_link(page=False)
def table_finish(request: HttpRequest, link: TableLink) -> JsonResponse:
    """The table says its sheet is complete (the arbiter still validates it)."""
    try:
        payload = _body(request)
        table_entry.sheet_finish_at_table(
            link=link, seat=payload.get("seat"), pin=payload.get("pin"), client=_client(request)
        )
    except REFUSALS as err:
        return _refused(err)
    return JsonResponse({"status": "complete"})


@require_POST
@table_link(page=False)
def table_call(request: HttpRequest, link: TableLink) -> JsonResponse:
    """Any player calls the arbiter to the table (the link is the credential; one open call
    a table, and a bounded number an hour)."""
    try:
        payload = _body(request)
        call = table_entry.arbiter_call(
            link=link, deal_number=payload.get("number"), note=payload.get("note")
        )
    except REFUSALS as err:
        return _refused(err)
    return JsonResponse({"call": call.pk, "since": call.created_at.isoformat()})


@require_safe
def service_worker(request: HttpRequest) -> HttpResponse:
    """Keeps the table page on the phone so that a reload without Wi-Fi still opens it."""
    script = render(request, "scoring/table_sw.js", {"partial": reverse("table-code")})
    response = HttpResponse(script.content, content_type="application/javascript")
    response["Cache-Control"] = "no-cache"
    response["Service-Worker-Allowed"] = "/table/"
    return response
