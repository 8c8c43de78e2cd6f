"""The tournament's first tab, the arbiter's cockpit, and its controls: the position clock and
the hall screen's link and announcement."""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import wraps
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.cache import patch_cache_control
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from scoring.live.cockpit import cockpit_load, current_position
from scoring.live.shared import request_standings
from scoring.live.versioned import current_etag, versioned
from scoring.models import TableCall
from scoring.qr import qr_svg
from scoring.sheets import table_entry
from scoring.sheets.table_entry.links import phones_enabled
from tournament.access.audit import revision_of
from tournament.access.permissions import (
    Permission,
    TournamentRequest,
    capabilities,
    permission_required,
)
from tournament.evening import clock, hall
from tournament.evening.selectors import played_positions, position_or_404
from tournament.players.selectors import registration_or_404
from tournament.public_address import absolute_url, unreachable_from_phones

if TYPE_CHECKING:
    from tournament.models import Tournament

CLOCK_HEADER = "X-Position-Clock"


def clock_header_value(tournament: Tournament) -> str:
    """The clock of the position in play, as JSON, computed at this instant (one query)."""
    position = current_position(list(played_positions(tournament)))
    state = clock.state_of(position) if position is not None else None
    if position is None or state is None:
        return "null"
    return json.dumps(
        {
            "position": position.number,
            "remaining": state.remaining,
            "running": state.running,
            "paused": state.paused,
        }
    )


def live(view: Callable) -> Callable:
    """A polled part: never stored by the browser (the script sends the ETag it holds, so it
    sees a 304 as a 304), and the clock's remaining seconds in a header even on a 304 so that
    the countdown is re-synced on every poll."""

    @wraps(view)
    def wrapper(request: TournamentRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        response = view(request, *args, **kwargs)
        patch_cache_control(response, no_store=True)
        if response.status_code in (200, 304):
            response[CLOCK_HEADER] = clock_header_value(request.tournament)
        return response

    return wrapper


COCKPIT = "cockpit"


def _cockpit_variant(request: TournamentRequest, pk: int) -> str:
    """The language, and whether the viewer manages (the controls shown)."""
    manage = capabilities(request.user, request.tournament)["manage"]
    return f"{get_language()}:{int(manage)}"


def _cockpit_scope(request: TournamentRequest, *args: object, **kwargs: object) -> tuple[int, int]:
    """The revision and the attempts at the tournament's codes (a locked code shows here)."""
    return request.tournament.pk, revision_of(request.tournament.pk, attempts=True)


def _cockpit_context(request: TournamentRequest, tournament: Tournament) -> dict[str, object]:
    # The ETag first (the poll's, or read now): the data read after it is never older.
    etag = getattr(request, "live_etag", None) or current_etag(
        COCKPIT, _cockpit_variant(request, tournament.pk), _cockpit_scope(request)
    )
    can = capabilities(request.user, tournament)
    cockpit = cockpit_load(tournament, request_standings(request, public=False).standings)
    return {
        "tournament": tournament,
        "tab": "dashboard",
        "can": can,
        "can_edit": can["manage"],
        "cockpit": cockpit,
        "poll_seconds": settings.LIVE_POLL_SECONDS,
        "etag": etag,
    }


def _phone_address(request: TournamentRequest, tournament: Tournament) -> dict[str, object]:
    """Where phones go, when the tournament has them (deals entered at the tables, public
    standings): the address and its QR code, or why no phone can reach this one."""
    if not (phones_enabled(tournament) or tournament.is_public):
        return {}
    if phones_enabled(tournament):
        path = reverse("table-code")
    else:
        path = reverse("public-tournament", args=[tournament.pk])
    url = absolute_url(request, path)
    if unreachable_from_phones(request):
        return {"phone_url": url, "phones_unreachable": True}
    return {"phone_url": url, "phone_qr": qr_svg(url)}


@permission_required(Permission.VIEW)
@require_safe
def tournament_detail(request: TournamentRequest, pk: int) -> HttpResponse:
    """The cockpit: the position in play and its clock, every table's sheet, what waits for the
    arbiter, the leaders and the next actions; its live part refreshes itself."""
    tournament = request.tournament
    context = _cockpit_context(request, tournament)
    if tournament.hall_token:
        context["hall_url"] = absolute_url(
            request, reverse("hall-screen", args=[tournament.hall_token])
        )
    context.update(_phone_address(request, tournament))
    response = render(request, "tournament/tournament_detail.html", context)
    patch_cache_control(response, no_store=True)
    return response


@permission_required(Permission.VIEW)
@require_safe
@live
@versioned(
    COCKPIT, _cockpit_variant, scope=_cockpit_scope, coalesce=False, store=False
)  # its forms hold CSRF tokens
def cockpit_live(request: TournamentRequest, pk: int) -> HttpResponse:
    return render(
        request, "tournament/_cockpit_live.html", _cockpit_context(request, request.tournament)
    )


def _errors(request: TournamentRequest, error: ValidationError) -> None:
    for message in error.messages:
        messages.error(request, message)


CLOCK_ACTIONS = {
    "start": lambda position, minutes, user: clock.clock_start(position=position, user=user),
    "pause": lambda position, minutes, user: clock.clock_pause(position=position, user=user),
    "resume": lambda position, minutes, user: clock.clock_resume(position=position, user=user),
    "add": lambda position, minutes, user: clock.clock_add(
        position=position, minutes=minutes, user=user
    ),
}


@permission_required(Permission.MANAGE)
@require_POST
def position_clock(request: TournamentRequest, pk: int, number: int) -> HttpResponse:
    """Start, pause, resume or extend the position's clock (arbiters only)."""
    position = position_or_404(pk, number)
    action = CLOCK_ACTIONS.get(request.POST.get("action", ""))
    if action is None:
        messages.error(request, _("Horloge : action inconnue."))
    else:
        try:
            action(position, request.POST.get("minutes"), request.user)
        except ValidationError as error:
            _errors(request, error)
    return redirect("tournament-detail", pk)


@permission_required(Permission.MANAGE)
@require_POST
def hall_link_create(request: TournamentRequest, pk: int) -> HttpResponse:
    renewed = request.tournament.hall_token is not None
    hall.hall_link_create(tournament=request.tournament, user=request.user)
    messages.success(
        request,
        _("Nouveau lien de l'écran de salle : l'ancien ne fonctionne plus.")
        if renewed
        else _("Lien de l'écran de salle créé : ouvrez-le sur l'écran ou le projecteur."),
    )
    return redirect("tournament-detail", pk)


@permission_required(Permission.MANAGE)
@require_POST
def hall_link_revoke(request: TournamentRequest, pk: int) -> HttpResponse:
    hall.hall_link_revoke(tournament=request.tournament, user=request.user)
    messages.success(request, _("Lien de l'écran de salle révoqué : il ne fonctionne plus."))
    return redirect("tournament-detail", pk)


@permission_required(Permission.MANAGE)
@require_POST
def hall_announcement(request: TournamentRequest, pk: int) -> HttpResponse:
    try:
        hall.hall_announcement_set(
            tournament=request.tournament,
            text=request.POST.get("hall_announcement", ""),
            user=request.user,
        )
    except ValidationError as error:
        _errors(request, error)
    else:
        messages.success(request, _("Annonce en salle enregistrée."))
    return redirect("tournament-detail", pk)


@permission_required(Permission.SCORE)
@require_POST
def call_take(request: TournamentRequest, pk: int, call: int) -> HttpResponse:
    """An arbiter goes to the table that called: the call leaves the screens (logged)."""
    found = TableCall.objects.filter(pk=call, table__position__tournament=request.tournament)
    taken = found.select_related("table__position").first()
    if taken is not None:
        table_entry.call_take(call=taken, user=request.user)
        messages.success(
            request,
            _("Appel de la table %(number)s pris en charge.") % {"number": taken.table.number},
        )
    return redirect("tournament-detail", pk)


@permission_required(Permission.MANAGE)
@require_POST
def code_unlock(request: TournamentRequest, pk: int, registration: int) -> HttpResponse:
    """Unlock a player's code (with the number a refused phone shows, that phone in particular);
    with "nouveau code", issue a new personal code (to reprint on their itinerary card)."""
    found = registration_or_404(request.tournament, registration)
    new_code = request.POST.get("new_code") == "1"
    device = request.POST.get("device", "")[:12]
    try:
        table_entry.code_unlock(
            registration=found, user=request.user, new_code=new_code, device=device
        )
    except table_entry.UnknownDevice as err:
        messages.error(request, str(err))
        return redirect("tournament-detail", pk)
    if new_code:
        messages.success(
            request,
            _("Nouveau code personnel de %(name)s : %(pin)s (l'ancien ne fonctionne plus).")
            % {"name": found.player.full_name, "pin": found.pin},
        )
    else:
        messages.success(
            request, _("Code de %(name)s débloqué.") % {"name": found.player.full_name}
        )
    return redirect("tournament-detail", pk)
