"""Itinerary cards to reprint: what each player's last printed card said, against now.

Printing the cards keeps, player by player, the personal code and the seats the card gave
(`Registration.card_printed`). A card is to reprint when the player's code changed since (the
cockpit's "Nouveau code") or a seat it names changed (a swap, a re-plan of draft positions).
The cockpit lists them, with a link printing those cards only, until they are printed again.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.db import transaction

from tournament.access.audit import change_record
from tournament.models import Registration, Seat, Tournament

if TYPE_CHECKING:  # the card printed (scoring.documents builds on this module)
    from scoring.documents.printing.itinerary_cards import Card


@dataclass(frozen=True)
class Reprint:
    registration: Registration
    new_code: bool  # the code on the card no longer works
    moved: tuple[int, ...]  # positions whose seat on the card is no longer the player's


def card_content(card: Card) -> dict[str, Any]:
    """What a printed card tells: the code, and each seat it names ("3 N" by position)."""
    return {
        "pin": card.pin,
        "seats": {str(s.position): f"{s.table} {s.direction}" for s in card.stops if s.table},
    }


@transaction.atomic
def cards_printed(*, tournament: Tournament, cards: list[Card], user: Any = None) -> None:
    """Remember what these cards say (one update), logged in the tournament's history."""
    if not cards:
        return
    printed = [
        Registration(pk=card.registration_id, card_printed=card_content(card)) for card in cards
    ]
    Registration.objects.bulk_update(printed, ["card_printed"])
    change_record(
        tournament=tournament,
        obj=tournament,
        action="update",
        after={"itinerary_cards_printed": sorted(card.number for card in cards)},
        user=user,
    )


def cards_to_reprint(tournament: Tournament) -> list[Reprint]:
    """The players whose printed card is out of date, by number; two queries at most."""
    printed = list(
        Registration.objects.filter(
            tournament=tournament,
            status=Registration.Status.ACTIVE,
            card_printed__isnull=False,
        )
        .select_related("player")
        .order_by("number")
    )
    if not printed:
        return []
    now = {
        (rid, str(number)): f"{table} {direction}"
        for rid, number, table, direction in Seat.objects.filter(
            table__position__tournament=tournament
        ).values_list("registration_id", "table__position__number", "table__number", "direction")
    }
    out = []
    for registration in printed:
        card = registration.card_printed or {}
        moved = tuple(
            sorted(
                int(number)
                for number, seat in (card.get("seats") or {}).items()
                if now.get((registration.pk, number)) != seat
            )
        )
        new_code = card.get("pin") != registration.pin
        if new_code or moved:
            out.append(Reprint(registration, new_code, moved))
    return out
