"""Itinerary cards: for each player, the table and seat at every position, eight cards a page.

Every card gives the player's personal code, with which they confirm on a phone the deals
entered by the other side of their table: phone entry may be switched on after the cards are
printed, and a card without its code would then be useless. A draft position's stop says it may
still change ("brouillon — peut changer"), or is left blank when the arbiter prints without drafts.
When the standings are public, a card carries the QR code and address of the player's own page.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urljoin

from django.urls import reverse
from django.utils.translation import gettext as _

from scoring.documents.printing.render import render_pdf
from scoring.qr import qr_svg
from scoring.sheets.table_entry.links import phones_enabled
from tournament.models import Position, Registration, Seat, Tournament
from tournament.players.importing import normalise

TEMPLATE = "print/itinerary_cards.html"


@dataclass(frozen=True)
class Stop:
    position: int
    table: int | None  # None: not seated yet, or not playing that position
    seat: str
    playing: bool = True
    draft: bool = False  # the position is a draft: its table may still change
    direction: str = ""  # the seat's letter (N, E, S, W, X): what the card said, any language


@dataclass(frozen=True)
class Card:
    name: str
    number: int
    team: str
    stops: list[Stop]
    pin: str = ""  # the personal code confirming deals on phones
    registration_id: int = 0


def itinerary_cards(
    tournament: Tournament, *, drafts: bool = True, numbers: set[int] | None = None
) -> list[Card]:
    """Active players alphabetically (only those `numbers`, when given), in three queries
    whatever the tournament's size."""
    found = Registration.objects.filter(tournament=tournament, status=Registration.Status.ACTIVE)
    if numbers is not None:
        found = found.filter(number__in=numbers)
    registrations = list(found.select_related("player", "team").order_by("number"))
    seats: dict[tuple[int, int], Seat] = {
        (seat.registration_id, seat.table.position.number): seat
        for seat in Seat.objects.filter(table__position__tournament=tournament).select_related(
            "table__position"
        )
    }
    numbers = set(tournament.positions.values_list("number", flat=True))
    # Positions not generated yet still get a line, for the arbiter to announce them.
    numbers |= set(range(1, tournament.positions_count + 1))
    cards = []
    for registration in registrations:
        stops = []
        for number in sorted(numbers):
            seat = seats.get((registration.pk, number))
            draft = seat is not None and seat.table.position.status == Position.Status.DRAFT
            if seat is not None and draft and not drafts:
                stops.append(Stop(number, None, "", True, draft=True))
            elif seat is not None:
                stops.append(
                    Stop(
                        number,
                        seat.table.number,
                        seat.get_direction_display(),
                        draft=draft,
                        direction=seat.direction,
                    )
                )
            else:
                stops.append(Stop(number, None, "", registration.plays_position(number)))
        cards.append(
            Card(
                name=registration.player.full_name,
                number=registration.number,
                team=registration.team.name if registration.team else "",
                stops=stops,
                pin=registration.pin,
                registration_id=registration.pk,
            )
        )
    cards.sort(key=lambda card: (normalise(card.name), card.number))
    return cards


def own_page(tournament: Tournament, card: Card, base_url: str | None) -> dict[str, str]:
    """The player's own page (rank, total, next table and seat, deals), as the card prints it:
    its absolute address and QR code; nothing while the standings are not public (the page is a
    404 then) or without a base URL (a relative link can't be scanned)."""
    if not tournament.is_public or not base_url or not card.registration_id:
        return {"url": "", "qr": ""}
    url = urljoin(base_url, reverse("public-player", args=[tournament.pk, card.registration_id]))
    return {"url": url, "qr": qr_svg(url)}


def itinerary_cards_pdf(
    tournament: Tournament,
    *,
    drafts: bool = True,
    base_url: str | None = None,
    cards: list[Card] | None = None,
) -> bytes:
    cards = itinerary_cards(tournament, drafts=drafts) if cards is None else cards
    return render_pdf(
        TEMPLATE,
        {
            "tournament": tournament,
            "cards": [{"card": card, **own_page(tournament, card, base_url)} for card in cards],
            "phones": phones_enabled(tournament),
            "document_title": _("Cartes d'itinéraire"),
        },
        base_url,
    )
