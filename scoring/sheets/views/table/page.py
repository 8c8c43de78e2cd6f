"""The phone page itself: the table's running sheet (what it is drawn from; the page and its
refreshes are live views, scoring.live.views.table), reached by its QR code or by the code
printed on the sheet, and the service worker that keeps it offline."""

from __future__ import annotations

import json
import secrets
from typing import TYPE_CHECKING, Any, NamedTuple

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from scoring.models import Deal, ScoreSheet, TableCall, TableLink
from scoring.sheets import table_entry
from scoring.sheets.screen import load_sheet_view, sheet_is_full
from scoring.sheets.views.table.common import (
    bound,
    client,
    client_address,
)
from tournament.access import throttle
from tournament.seats import sheet_order_key

if TYPE_CHECKING:
    from tournament.models import Registration, Seat

# A deal number taken while a phone was offline: the two versions the phone shows.
CONFLICT_SIDES = [
    ("stored", gettext_lazy("Sur la feuille")),
    ("mine", gettext_lazy("Sur ce téléphone")),
]

# Guessing table codes (6 of 31 letters and digits): attempts per phone, and wrong codes per
# client address, in a window. A room of 60 phones behind one address, each slipping 5 times
# in 10 minutes, stays under ADDRESS_CODE_ATTEMPTS; a phone that keeps guessing stops alone.
DEVICE_CODE_ATTEMPTS = 10
ADDRESS_CODE_ATTEMPTS = 300
CODE_WINDOW = 600  # seconds


def _code_attempt(request: HttpRequest, code: str) -> str | TableLink:
    """The link of `code`, or why not (in French). Each attempt is counted before the code is
    looked up (one atomic statement a counter), so parallel guesses can't slip past a limit;
    the address's count is given back when the code was right."""
    device = client(request).device or f"ip:{client_address(request)}"
    address_key = f"table-code:{client_address(request)}"
    if throttle.hit(f"table-code:d:{device}", CODE_WINDOW) > DEVICE_CODE_ATTEMPTS:
        return _(
            "Trop d'essais depuis ce téléphone : attendez quelques minutes ou demandez à l'arbitre."
        )
    if throttle.hit(address_key, CODE_WINDOW) > ADDRESS_CODE_ATTEMPTS:
        throttle.refund(address_key)
        return _(
            "Trop d'essais depuis ce réseau : attendez quelques minutes ou demandez à l'arbitre."
        )
    link = TableLink.objects.filter(code=code).first() if code else None
    if link is None:
        return _("Code inconnu : vérifiez le code imprimé sur la feuille de la table.")
    throttle.refund(address_key)
    return link


def remember_device(request: HttpRequest, response: HttpResponse) -> HttpResponse:
    """The phone's own random id: wrong codes lock this phone, not the others of its network."""
    if not client(request).device:
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
def table_code(request: HttpRequest) -> HttpResponse:
    """Type the code printed on the table's sheet instead of scanning its QR code."""
    error = ""
    code = ""
    if request.method == "POST":
        code = table_entry.normalise_code(request.POST.get("code", ""))
        found = _code_attempt(request, code)
        if isinstance(found, TableLink):
            return redirect("table-entry", found.token)
        error = found
    status = 400 if error else 200
    context = {"error": error, "code": code}
    return remember_device(
        request, render(request, "scoring/table_code.html", context, status=status)
    )


class SheetState(NamedTuple):
    """What the phone's sheet is drawn from, besides its deals: read once a request (the
    phone's player and the table's call by the variant, then the rest by the page)."""

    sheet: ScoreSheet | None
    seats: list[Seat]  # by seat index
    bound: Registration | None
    call: TableCall | None  # the arbiter's call the phones show (table_entry.table_call_shown)


def sheet_viewer(
    request: HttpRequest, link: TableLink
) -> tuple[Registration | None, TableCall | None]:
    """The phone's player and the call its table shows (it lapses with time, not with a write:
    it is read at each poll, as part of the variant), read once a request."""
    found = getattr(request, "table_viewer", None)
    if found is None:
        found = (bound(request, link), table_entry.table_call_shown(link.table_id))
        request.table_viewer = found  # type: ignore[attr-defined]
    return found


def sheet_state(request: HttpRequest, link: TableLink) -> SheetState:
    state: SheetState | None = getattr(request, "table_sheet_state", None)
    if state is None:
        seats = link.table.seats.select_related("registration__player")
        state = SheetState(
            table_entry.table_sheet(link),
            sorted(seats, key=lambda s: s.index),
            *sheet_viewer(request, link),
        )
        request.table_sheet_state = state  # type: ignore[attr-defined]
    return state


def sheet_context(link: TableLink, state: SheetState) -> dict:
    """The running sheet as the phone shows it (rows, totals, who deals, who waits, who entered
    each waiting deal, which ones this phone's player may correct, how many deals it holds)."""
    table = link.table
    sheet, seats, bound, call = state
    # By seat index, as the engine and the page's script count seats.
    names = [seat.registration.player.full_name for seat in seats]
    # What the page lists: (seat index, name) in the paper sheet's order (N, S, E, O, 5e).
    order = sorted(range(len(seats)), key=lambda i: sheet_order_key(seats[i].direction))
    people = [(seat, names[seat]) for seat in order]
    seat_of = {seat.registration_id: index for index, seat in enumerate(seats)}
    bound_seat = seat_of.get(bound.pk) if bound is not None else None
    context = {
        "call": call,
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
        "next_dealer": 0,
        # The tap rows that are plain choices: the engine's contracts, the oudlers, which side
        # took the petit au bout (none at first).
        "contracts": Deal.Contract.choices,
        "oudlers": [(str(n), str(n)) for n in range(4)],
        "petit_au_bout": [("", _("Non")), *Deal.Side.choices],
        "called_king": table.game == "five",
        "dead_is_dealer": table.game == "five_dead",
        "conflict_sides": CONFLICT_SIDES,
        "deal_count": table.position.tournament.deals_for_table_size(len(seats)),
    }
    if sheet is not None:
        view = load_sheet_view(sheet)
        totals = [0] * len(names)
        for line in view.lines:
            for seat, points in enumerate(line.deal.scores[: len(names)]):
                totals[seat] += points
        context.update(
            totals=[(names[seat], totals[seat]) for seat in order],
            rows=[_row(line, order, names, seat_of, bound_seat) for line in view.lines],
            view=view,
            version=sheet.version,
            next_number=view.next_number,
            next_dealer=view.next_dealer,
            **_waiting(view.lines),
            full=sheet_is_full(view),
            deal_count=view.expected_deals + sheet.extra_deals,
            signers=table_entry.signature_board(sheet, names, order),
            finished=sheet.status in (ScoreSheet.Status.COMPLETE, ScoreSheet.Status.VALIDATED),
        )
    context["dealer_name"] = names[context["next_dealer"]] if names else ""
    return context


def _waiting(lines) -> dict[str, list]:
    """The deals waiting, as the page counts them: only those a player can still confirm, and
    the contested ones apart (issue 38: "2 donnes à confirmer" listed one after a confirmed
    deal was contested), the arbiter's to decide or their enterer's to correct."""
    return {
        "pending": [line for line in lines if line.deal.pending and not line.deal.disputed],
        "referred": [line for line in lines if table_entry.referred(line.deal)],
        "to_correct": [
            line for line in lines if line.deal.disputed and not table_entry.referred(line.deal)
        ],
    }


def _row(line, order, names, seat_of, bound_seat) -> dict[str, Any]:
    """A sheet row on the phone: its scores in the page's order and, while it waits, who
    entered it, whether it is contested, and the inputs its enterer corrects from."""
    deal = line.deal
    enterer = seat_of.get(deal.entered_by_player_id)
    waiting = deal.pending and not deal.disputed
    description = line.description
    if deal.passed or deal.cancelled:
        # Not an empty row: the table sees what the deal was.
        description = _("Tous passent") if deal.passed else _("Donne annulée")
    elif line.detail is not None and deal.taker is not None and deal.taker < len(names):
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
        "scores": [(names[seat], deal.scores[seat]) for seat in order],
        "enterer": names[enterer] if enterer is not None else "",
        # What the confirmation list shows of a deal waiting for the other side.
        "figures": [(names[seat], deal.scores[seat]) for seat in order] if waiting else [],
        "who_confirms": table_entry.who_confirms(deal, enterer, names) if waiting else "",
        "referred": table_entry.referred(deal),
        "mine": deal.pending
        and not table_entry.referred(deal)
        and enterer is not None
        and enterer == bound_seat,
        "inputs": json.dumps(deal.engine_input()) if deal.pending else "",
    }


@require_safe
def service_worker(request: HttpRequest) -> HttpResponse:
    """Keeps the table page on the phone so that a reload without Wi-Fi still opens it."""
    script = render(request, "scoring/table_sw.js", {"partial": reverse("table-code")})
    response = HttpResponse(script.content, content_type="application/javascript")
    response["Cache-Control"] = "no-cache"
    response["Service-Worker-Allowed"] = "/table/"
    return response
