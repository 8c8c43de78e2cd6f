"""What every view of the phone page shares: the link as credential, who the phone is, the
JSON body of a write and the one JSON answer of every refusal."""

from __future__ import annotations

import json
from functools import wraps
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from scoring.core.deal import DealError
from scoring.http import body_schema, json_body
from scoring.models import TableLink
from scoring.sheets import table_entry
from scoring.sheets.services import StaleSheetError
from tournament.access.lifecycle import Locked
from tournament.access.permissions import json_error
from tournament.core.schema import Shape

# What a write may be refused for, each answered by `refused`.
REFUSALS = (
    DealError,
    table_entry.CodeRefused,
    StaleSheetError,
    Locked,
    table_entry.CallRefused,
    table_entry.DealNumberTaken,
)


# The phone's page asks for refusals in the answer's body (header value "body"): a refusal is an
# answer it shows in French, and a 4xx status would log a browser console error for each one.
REFUSAL_HEADER = "X-Refusal-Answer"


def answered(request: HttpRequest, response: HttpResponse) -> HttpResponse:
    """A refusal (a JSON 4xx) as the phone's page asked for it: status 200 with the refusal's
    own status in `refused`. Other clients (the JSON API, tests, scripts) keep the 4xx."""
    if request.headers.get(REFUSAL_HEADER) != "body" or not 400 <= response.status_code < 500:
        return response
    if response.get("Content-Type") != "application/json":
        return response
    data = json.loads(response.content)
    data["refused"] = response.status_code
    return JsonResponse(data)


def _closed(request: HttpRequest, token: str) -> HttpResponse:
    """The page of a link no longer open: a closed position's says so, and sends what the
    phone still holds to the arbiter as late deals (static/js/table_closed.js)."""
    link = table_entry.closed_link(token)
    context = {"link": link, "position": link.table.position if link is not None else None}
    return render(request, "scoring/table_closed.html", context, status=404)


def _body(request: HttpRequest, schema: Shape) -> dict[str, Any]:
    return json_body(request.body, schema, field="body", unreadable=_("Corps JSON illisible."))


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
                    return _closed(request, token)
                return json_error(None, _("Ce lien de table n'est plus valable."), 404)
            return view(request, link, **kwargs)

        return wrapper

    return decorator


def table_write(schema: Shape, *, after_close=None):
    """A write from the phone: a POST through the table's link, the view called with the
    request's JSON body once it matches `schema` (scoring.core.bodies), and every refusal
    (REFUSALS, a malformed field among them) answered as JSON. With `after_close` (a view of
    the same shape), a link whose position closed runs it instead of refusing: a deal a phone
    still held is kept for the arbiter."""

    def decorator(view):
        @require_POST
        @body_schema(schema)
        @wraps(view)
        def wrapper(request: HttpRequest, token: str, **kwargs: Any) -> HttpResponse:
            chosen = view
            try:
                link = table_entry.link_for(token)
            except table_entry.TableClosed:
                closed = table_entry.closed_link(token) if after_close is not None else None
                if closed is None:
                    gone = json_error(None, _("Ce lien de table n'est plus valable."), 404)
                    return answered(request, gone)
                link, chosen = closed, after_close
            try:
                return answered(request, chosen(request, link, _body(request, schema), **kwargs))
            except REFUSALS as err:
                return answered(request, refused(err))

        return wrapper

    return decorator


def queue_reported(request: HttpRequest, link: TableLink, count: Any) -> None:
    """Keep what this phone says it still holds unsent (the desk shows it before a close): only
    a phone bound to a player of the table says so; a stranger's count would hold up the close."""
    if bound(request, link) is None:
        return
    table_entry.phone_queue_report(link=link, device=client(request).device, count=count)


def reports_queue(view):
    """A phone's refresh says in its X-Queued-Deals header how many deals it holds unsent
    (static/js/table_entry.js, only when that moved): kept before the view answers, 304s too."""

    @wraps(view)
    def wrapper(request: HttpRequest, link: TableLink, **kwargs: Any) -> HttpResponse:
        count = request.headers.get("X-Queued-Deals", "")
        if count.isdigit() and len(count) <= 3:
            queue_reported(request, link, int(count))
        return view(request, link, **kwargs)

    return wrapper


def refused(err: Exception) -> JsonResponse:
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
    if isinstance(err, table_entry.DealNumberTaken):
        return json_error("number", str(err), 409, **table_entry.conflict_answer(err))
    raise err


def client_address(request: HttpRequest) -> str:
    # The same address as the login throttle sees (the trusted proxy setting applies).
    return settings.AXES_CLIENT_IP_CALLABLE(request) or "?"


def client(request: HttpRequest) -> table_entry.Client:
    """The guessing client: its address and the phone's own random cookie."""
    device = request.COOKIES.get(table_entry.DEVICE_COOKIE, "")
    if not device.isalnum():
        device = ""
    return table_entry.Client(address=client_address(request), device=device[:40])


def code_sent(request: HttpRequest, payload: dict[str, Any]) -> dict[str, Any]:
    """A personal code sent with a write, as table_entry's checks take it: the seat it claims,
    its pin and the guessing client."""
    return {"seat": payload.get("seat"), "pin": payload.get("pin"), "client": client(request)}


def who_acts(request: HttpRequest, link: TableLink, payload: dict[str, Any]) -> dict[str, Any]:
    """Who confirms or contests: the code sent with the write (its seat and pin), or, with none,
    the player this phone is bound to (their code was checked when they bound it)."""
    if "pin" in payload:
        return code_sent(request, payload)
    player = bound(request, link)
    if player is None:
        raise table_entry.CodeRefused(
            _("Identifiez-vous d'abord : votre nom et votre code personnel, en haut de la page."),
            field="seat",
        )
    return {"player": player}


def bound(request: HttpRequest, link: TableLink):
    """The player this phone was bound to (its binding cookie), or None."""
    return table_entry.bound_player(link, request.COOKIES.get(table_entry.BINDING_COOKIE))
