"""The limits on personal codes typed at a table: what a wrong code locks, and for whom.

A wrong code locks the *phone* that typed it (its device cookie), never the player it was typed
for. Guessing is still bounded when the guesser changes its cookie at each try, by a budget per
network address that only phones *vouched for* a player skip (README, "Phone entry"):

- per player and phone: CLIENT_ALLOWANCE wrong codes (a passed-around phone's slips), then
  locks of CLIENT_LOCK seconds doubling at each further try (throttle.gate). A right code
  clears that phone's count.
- per player and address: PLAYER_BUDGET wrong codes an hour from phones not vouched for that
  player; per address: ROOM_BUDGET wrong codes an hour, all players together. Each attempt is
  reserved before the code is compared (throttle.hit) and given back when it was right or
  refused by another limit (throttle.refund): a budget counts exactly the wrong codes checked.
  Over budget, only this player's unvouched phones at that address wait; their bound phone
  (vouched) never does.
- a phone is vouched for a player once it typed their right code (VOUCH_WINDOW), or when the
  arbiter unlocks that phone for them from the cockpit (by the number the refused phone shows).
- the arbiter's plain unlock (without a phone's number) opens a grant for the player
  (GRANT_WINDOW): a phone that never typed a wrong code for them gets its try past the player's
  spent budget (counted in it all the same; the room's budget still refuses), so the player's
  new phone works while a script keeps making new cookies; each of the script's phones gets one
  try, and its phones that typed a wrong code stay refused. The player's right code closes the
  grant.

Every count is one atomic statement on a `Counter` row (tournament.access.throttle), shared by
every server process.
"""

from __future__ import annotations

import math
import time
from typing import TYPE_CHECKING, Any

from django.utils.crypto import salted_hmac
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournament.access import throttle

if TYPE_CHECKING:
    from scoring.sheets.table_entry.codes import Client
    from tournament.models import Registration

# An older player's fingers slip: four slips still leave a fifth try before any lock (issue 38).
CLIENT_ALLOWANCE = 5
CLIENT_LOCK = 60.0  # seconds, doubling
# One phone alone types at most 5 + 5 wrong codes in its first hour (locks of 1, 2, 4, 8, 16
# minutes between the last five): under PLAYER_BUDGET, so it never spends a player's budget.
PLAYER_BUDGET = 12  # wrong codes an hour for one player from one address, unvouched phones
# A room of 60 phones behind one address, each slipping 5 times an hour: 300.
ROOM_BUDGET = 300  # wrong codes an hour from one address, all players, unvouched phones
BUDGET_WINDOW = 3600.0  # seconds
VOUCH_WINDOW = 16 * 3600.0  # seconds: a tournament day
FAILURE_WINDOW = 24 * 3600.0  # seconds the cockpit's failure count covers
GRANT_WINDOW = 1800.0  # seconds a plain unlock lets a new phone past the player's budget
TAG_SALT = "tarot-device-tag"


def device_of(client: Client) -> str:
    """The phone as the locks know it: its device cookie, or its address when it sent none
    (every cookieless client of an address is then one phone, never vouched)."""
    return client.device[:40] if client.device else f"ip:{client.address[:60]}"


def device_tag(device: str) -> str:
    """The phone's number shown to its player and in the cockpit (not its secret cookie)."""
    return salted_hmac(TAG_SALT, device).hexdigest()[:6].upper()


def lock_key(registration_id: int, device: str) -> str:
    return f"pin:{registration_id}:d:{device}"


def vouch_key(registration_id: int, device: str) -> str:
    return f"pin-ok:{registration_id}:{device}"


def budget_key(registration_id: int, address: str) -> str:
    return f"pin-net:{registration_id}:{address[:60]}"


def room_key(address: str) -> str:
    return f"pin-room:{address[:60]}"


def held_key(registration_id: int, device: str) -> str:
    return f"pin-held:{registration_id}:{device}"


def grant_key(registration_id: int) -> str:
    return f"pin-grant:{registration_id}"


def failure_key(registration_id: int, table_id: int, device: str) -> str:
    return f"pin-fail:{registration_id}:{table_id}:{device}"


class Throttled(Exception):
    """This attempt is not checked; the message says why and what to do (in French)."""


def _wait_message(key: str, tag: str) -> str:
    minutes = max(1, math.ceil((throttle.locked_until(key) - time.time()) / 60))
    return ngettext(
        "Trop de codes erronés pour ce joueur sur ce téléphone : réessayez dans %(n)s minute "
        "ou appelez l'arbitre (téléphone %(tag)s).",
        "Trop de codes erronés pour ce joueur sur ce téléphone : réessayez dans %(n)s minutes "
        "ou appelez l'arbitre (téléphone %(tag)s).",
        minutes,
    ) % {"n": minutes, "tag": tag}


def _budget_message(tag: str) -> str:
    return _(
        "Trop de codes erronés pour ce joueur depuis ce réseau : montrez ce téléphone à "
        "l'arbitre, qui le débloquera (téléphone %(tag)s)."
    ) % {"tag": tag}


def vouched(registration: Registration, client: Client) -> bool:
    return bool(client.device) and throttle.attempts(vouch_key(registration.pk, client.device)) > 0


def granted(registration: Registration, client: Client, device: str) -> bool:
    """The arbiter unlocked the player without a phone's number, and this phone (with its own
    cookie) never typed a wrong code for them: its try skips the player's budget."""
    return (
        bool(client.device)
        and throttle.attempts(grant_key(registration.pk)) > 0
        and not throttle.tried(lock_key(registration.pk, device))
    )


def admit(registration: Registration, client: Client, links: dict[str, Any]) -> list[str]:
    """Reserve one check of a code for `registration` from `client`, or raise Throttled.
    Returns the budget keys reserved (none for a vouched phone; given back by `right`)."""
    device = device_of(client)
    key = lock_key(registration.pk, device)
    # A locked phone spends nothing else: its tries can't use up the player's budget.
    if throttle.locked(key):
        raise Throttled(_wait_message(key, device_tag(device)))
    reserved: list[str] = []
    if not vouched(registration, client):
        player_links = {k: links[k] for k in ("tournament_id", "registration_id")}
        # Under the arbiter's grant a new phone's try is counted in the player's budget (so
        # that the script's used phones stay refused) but never refused by it.
        player_allowance = math.inf if granted(registration, client, device) else PLAYER_BUDGET
        budgets: tuple[tuple[str, float, dict[str, Any]], ...] = (
            (budget_key(registration.pk, client.address), player_allowance, player_links),
            (room_key(client.address), ROOM_BUDGET, {}),
        )
        for budget, allowance, budget_links in budgets:
            reserved.append(budget)
            if throttle.hit(budget, BUDGET_WINDOW, links=budget_links) > allowance:
                throttle.refund(*reserved)
                throttle.hit(held_key(registration.pk, device), BUDGET_WINDOW, links=links)
                raise Throttled(_budget_message(device_tag(device)))
    if not throttle.gate(key, allowance=CLIENT_ALLOWANCE, lock=CLIENT_LOCK, links=links):
        throttle.refund(*reserved)
        raise Throttled(_wait_message(key, device_tag(device)))
    return reserved


def wrong(registration: Registration, client: Client, links: dict[str, Any]) -> None:
    """A wrong code was checked: it stays counted, and the cockpit's alert counts it."""
    device = device_of(client)
    key = failure_key(registration.pk, links["table_id"], device)
    throttle.hit(key, FAILURE_WINDOW, links=links)


def wrong_message(registration: Registration, client: Client) -> str:
    """What a wrong code answers: where the code is, and how many tries are left before this
    phone pauses for the player (issue 38: an older player needs to know before it locks)."""
    left = max(0, CLIENT_ALLOWANCE - throttle.hits(lock_key(registration.pk, device_of(client))))
    where = _("Code personnel erroné : il est sur votre carte d'itinéraire.")
    if not left:
        return where + " " + _("Ce téléphone fait maintenant une pause avant le prochain essai.")
    return (
        where
        + " "
        + ngettext(
            "Encore %(n)s essai avant une pause.",
            "Encore %(n)s essais avant une pause.",
            left,
        )
        % {"n": left}
    )


def right(registration: Registration, client: Client, reserved: list[str]) -> None:
    """A right code: this phone's count for the player is cleared, the budgets it reserved are
    given back, and the phone is vouched for the player."""
    device = device_of(client)
    throttle.clear(lock_key(registration.pk, device))
    throttle.refund(*reserved)
    if reserved:  # an unvouched phone proved the player: an arbiter's grant has served
        throttle.clear(grant_key(registration.pk))
    # Budgets are reserved only by a phone not vouched yet for the player: it is, from now on.
    if reserved and client.device:
        links = {"registration_id": registration.pk}
        throttle.hit(vouch_key(registration.pk, client.device), VOUCH_WINDOW, links=links)
