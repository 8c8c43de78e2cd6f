"""Confirming deals typed at the table: a player of the other side than the enterer, with their
own code, confirms the deals their phone listed (and only those); the arbiter confirms any.

The phone lists each waiting deal with what it gives each player and who may confirm it
(`who_confirms`); its post carries the ids of the deals shown and the sheet's version, so a deal
added or corrected after the player read the list is never confirmed blind. A listed deal the
player may not confirm is left waiting, and the answer names who can.

A player's confirmation is checked against the sheet's version but moves none (it touches the
sheet's `updated_at`, which the phones' ETag and the live fingerprint read, as a contest does):
the desk's actions, checked against the version, go through whatever the phones confirm. The
arbiter's confirmation is a desk action and moves it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.core.deal import DealError
from scoring.models import Deal, ScoreSheet, SheetPlayer, TableLink
from scoring.sheets.services import (
    StaleSheetError,
    bump_version,
    ensure_sheet_writable,
    sheet_locked,
)
from scoring.sheets.table_entry.codes import Client, CodeRefused, proven
from scoring.sheets.table_entry.links import table_sheet
from tournament.access.audit import change_record
from tournament.models import ChangeLog, Registration

MAX_LISTED = 60  # deal ids one confirmation may carry (a sheet holds far fewer)


def _sides(deal: Deal) -> tuple[set[int], set[int]]:
    """(attack, defence) seats of a played deal; a passed deal has no attack."""
    seats = set(range(deal.players)) - ({deal.dead} if deal.dead is not None else set())
    if deal.taker is None:
        return set(), seats
    attack = {deal.taker} | ({deal.partner} if deal.partner is not None else set())
    return attack, seats - attack


def may_confirm(deal: Deal, enterer_seat: int | None, confirmer_seat: int) -> bool:
    """A player of the other side than the one who entered it (anyone else on a passed deal)."""
    if enterer_seat is None or confirmer_seat == enterer_seat:
        return False
    if deal.dead is not None and confirmer_seat == deal.dead:
        return False
    attack, defence = _sides(deal)
    if not attack:
        return confirmer_seat in defence
    enterer_side = attack if enterer_seat in attack else defence
    other = defence if enterer_side is attack else attack
    return confirmer_seat in other


def confirmer_seats(deal: Deal, enterer_seat: int | None) -> list[int]:
    """The seats whose player may confirm `deal`, in seat order."""
    return [seat for seat in range(deal.players) if may_confirm(deal, enterer_seat, seat)]


def who_confirms(deal: Deal, enterer_seat: int | None, names: list[str]) -> str:
    """ "À confirmer par LEFÈVRE ou DURAND": who at the table may confirm the deal (the arbiter
    when nobody may, e.g. its enterer left the sheet)."""
    people = [names[seat] for seat in confirmer_seats(deal, enterer_seat) if seat < len(names)]
    if not people:
        return _("À confirmer par l'arbitre")
    if len(people) == 1:
        return _("À confirmer par %(names)s") % {"names": people[0]}
    return _("À confirmer par %(names)s ou %(last)s") % {
        "names": ", ".join(people[:-1]),
        "last": people[-1],
    }


def seat_of(sheet: ScoreSheet) -> dict[int | None, int]:
    """Registration id → seat index on the sheet."""
    return dict(SheetPlayer.objects.filter(sheet=sheet).values_list("registration_id", "seat"))


def seat_names(sheet: ScoreSheet) -> list[str]:
    """The players' names by seat index."""
    players = SheetPlayer.objects.filter(sheet=sheet).select_related("registration__player")
    return [p.registration.player.full_name for p in sorted(players, key=lambda p: p.seat)]


@dataclass
class Confirmation:
    """What a confirmation did: the deals it confirmed, and each listed deal it left waiting
    with why (who may confirm it, or that it was contested meanwhile)."""

    confirmed: list[Deal]
    left: list[tuple[int, str]] = field(default_factory=list)

    def left_text(self) -> str:
        return " ".join(
            _("Donne %(number)s : %(why)s.") % {"number": number, "why": why}
            for number, why in self.left
        )


def _refusal(
    deal: Deal, registration: Registration, enterer_seat: int | None, names: list[str]
) -> str:
    """Why this player may not confirm `deal`, and who may (issue 38: "refused" alone left an
    older player trying again)."""
    who = who_confirms(deal, enterer_seat, names)
    if deal.entered_by_player_id == registration.pk:
        return _("vous l'avez saisie : un adversaire la confirme. %(who)s") % {"who": who}
    return _(
        "vous êtes du camp de la personne qui l'a saisie : un adversaire la confirme. %(who)s"
    ) % {"who": who}


def _listed(deals: Any) -> list[int]:
    """The ids of the deals the phone showed: a non-empty list of integers."""
    if (
        not isinstance(deals, list)
        or not deals
        or len(deals) > MAX_LISTED
        or any(not isinstance(pk, int) or isinstance(pk, bool) for pk in deals)
    ):
        raise DealError("deals", _("Rechargez la page : elle ne liste pas les donnes à confirmer."))
    return deals


def deals_confirm(
    *,
    link: TableLink,
    version: Any,
    deals: Any,
    seat: Any = None,
    pin: Any = None,
    client: Client | None = None,
    player: Registration | None = None,
) -> Confirmation:
    """The player at `seat` confirms, with their code, the waiting deals among `deals` (the ids
    their phone listed) that they may confirm: entered by a player of the other side, and not
    contested. `version` is the sheet the phone showed: a sheet changed meanwhile (a deal added
    or corrected) is refused (StaleSheetError). `player`, instead of a code: the player this
    phone is bound to (codes.proven)."""
    sheet = table_sheet(link)
    if sheet is None:
        raise CodeRefused(_("Aucune donne à confirmer."))
    shown = _listed(deals)
    if isinstance(version, bool) or not isinstance(version, int):
        raise DealError("version", _("La version de la feuille (entier) est obligatoire."))
    registration = proven(link=link, seat=seat, pin=pin, client=client, player=player)
    seats = seat_of(sheet)
    own_seat = seats.get(registration.pk)
    if own_seat is None:
        raise CodeRefused(_("Ce joueur n'est pas à cette table."), field="seat")
    names = seat_names(sheet)
    eligible: list[Deal] = []
    left: list[tuple[int, str]] = []
    for deal in Deal.objects.filter(sheet=sheet, pk__in=shown, pending=True).order_by("number"):
        enterer_seat = seats.get(deal.entered_by_player_id)
        if deal.disputed:
            left.append((deal.number, _("contestée, elle attend sa correction ou l'arbitre")))
        elif deal.entered_by_player_id != registration.pk and may_confirm(
            deal, enterer_seat, own_seat
        ):
            eligible.append(deal)
        else:
            left.append((deal.number, _refusal(deal, registration, enterer_seat, names)))
    if not eligible:
        outcome = Confirmation([], left)
        raise CodeRefused(outcome.left_text() or _("Aucune donne à confirmer pour vous."))
    confirmed = _confirm(
        sheet, eligible, registration=registration, user=None, expected_version=version
    )
    return Confirmation(confirmed, left)


def deal_confirm_by_arbiter(*, deal: Deal, user: Any, expected_version: int) -> Deal:
    """The arbiter accepts a deal entered at the table (after checking it with the players),
    contested or not: their decision."""
    _confirm(deal.sheet, [deal], registration=None, user=user, expected_version=expected_version)
    return deal


def _confirm(
    sheet: ScoreSheet,
    deals: list[Deal],
    *,
    registration: Registration | None,
    user: Any,
    expected_version: int | None = None,
) -> list[Deal]:
    now = timezone.now()
    done = []
    with transaction.atomic():
        if registration is None:
            bump_version(sheet, expected_version)
        else:
            _same_version(sheet, expected_version)
        for deal in deals:
            # The conditions are the row's own: a deal corrected or contested meanwhile (or
            # confirmed by another phone) is left as it is.
            still = Deal.objects.filter(pk=deal.pk, pending=True)
            if registration is not None:
                still = still.filter(disputed=False).exclude(entered_by_player=registration)
            updated = still.update(
                pending=False,
                disputed=False,
                confirmed_by_player=registration,
                confirmed_by=user,
                confirmed_at=now,
            )
            if not updated:
                continue
            deal.pending = False
            deal.disputed = False
            done.append(deal)
            deal_change_record(
                sheet,
                deal,
                ChangeLog.ObjectType.DEAL_CONFIRMATION,
                before={"pending": True},
                after={
                    "pending": False,
                    "confirmed_by_player": registration.number if registration else None,
                },
                user=user,
                username=registration.player.full_name if registration else "",
            )
        if registration is not None and done:
            ScoreSheet.objects.filter(pk=sheet.pk).update(updated_at=now)
    return done


def _same_version(sheet: ScoreSheet, expected: int | None) -> None:
    """Under the sheet's row lock: the sheet is writable and still at the version the phone
    showed (StaleSheetError otherwise); the version is not moved."""
    locked = sheet_locked(sheet)
    ensure_sheet_writable(locked)
    if expected is not None and locked.version != expected:
        raise StaleSheetError(locked, expected)


def deal_change_record(
    sheet: ScoreSheet,
    deal: Deal,
    kind: str,
    *,
    before: dict[str, Any],
    after: dict[str, Any],
    user: Any = None,
    username: str = "",
) -> None:
    """The history's line for a deal confirmed or contested at the table: its number, then
    what changed."""
    change_record(
        tournament=sheet.tournament_id,
        obj=deal,
        kind=kind,
        sheet=sheet,
        action=ChangeLog.Action.UPDATE,
        before={"number": deal.number, **before},
        after={"number": deal.number, **after},
        user=user,
        username=username,
    )
