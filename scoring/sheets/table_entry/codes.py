"""Players prove who they are at the table with their personal code (on their itinerary card).

Who entered a deal, who confirmed it and who contested it come only from a code checked here,
never from what a request declares. Every attempt is counted before the code is compared, and a
wrong one locks the phone that typed it, never the player (table_entry.guessing has the limits;
table_entry.code_desk what the cockpit shows and the arbiter's unlock).

A phone may be bound to one player once (their code checked): a signed cookie scoped to the
table's link, which dies with a new code.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any

from django.core import signing
from django.utils.crypto import salted_hmac
from django.utils.translation import gettext as _

from scoring.models import ScoreSheet, SheetPlayer, TableLink
from scoring.sheets.table_entry import guessing
from tournament.models import Registration

BINDING_SALT = "tarot-table-binding"
BINDING_MAX_AGE = 16 * 3600  # seconds: a tournament day
BINDING_COOKIE = "tarot_seat"
DEVICE_COOKIE = "tarot_device"


@dataclass(frozen=True)
class Client:
    """Who is guessing: the client address (as the login throttle sees it) and the phone's own
    random device cookie (empty when the phone sent none)."""

    address: str
    device: str = ""


class CodeRefused(Exception):
    """A code that can't be accepted; the message says why (in French)."""

    def __init__(self, message: str, *, throttled: bool = False, field: str = "pin"):
        super().__init__(message)
        self.throttled = throttled
        self.field = field


def seated(link: TableLink, seat: Any) -> Registration | None:
    """The registration at seat index `seat` of the link's table (the sheet's players once the
    sheet exists, the position's seats before).

    The sheet is read first, then its players: a sheet and its players are committed together
    (sheet_for_table), so a sheet seen has its players. Read the other way round, a sheet
    created by another phone of the table between the two reads (its first deal) left this
    one's code refused with "Choisissez votre nom." (the big-event bench, 200 tables)."""
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < 8:
        return None
    sheet = ScoreSheet.objects.filter(table_id=link.table_id).values_list("pk", flat=True).first()
    if sheet is not None:
        player = (
            SheetPlayer.objects.select_related("registration__player")
            .filter(sheet_id=sheet, seat=seat)
            .first()
        )
        return None if player is None else player.registration
    seats = sorted(link.table.seats.select_related("registration__player"), key=lambda s: s.index)
    return seats[seat].registration if seat < len(seats) else None


def code_check(*, link: TableLink, seat: Any, pin: Any, client: Client) -> Registration:
    """The registration at `seat` if `pin` is their personal code. Every attempt is counted
    before it is compared; one the limits refuse (table_entry.guessing) is not compared at all."""
    registration = seated(link, seat)
    if registration is None:
        raise CodeRefused(_("Choisissez votre nom."), field="seat")
    links = {
        "tournament_id": link.table.position.tournament_id,
        "registration_id": registration.pk,
        "table_id": link.table_id,
    }
    try:
        reserved = guessing.admit(registration, client, links)
    except guessing.Throttled as refusal:
        raise CodeRefused(str(refusal), throttled=True) from None
    if not isinstance(pin, str) or not secrets.compare_digest(
        pin.strip().encode()[:16], registration.pin.encode()
    ):
        guessing.wrong(registration, client, links)
        raise CodeRefused(guessing.wrong_message(registration, client))
    guessing.right(registration, client, reserved)
    return registration


def proven(
    *,
    link: TableLink,
    seat: Any = None,
    pin: Any = None,
    client: Client | None = None,
    player: Registration | None = None,
) -> Registration:
    """Who acts: `player` when the caller proved it already (the phone's binding cookie, signed
    by this server, checked by `bound_player`), else the registration whose code was typed."""
    if player is not None:
        return player
    return code_check(link=link, seat=seat, pin=pin, client=client or Client(address="?"))


# --- a phone bound to its player ------------------------------------------------------------


def _pin_digest(registration: Registration) -> str:
    # Keyed with SECRET_KEY: the cookie's payload is readable, the code must not be.
    return salted_hmac(BINDING_SALT, registration.pin).hexdigest()[:20]


def binding_value(link: TableLink, registration: Registration) -> str:
    """The signed cookie value binding this phone to `registration` at this table."""
    payload = {"l": link.pk, "r": registration.pk, "p": _pin_digest(registration)}
    return signing.dumps(payload, salt=BINDING_SALT)


def bound_player(link: TableLink, value: str | None) -> Registration | None:
    """The player this phone was bound to at this table, if the binding still holds (the same
    link, the player still seated there, the same personal code)."""
    if not value or len(value) > 400:
        return None
    try:
        payload = signing.loads(value, salt=BINDING_SALT, max_age=BINDING_MAX_AGE)
    except signing.BadSignature:
        return None
    if not isinstance(payload, dict) or payload.get("l") != link.pk:
        return None
    registration_id = payload.get("r")
    if not isinstance(registration_id, int):
        return None
    in_sheet = SheetPlayer.objects.filter(
        sheet__table_id=link.table_id, registration_id=registration_id
    )
    on_seat = link.table.seats.filter(registration_id=registration_id)
    registration = (
        Registration.objects.select_related("player").filter(pk=registration_id).first()
        if in_sheet.exists() or on_seat.exists()
        else None
    )
    if registration is None or not secrets.compare_digest(
        str(payload.get("p", "")), _pin_digest(registration)
    ):
        return None
    return registration
