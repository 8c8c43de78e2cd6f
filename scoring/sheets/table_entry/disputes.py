"""Contesting a deal at the table: until the table has finished its sheet, any of its players but
the deal's enterer may contest it, with their own code.

A waiting deal goes back to its enterer for correction, then a new confirmation. A confirmed
deal is *referred*: it waits again (counted nowhere, in the arbiter's list of waiting deals),
and only the arbiter decides it (confirm, correct, delete); its first confirmation stays on the
row and in the history. A contest moves no sheet version, so the desk's actions on the deal,
checked against the version, go through; it touches the sheet's `updated_at`, which the phones'
ETag and the live fingerprint read. Contests are limited per player and deal
(tournament.access.throttle, one atomic statement an attempt, shared by every process), and a
deal already contested can't be contested again until it changes.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.models import Deal, ScoreSheet, TableLink
from scoring.sheets.services import ensure_sheet_writable, sheet_locked
from scoring.sheets.table_entry.codes import Client, CodeRefused, proven
from scoring.sheets.table_entry.confirmations import deal_change_record, seat_of
from scoring.sheets.table_entry.deals import clean_note
from scoring.sheets.table_entry.links import table_sheet
from tournament.access import throttle
from tournament.access.lifecycle import Locked
from tournament.models import ChangeLog, Registration

CONTEST_ALLOWANCE = 3  # contests of one deal by one player before a lock
CONTEST_LOCK = 600.0  # seconds, doubling at each further contest


def referred(deal: Deal) -> bool:
    """A deal contested after it was confirmed: it waits for the arbiter alone."""
    return deal.disputed and deal.confirmed_at is not None


def _deal(sheet: ScoreSheet, number: Any) -> Deal:
    if not isinstance(number, int) or isinstance(number, bool):
        raise CodeRefused(_("Indiquez la donne."), field="number")
    deal = Deal.objects.filter(sheet=sheet, number=number).first()
    if deal is None:
        raise CodeRefused(_("Cette donne n'existe pas."), field="number")
    return deal


def _check_contestable(sheet: ScoreSheet, deal: Deal, registration: Registration) -> None:
    """Raise why `registration` may not contest `deal` now (a user's reason, in French)."""
    if deal.entered_by_player_id == registration.pk:
        raise CodeRefused(
            _("Vous avez saisi cette donne : corrigez-la plutôt, ou appelez l'arbitre."),
            field="seat",
        )
    if deal.entered_by_player_id is None or deal.confirmed_by_id is not None:
        raise Locked(_("L'arbitre a décidé cette donne : appelez-le pour la changer."))
    if deal.disputed:
        raise Locked(_("Cette donne est déjà contestée : elle attend sa correction ou l'arbitre."))
    if sheet.status == ScoreSheet.Status.COMPLETE:
        raise Locked(_("La feuille est terminée (visée par toute la table) : appelez l'arbitre."))


def deal_contest(
    *,
    link: TableLink,
    number: Any,
    note: Any,
    seat: Any = None,
    pin: Any = None,
    client: Client | None = None,
    player: Registration | None = None,
) -> Deal:
    """A player of the table other than the enterer contests deal `number` (with their code, or
    from the phone bound to them: `player`, and an optional word): a waiting deal goes back to
    its enterer, a confirmed one to the arbiter."""
    sheet = table_sheet(link)
    if sheet is None:
        raise CodeRefused(_("Aucune donne à contester."), field="number")
    registration = proven(link=link, seat=seat, pin=pin, client=client, player=player)
    if registration.pk not in seat_of(sheet):
        raise CodeRefused(_("Ce joueur n'est pas à cette table."), field="seat")
    deal = _deal(sheet, number)
    _check_contestable(sheet, deal, registration)
    # Counted before the write and outside its transaction: a refused contest stays counted.
    links = {"tournament_id": sheet.tournament_id, "table_id": link.table_id}
    key = f"contest:{registration.pk}:{deal.pk}"
    if not throttle.gate(key, allowance=CONTEST_ALLOWANCE, lock=CONTEST_LOCK, links=links):
        raise CodeRefused(
            _("Vous avez contesté cette donne trop souvent : appelez l'arbitre."),
            throttled=True,
            field="number",
        )
    text = clean_note(note)
    was_pending = deal.pending
    with transaction.atomic():
        # Under the sheet's row lock, as the table's signatures are taken: a sheet finished
        # meanwhile is seen finished.
        sheet = sheet_locked(sheet)
        ensure_sheet_writable(sheet)
        _check_contestable(sheet, deal, registration)
        # The row's own conditions: of two contests at once, one changes it.
        updated = Deal.objects.filter(pk=deal.pk, disputed=False, pending=was_pending).update(
            pending=True, disputed=True, dispute_note=text, disputed_by_player=registration
        )
        if not updated:
            raise Locked(_("Cette donne vient de changer : relisez la feuille."))
        ScoreSheet.objects.filter(pk=sheet.pk).update(updated_at=timezone.now())
        deal_change_record(
            sheet,
            deal,
            ChangeLog.ObjectType.DEAL_DISPUTE,
            before={"disputed": False, "pending": was_pending},
            after={"disputed": True, "pending": True, "note": text, "referred": not was_pending},
            username=registration.player.full_name,
        )
    deal.refresh_from_db()
    return deal
