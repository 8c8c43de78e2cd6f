"""A table's sheet signed by its players, as the rules ask of the paper sheet ("visée par les 4
joueurs puis remise à l'arbitre", rules 004): each player vouches for it from their own bound
phone or with their own personal code, and the sheet is finished ("Feuille terminée") once every
player of it has.

Who vouched is the identity the server checked (the phone's binding or the code), stored by seat
on the sheet (`ScoreSheet.signatures`, so a backup restores it with the sheet) with the sheet's
version they read. A signature holds for that version: a deal decided or corrected meanwhile
(every such write moves the version) asks the table to sign again. Once finished, the signatures
are kept as they were; no player may contest any more (the arbiter still decides). Signing moves
no version: the desk's actions are not refused for it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.models import Deal, ScoreSheet, TableLink
from scoring.sheets.services import ensure_sheet_writable, sheet_locked
from scoring.sheets.table_entry.codes import CodeRefused
from scoring.sheets.table_entry.confirmations import seat_of
from scoring.sheets.table_entry.links import table_sheet
from tournament.access.audit import change_record
from tournament.access.lifecycle import Locked
from tournament.models import ChangeLog, Registration

VIA_PHONE = "phone"  # the player's own bound phone
VIA_CODE = "code"  # the player's personal code, typed for this signature


def signed_seats(sheet: ScoreSheet) -> set[int]:
    """The seats whose player vouched for the sheet as it stands (all who signed, once it is
    finished or validated)."""
    settled = sheet.status != ScoreSheet.Status.IN_PROGRESS
    return {
        entry["seat"]
        for entry in sheet.signatures or []
        if isinstance(entry, dict) and (settled or entry.get("version") == sheet.version)
    }


@dataclass(frozen=True)
class Signer:
    """A player of the sheet and whether they vouched for it."""

    seat: int
    name: str
    signed: bool


def signature_board(sheet: ScoreSheet, names: list[str], order: list[int]) -> list[Signer]:
    """Each player of the sheet (seat indices in `order`, names by seat) and whether they signed."""
    signed = signed_seats(sheet)
    return [Signer(seat, names[seat], seat in signed) for seat in order if seat < len(names)]


def _check_signable(sheet: ScoreSheet) -> None:
    """Raise why the sheet can't be signed now (a user's reason, in French)."""
    ensure_sheet_writable(sheet)
    if sheet.status == ScoreSheet.Status.COMPLETE:
        raise Locked(_("La feuille est déjà terminée : l'arbitre la valide."))
    deals = Deal.objects.filter(sheet=sheet)
    if Deal.objects.waiting().filter(sheet=sheet).exists():
        raise CodeRefused(_("Des donnes attendent encore leur confirmation."))
    expected = sheet.tournament.deals_for_table_size(sheet.players.count()) + sheet.extra_deals
    count = deals.count()
    if count < expected:
        raise CodeRefused(
            _("La feuille n'a que %(count)s donnes sur %(expected)s.")
            % {"count": count, "expected": expected}
        )


def sheet_sign(*, link: TableLink, registration: Registration, via: str) -> ScoreSheet:
    """`registration` (proved by their bound phone or code: `via`) vouches for their table's
    sheet; the last player's signature finishes it. A player signs a sheet once."""
    sheet = table_sheet(link)
    if sheet is None:
        raise CodeRefused(_("La feuille est vide."))
    seats = seat_of(sheet)
    seat = seats.get(registration.pk)
    if seat is None:
        raise CodeRefused(_("Ce joueur n'est pas à cette table."), field="seat")
    now = timezone.now()
    with transaction.atomic():
        # One signature at a time per sheet, and none beside a desk write (which takes the
        # same row lock to move the version): the last two players signing at once finish it.
        sheet = sheet_locked(sheet, with_tournament=True)
        _check_signable(sheet)
        held = [
            entry
            for entry in sheet.signatures or []
            if isinstance(entry, dict) and entry.get("version") == sheet.version
        ]
        if any(entry.get("seat") == seat for entry in held):
            raise Locked(_("Vous avez déjà visé cette feuille."))
        signatures = [
            *held,
            {"seat": seat, "version": sheet.version, "via": via, "at": now.isoformat()},
        ]
        before = sheet.status
        finished = set(seats.values()) <= {entry["seat"] for entry in signatures}
        status = ScoreSheet.Status.COMPLETE if finished else before
        ScoreSheet.objects.filter(pk=sheet.pk).update(
            signatures=signatures, status=status, updated_at=now
        )
        sheet.signatures, sheet.status = signatures, status
        change_record(
            tournament=sheet.tournament_id,
            obj=sheet,
            kind=ChangeLog.ObjectType.SHEET_STATUS,
            sheet=sheet,
            action=ChangeLog.Action.UPDATE,
            before={"status": before},
            after=_signed_picture(status, registration, via),
            username=registration.player.full_name,
        )
    return sheet


def _signed_picture(status: str, registration: Registration, via: str) -> dict[str, Any]:
    return {"status": status, "signed_by": registration.number, "via": via}
