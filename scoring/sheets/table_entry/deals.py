"""Deals typed on the players' phones: entered by a player who proved who they are, confirmed
or contested by a player of the other side with their own code, corrected by their enterer.

The server decides every identity from a checked code (`scoring.sheets.table_entry.codes`): the
enterer from the phone's binding or a code sent with the deal, the confirmer and the contester
from the code they type. The same player never both enters and confirms a deal. Until confirmed
(by a player of the other side, or an arbiter) a deal counts nowhere public; a contested deal
waits for its enterer's correction, then for a new confirmation.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.core.deal import DealError
from scoring.models import Deal, ScoreSheet, SheetPlayer, TableLink
from scoring.sheets.services import (
    StaleSheetError,
    bump_version,
    deal_record,
    deal_update,
    sheet_field_update,
    sheet_for_table,
)
from scoring.sheets.table_entry.codes import Client, CodeRefused, code_check
from scoring.sheets.table_entry.links import table_sheet
from scoring.sheets.table_entry.numbers import checked_number, checked_version, number_check
from tournament.access.audit import change_record
from tournament.access.lifecycle import Locked
from tournament.models import ChangeLog, Registration, Table

CLIENT_ID_RE = re.compile(r"^[A-Za-z0-9_-]{8,64}$")
NOTE_LENGTH = 200


def clean_note(text: Any) -> str:
    """A player's free word (a dispute, a call): printable characters only, one line, bounded."""
    if not isinstance(text, str):
        return ""
    kept = "".join(
        " " if unicodedata.category(c) in ("Cc", "Zl", "Zp") else c
        for c in unicodedata.normalize("NFKC", text[: NOTE_LENGTH * 4])
        if unicodedata.category(c) not in ("Cf", "Co", "Cs")
    )
    return " ".join(kept.split())[:NOTE_LENGTH]


def check_client_id(client_id: Any) -> str:
    if not isinstance(client_id, str) or not CLIENT_ID_RE.match(client_id):
        raise DealError("client_id", _("Identifiant de donne invalide."))
    return client_id


def replayed_deal(link: TableLink, client_id: str) -> Deal | None:
    """The deal this phone already recorded under `client_id` (a resend after a lost answer)."""
    return Deal.objects.filter(sheet__table_id=link.table_id, client_id=client_id).first()


def _checked_position(number: Any, version: Any) -> tuple[int | None, int]:
    """The deal's number and the sheet version it was typed against, as integers in range."""
    if isinstance(version, bool) or not isinstance(version, int):
        raise DealError("version", _("La version de la feuille (entier) est obligatoire."))
    if number is None:
        return None, version
    return checked_number(number), checked_version(version)


def phone_deal_record(
    *,
    link: TableLink,
    client_id: Any,
    data: Any,
    version: Any,
    enterer: Registration,
    number: Any = None,
) -> tuple[Deal, bool]:
    """Record a deal typed at the table by `enterer` (whose code the caller checked); returns
    (deal, replayed). A client id already recorded on this table answers the original deal,
    whatever the body: the phone resent it after a lost answer.

    With `number` (as typed), the number is the check (scoring.sheets.table_entry.numbers),
    not the version; without it (a deal queued by an older page), the version is."""
    client_id = check_client_id(client_id)
    table: Table = link.table
    earlier = replayed_deal(link, client_id)
    if earlier is not None:
        return earlier, True
    number, version = _checked_position(number, version)
    sheet = sheet_for_table(table=table)
    if not SheetPlayer.objects.filter(sheet=sheet, registration=enterer).exists():
        raise CodeRefused(_("Ce joueur n'est pas à cette table."), field="entered_by")
    try:
        with transaction.atomic():
            # One save per sheet at a time. On PostgreSQL the version check of bump_version
            # alone lets two saves of the same version through when they overlap (its condition
            # sits in a subquery read before the row lock is awaited): two phones would both
            # record their deal, and a double tap on the last deal would be refused as one too
            # many. Under this lock the second request sees the first one's deal (a resend: the
            # original is answered) or its version (409). SQLite's IMMEDIATE transactions
            # already serialise writers; the lock is a no-op there.
            list(ScoreSheet.objects.select_for_update().filter(pk=sheet.pk).order_by().values("pk"))
            earlier = Deal.objects.filter(sheet=sheet, client_id=client_id).first()
            if earlier is not None:
                return earlier, True
            sheet = ScoreSheet.objects.select_related("tournament", "table__position").get(
                pk=sheet.pk
            )
            if number is not None:
                number_check(
                    sheet=sheet, number=number, data=data, version=version, enterer=enterer
                )
            deal = deal_record(
                sheet=sheet,
                data=data,
                expected_version=version if number is None else None,
                entered_at_table={"client_id": client_id, "entered_by_player": enterer},
            )
    except (IntegrityError, StaleSheetError):
        # The same deal sent twice at once (a double tap, a resend while the first one is still
        # being saved): the other request recorded it, and its version bump made this one stale.
        # Answer the original, as for any resend; a really stale sheet still answers 409.
        earlier = Deal.objects.filter(sheet=sheet, client_id=client_id).first()
        if earlier is None:
            raise
        return earlier, True
    return deal, False


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


def _seat_of(sheet: ScoreSheet) -> dict[int | None, int]:
    return dict(SheetPlayer.objects.filter(sheet=sheet).values_list("registration_id", "seat"))


def _player_seat(sheet: ScoreSheet, registration: Registration) -> int:
    seat = _seat_of(sheet).get(registration.pk)
    if seat is None:
        raise CodeRefused(_("Ce joueur n'est pas à cette table."), field="seat")
    return seat


def deals_confirm(
    *, link: TableLink, seat: Any, pin: Any, client: Client, version: Any = None
) -> list[Deal]:
    """The player at `seat` confirms, with their code, every waiting deal they may confirm: one
    entered by a player of the other side, and not contested. With `version` (the sheet the
    phone showed), a sheet changed meanwhile is refused (StaleSheetError): nobody confirms a
    deal corrected after they read it."""
    sheet = table_sheet(link)
    if sheet is None:
        raise CodeRefused(_("Aucune donne à confirmer."))
    registration = code_check(link=link, seat=seat, pin=pin, client=client)
    seat_of = _seat_of(sheet)
    own_seat = seat_of[registration.pk]
    waiting = Deal.objects.filter(sheet=sheet, pending=True, disputed=False).order_by("number")
    eligible = [
        deal
        for deal in waiting
        if deal.entered_by_player_id != registration.pk
        and may_confirm(deal, seat_of.get(deal.entered_by_player_id), own_seat)
    ]
    if not eligible:
        raise CodeRefused(
            _(
                "Aucune donne à confirmer pour vous : une donne se confirme par un joueur de "
                "l'autre camp que celui qui l'a saisie."
            )
        )
    expected = version if isinstance(version, int) and not isinstance(version, bool) else None
    return _confirm(
        sheet, eligible, registration=registration, user=None, expected_version=expected
    )


def deal_confirm_by_arbiter(*, deal: Deal, user, expected_version: int) -> Deal:
    """The arbiter accepts a deal entered at the table (after checking it with the players)."""
    _confirm(deal.sheet, [deal], registration=None, user=user, expected_version=expected_version)
    return deal


def _confirm(sheet, deals, *, registration, user, expected_version=None) -> list[Deal]:
    now = timezone.now()
    with transaction.atomic():
        bump_version(sheet, expected_version)
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
            _deal_change_record(
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
    return deals


def _deal_change_record(
    sheet: ScoreSheet,
    deal: Deal,
    kind: str,
    *,
    before: dict[str, Any],
    after: dict[str, Any],
    user: Any = None,
    username: str = "",
) -> None:
    """The history's line for a waiting deal confirmed or contested at the table: its number,
    then what changed."""
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


def _waiting_deal(sheet: ScoreSheet, number: Any) -> Deal:
    if not isinstance(number, int) or isinstance(number, bool):
        raise CodeRefused(_("Indiquez la donne."), field="number")
    deal = Deal.objects.filter(sheet=sheet, number=number).first()
    if deal is None:
        raise CodeRefused(_("Cette donne n'existe pas."), field="number")
    if not deal.pending:
        raise Locked(_("Cette donne est déjà confirmée : appelez l'arbitre pour la changer."))
    return deal


def deal_contest(
    *, link: TableLink, seat: Any, pin: Any, number: Any, note: Any, client: Client
) -> Deal:
    """A player of the other side refuses a waiting deal (with their code and an optional
    word): it goes back to its enterer for correction and counts nowhere until confirmed."""
    sheet = table_sheet(link)
    if sheet is None:
        raise CodeRefused(_("Aucune donne à contester."), field="number")
    registration = code_check(link=link, seat=seat, pin=pin, client=client)
    own_seat = _player_seat(sheet, registration)
    deal = _waiting_deal(sheet, number)
    enterer_seat = _seat_of(sheet).get(deal.entered_by_player_id)
    if deal.entered_by_player_id == registration.pk or not may_confirm(
        deal, enterer_seat, own_seat
    ):
        raise CodeRefused(
            _("Seul un joueur de l'autre camp que celui qui a saisi la donne peut la contester."),
            field="seat",
        )
    text = clean_note(note)
    with transaction.atomic():
        bump_version(sheet, None)
        updated = Deal.objects.filter(pk=deal.pk, pending=True).update(
            disputed=True, dispute_note=text, disputed_by_player=registration
        )
        if not updated:
            raise Locked(_("Cette donne est déjà confirmée : appelez l'arbitre pour la changer."))
        _deal_change_record(
            sheet,
            deal,
            ChangeLog.ObjectType.DEAL_DISPUTE,
            before={"disputed": deal.disputed},
            after={"disputed": True, "note": text},
            username=registration.player.full_name,
        )
    deal.refresh_from_db()
    return deal


def phone_deal_correct(
    *, link: TableLink, number: Any, data: Any, version: Any, enterer: Registration
) -> Deal:
    """The player who entered a waiting deal corrects it (contested or not): the correction is
    in the history, and the deal needs a new confirmation."""
    sheet = table_sheet(link)
    if sheet is None:
        raise CodeRefused(_("Cette donne n'existe pas."), field="number")
    deal = _waiting_deal(sheet, number)
    if deal.entered_by_player_id != enterer.pk:
        raise CodeRefused(
            _("Seul le joueur qui a saisi la donne peut la corriger ; sinon, appelez l'arbitre."),
            field="entered_by",
        )
    if isinstance(version, bool) or not isinstance(version, int):
        raise DealError("version", _("La version de la feuille (entier) est obligatoire."))
    deal.sheet = ScoreSheet.objects.select_related("tournament", "table__position").get(pk=sheet.pk)
    with transaction.atomic():
        deal_update(
            deal=deal, data=data, expected_version=version, username=enterer.player.full_name
        )
        # Still the enterer's and still waiting: a deal confirmed meanwhile is not reopened.
        updated = Deal.objects.filter(pk=deal.pk, pending=True).update(
            disputed=False, confirmed_by_player=None, confirmed_at=None
        )
        if not updated:
            raise Locked(_("Cette donne est déjà confirmée : appelez l'arbitre pour la changer."))
    deal.refresh_from_db()
    return deal


def sheet_finish_at_table(*, link: TableLink, seat: Any, pin: Any, client: Client) -> ScoreSheet:
    """The table declares its sheet complete (every deal in and confirmed); the arbiter's
    validation stays the last word."""
    sheet = table_sheet(link)
    if sheet is None:
        raise CodeRefused(_("La feuille est vide."))
    registration = code_check(link=link, seat=seat, pin=pin, client=client)
    if Deal.objects.filter(sheet=sheet, pending=True).exists():
        raise CodeRefused(_("Des donnes attendent encore leur confirmation."))
    expected = sheet.tournament.deals_for_table_size(sheet.players.count()) + sheet.extra_deals
    if sheet.deals.count() < expected:
        raise CodeRefused(
            _("La feuille n'a que %(count)s donnes sur %(expected)s.")
            % {"count": sheet.deals.count(), "expected": expected}
        )
    if sheet.status == ScoreSheet.Status.VALIDATED:
        raise Locked(_("Cette feuille est déjà validée par l'arbitre."))
    sheet_field_update(
        sheet,
        expected_version=None,
        field="status",
        before=sheet.status,
        after=ScoreSheet.Status.COMPLETE,
        kind=ChangeLog.ObjectType.SHEET_STATUS,
        note={"by_player": registration.number},
        username=registration.player.full_name,
    )
    return sheet
