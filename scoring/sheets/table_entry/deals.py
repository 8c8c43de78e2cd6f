"""Deals typed on the players' phones: entered by a player who proved who they are, corrected
by their enterer while they wait (confirmations: `confirmations`; contests: `disputes`).

The server decides every identity from a checked code (`scoring.sheets.table_entry.codes`): the
enterer from the phone's binding or a code sent with the deal. Until confirmed (by a player of
the other side, or an arbiter) a deal counts nowhere public; a contested deal waits for its
enterer's correction, then for a new confirmation (or, contested once confirmed, the arbiter).
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from scoring.core.bodies import PHONE_DEAL, body_check
from scoring.core.deal import DealError
from scoring.models import Deal, ScoreSheet, SheetPlayer, TableLink
from scoring.sheets.services import (
    StaleSheetError,
    deal_record,
    deal_update,
    sheet_for_table,
    sheet_locked,
)
from scoring.sheets.table_entry.codes import CodeRefused
from scoring.sheets.table_entry.links import table_sheet
from scoring.sheets.table_entry.numbers import number_check
from tournament.access.lifecycle import Locked
from tournament.models import Registration, Table

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
    """The deal's number and the sheet version it was typed against, as integers in range (the
    phone's body schema, which the view already checked: the service doesn't rely on it)."""
    if isinstance(version, bool) or not isinstance(version, int):
        raise DealError("version", _("La version de la feuille (entier) est obligatoire."))
    checked = body_check(PHONE_DEAL, {"number": number, "version": version})
    return checked["number"], checked["version"]


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
            sheet_locked(sheet)
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


def _waiting_deal(sheet: ScoreSheet, number: Any) -> Deal:
    if not isinstance(number, int) or isinstance(number, bool):
        raise CodeRefused(_("Indiquez la donne."), field="number")
    deal = Deal.objects.filter(sheet=sheet, number=number).first()
    if deal is None:
        raise CodeRefused(_("Cette donne n'existe pas."), field="number")
    if not deal.pending:
        raise Locked(_("Cette donne est déjà confirmée : appelez l'arbitre pour la changer."))
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
    if deal.disputed and deal.confirmed_at is not None:
        # Contested once confirmed (disputes.referred): the arbiter's to decide.
        raise Locked(_("Cette donne contestée après confirmation attend l'arbitre."))
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
