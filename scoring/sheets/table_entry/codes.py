"""Players prove who they are at the table with their personal code (on their itinerary card).

Who entered a deal, who confirmed it and who contested it come only from a code checked here,
never from what a request declares. Guessing is bounded per *target* player and per *guessing
client*, in the database (tournament.access.throttle, one atomic statement an attempt):

- per player and client (address + the phone's device cookie): CLIENT_ALLOWANCE checks, then
  locks of CLIENT_LOCK seconds doubling at each further attempt;
- per player and address (a client changing its cookie): ADDRESS_ALLOWANCE checks, then locks
  of ADDRESS_LOCK seconds, doubling.

A right code clears that client's counts for that player only; another player's success never
resets anything. A stranger's wrong guesses lock only the stranger's own client (and, past
ADDRESS_ALLOWANCE, the address it guesses from), so the real player's phone keeps working. The
desk shows every player with ALERT_FAILURES wrong codes or more and lets the arbiter clear the
counts and issue a new code (README, "Phone entry", gives the arithmetic).

A phone may be bound to one player once (their code checked): a signed cookie scoped to the
table's link, which dies with a new code.
"""

from __future__ import annotations

import math
import secrets
import time
from dataclasses import dataclass
from typing import Any

from django.core import signing
from django.db import transaction
from django.utils.crypto import salted_hmac
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring.models import ScoreSheet, SheetPlayer, TableLink
from tournament.access import throttle
from tournament.access.audit import change_record
from tournament.models import ChangeLog, Counter, Registration, Tournament, new_pin

CLIENT_ALLOWANCE = 3
CLIENT_LOCK = 60.0  # seconds, doubling
ADDRESS_ALLOWANCE = 10
ADDRESS_LOCK = 300.0  # seconds, doubling
ALERT_FAILURES = 5  # wrong codes for one player at one table before the desk shows it
FAILURE_WINDOW = 24 * 3600.0  # seconds the desk's failure count covers
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


def _keys(registration: Registration, client: Client) -> tuple[str, str]:
    address = client.address[:60]
    device = client.device[:40]
    return f"pin:{registration.pk}:c:{address}:{device}", f"pin:{registration.pk}:a:{address}"


def _wait_message(key: str) -> str:
    minutes = max(1, math.ceil((throttle.locked_until(key) - time.time()) / 60))
    return ngettext(
        "Trop de codes erronés pour ce joueur : réessayez dans %(n)s minute ou appelez l'arbitre.",
        "Trop de codes erronés pour ce joueur : réessayez dans %(n)s minutes ou appelez l'arbitre.",
        minutes,
    ) % {"n": minutes}


def code_check(*, link: TableLink, seat: Any, pin: Any, client: Client) -> Registration:
    """The registration at `seat` if `pin` is their personal code; every attempt is counted
    before it is checked, and a locked player/client pair is not checked at all."""
    registration = seated(link, seat)
    if registration is None:
        raise CodeRefused(_("Choisissez votre nom."), field="seat")
    links = {
        "tournament_id": link.table.position.tournament_id,
        "registration_id": registration.pk,
        "table_id": link.table_id,
    }
    client_key, address_key = _keys(registration, client)
    for key, allowance, lock in (
        (client_key, CLIENT_ALLOWANCE, CLIENT_LOCK),
        (address_key, ADDRESS_ALLOWANCE, ADDRESS_LOCK),
    ):
        if not throttle.gate(key, allowance=allowance, lock=lock, links=links):
            raise CodeRefused(_wait_message(key), throttled=True)
    if not isinstance(pin, str) or not secrets.compare_digest(
        pin.strip().encode()[:16], registration.pin.encode()
    ):
        throttle.hit(f"pin-fail:{registration.pk}:{link.table_id}", FAILURE_WINDOW, links=links)
        raise CodeRefused(_("Code personnel erroné."))
    throttle.clear(client_key, address_key)
    return registration


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


# --- what the desk shows and does -----------------------------------------------------------


@dataclass
class CodeAlert:
    """A player whose code was typed wrong again and again at a table (or is locked)."""

    registration: Registration
    table_number: int | None
    failures: int
    locked: bool


def code_alerts(tournament: Tournament) -> list[CodeAlert]:
    """Players of the tournament with ALERT_FAILURES wrong codes or more at one table, or a
    lock in force; two queries."""
    now = time.time()
    failures = list(
        Counter.objects.filter(
            tournament=tournament,
            key__startswith="pin-fail:",
            window_end__gt=now,
            hits__gte=ALERT_FAILURES,
        ).select_related("registration__player", "table")
    )
    locked = set(
        Counter.objects.filter(
            tournament=tournament, key__startswith="pin:", locked_until__gt=now
        ).values_list("registration_id", flat=True)
    )
    alerts = [
        CodeAlert(
            registration=row.registration,
            table_number=row.table.number if row.table else None,
            failures=row.hits,
            locked=row.registration_id in locked,
        )
        for row in failures
        if row.registration is not None
    ]
    return sorted(alerts, key=lambda a: (-a.failures, a.registration.number))


def code_unlock(*, registration: Registration, user: Any, new_code: bool) -> Registration:
    """The arbiter clears a player's wrong-code counts and locks (every client, every table),
    and with `new_code` issues a new personal code (the old card and phone bindings die)."""
    with transaction.atomic():
        Counter.objects.filter(registration=registration).delete()
        after: dict[str, Any] = {"unlocked": True}
        if new_code:
            Registration.objects.filter(pk=registration.pk).update(pin=new_pin())
            registration.refresh_from_db(fields=["pin"])
            after["new_code"] = True
        change_record(
            tournament=registration.tournament_id,
            obj=registration,
            kind=ChangeLog.ObjectType.PLAYER_CODE,
            action=ChangeLog.Action.UPDATE,
            before={"number": registration.number},
            after={"number": registration.number, **after},
            user=user,
        )
    return registration
