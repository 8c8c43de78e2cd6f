"""The venue's desk: every bracket of the session in play at once, each with its cockpit's
summary and a link to its own cockpit; it refreshes itself (an unchanged venue answers 304)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.cache import patch_cache_control
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy
from django.views.decorators.http import require_POST, require_safe

from scoring.events.venue import hall_holder, session_brackets, sessions_of, venue_desk
from scoring.events.wording import carry_text
from scoring.live.versioned import brackets_scope, current_etag, versioned
from tournament.access.permissions import (
    EventRequest,
    Permission,
    event_required,
    may,
    refuse,
)
from tournament.evening import hall
from tournament.public_address import absolute_url

# The venue's rankings as documents (scoring.documents.views.events): in the session's order,
# or in the cumulative one.
DOCUMENT_KINDS = (
    ("seance", _lazy("Classement de la séance")),
    ("cumul", _lazy("Classement cumulé")),
)


def _session_asked(request: EventRequest) -> int | None:
    value = request.GET.get("seance", "")
    return int(value) if value.isascii() and value.isdigit() and len(value) <= 3 else None


DESK = "venue-desk"


def _desk_scope(request: EventRequest, pk: int = 0) -> tuple[int, int]:
    """The session's brackets' revisions, summed (each only grows): any bracket's write moves
    it. Computed for each arbiter (never stored: the desk is theirs), beside the first bracket."""
    _session, brackets = session_brackets(request.event, _session_asked(request))
    return brackets_scope([bracket.pk for bracket in brackets])


def _desk_variant(request: EventRequest, pk: int = 0) -> str:
    session, _brackets = session_brackets(request.event, _session_asked(request))
    return f"{session}:{get_language()}"


def _desk_context(request: EventRequest) -> dict[str, Any]:
    event = request.event
    # The ETag first (the poll's, or read now): the data read after it is never older.
    etag = getattr(request, "live_etag", None) or current_etag(
        DESK, _desk_variant(request), _desk_scope(request)
    )
    session, brackets = session_brackets(event, _session_asked(request))
    return {
        "event": event,
        "session": session,
        "desk": [
            {"bracket": item, "carry": carry_text(item.tournament)} for item in venue_desk(brackets)
        ],
        "poll_seconds": settings.LIVE_POLL_SECONDS,
        "etag": etag,
    }


def _hall_url(request: EventRequest, brackets) -> str:
    holder = hall_holder(request.event, brackets)
    if holder is None:
        return ""
    return absolute_url(request, reverse("event-hall", args=[holder.hall_token]))


@event_required(Permission.EVENT_DESK)
@require_safe
def venue_desk_page(request: EventRequest, pk: int) -> HttpResponse:
    """The venue's desk: main bracket and consolante side by side (stacked on a phone)."""
    context = _desk_context(request)
    session, brackets = session_brackets(request.event, context["session"])
    context |= {
        "sessions": sessions_of(request.event),
        "hall_url": _hall_url(request, brackets),
        "public_url": absolute_url(request, reverse("public-event", args=[pk])),
        "main": brackets[0] if brackets else None,
        "document_kinds": DOCUMENT_KINDS,
        "can_manage_event": may(request.user, Permission.EVENT_MANAGE, request.event),
    }
    response = render(request, "scoring/events/venue/desk.html", context)
    patch_cache_control(response, no_store=True)
    return response


@event_required(Permission.EVENT_DESK)
@require_safe
@versioned(DESK, _desk_variant, scope=_desk_scope, coalesce=False, store=False)
def venue_desk_live(request: EventRequest, pk: int) -> HttpResponse:
    response = render(request, "scoring/events/venue/_desk_live.html", _desk_context(request))
    patch_cache_control(response, no_store=True)
    return response


@event_required(Permission.EVENT_DESK)
@require_POST
def venue_hall_link(request: EventRequest, pk: int) -> HttpResponse:
    """A hall link for the venue, on the session's main bracket (whoever runs it may)."""
    session, brackets = session_brackets(request.event, _session_asked(request))
    if not brackets:
        return redirect("event-venue", pk)
    # Renewed where it was made, so the old link stops working; else made on the main bracket.
    main = hall_holder(request.event, brackets) or brackets[0]
    if not may(request.user, Permission.MANAGE, main):
        return refuse(request)
    renewed = main.hall_token is not None
    hall.hall_link_create(tournament=main, user=request.user)
    messages.success(
        request,
        _("Nouveau lien de l'écran de salle : l'ancien ne fonctionne plus.")
        if renewed
        else _("Lien de l'écran de salle créé : ouvrez-le sur l'écran ou le projecteur."),
    )
    return redirect("event-venue", pk)
