"""Players enter their table's deals on their phones; an opponent confirms them.

A table's link (a secret token in a QR code, or a short code typed on the entry page) opens that
table's sheet and nothing else, while its position is published and the tournament lets players
enter deals. Every deal carries an id made on the phone, so a resend, a double tap or a lost
answer never records it twice. A deal entered by one side waits for a player of the other side
(who proves it with their personal 4-digit code) or an arbiter to confirm it; until then it
counts nowhere public.
"""

from __future__ import annotations

import re
import secrets
from datetime import timedelta
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.engine import DealError
from scoring.models import Deal, ScoreSheet, SheetPlayer, TableLink
from scoring.services import (
    StaleSheetError,
    bump_version,
    deal_record,
    sheet_field_update,
    sheet_for_table,
)
from tournament.audit import change_record
from tournament.lifecycle import Locked
from tournament.models import ChangeLog, Position, Registration, Table, Tournament

# Unambiguous letters and digits for a code read off paper (no 0/O, 1/I/L).
CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
CODE_LENGTH = 6
CLIENT_ID_RE = re.compile(r"^[A-Za-z0-9_-]{8,64}$")
# Wrong confirmation codes allowed at one table before it waits.
MAX_FAILURES = 5
LOCK_MINUTES = 10


class TableClosed(Exception):
    """The link is unknown, revoked, or its table may not be written any more."""


class ConfirmationRefused(Exception):
    """A confirmation that can't be accepted; the message says why (in French)."""

    def __init__(self, message: str, *, throttled: bool = False):
        super().__init__(message)
        self.throttled = throttled


def _new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def links_for_position(position: Position) -> list[TableLink]:
    """Every table of the position gets its link (created once; idempotent)."""
    tables = list(position.tables.all())
    existing = {link.table_id: link for link in TableLink.objects.filter(table__in=tables)}
    for table in tables:
        if table.pk in existing:
            continue
        for _attempt in range(10):
            try:
                with transaction.atomic():
                    existing[table.pk] = TableLink.objects.create(
                        table=table, token=secrets.token_urlsafe(24), code=_new_code()
                    )
                break
            except IntegrityError:  # a code already taken: draw again
                continue
    return [existing[t.pk] for t in tables if t.pk in existing]


def normalise_code(code: str) -> str:
    return re.sub(r"[^0-9A-Z]", "", (code or "").upper())[:12]


def link_for(token: str) -> TableLink:
    """The usable link of a token, or TableClosed."""
    if not token or len(token) > 64:
        raise TableClosed
    link = (
        TableLink.objects.select_related("table__position__tournament").filter(token=token).first()
    )
    if link is None:
        raise TableClosed
    check_open(link)
    return link


def check_open(link: TableLink) -> None:
    position = link.table.position
    tournament = position.tournament
    if (
        link.revoked
        or position.status != Position.Status.PUBLISHED
        or tournament.status == Tournament.Status.FINISHED
        or tournament.entry_mode == Tournament.EntryMode.PAPER
    ):
        raise TableClosed


def link_revoke(*, link: TableLink, user=None) -> TableLink:
    """The arbiter cuts a table's link (a lost sheet, a leaked QR code); a new one replaces it."""
    table = link.table
    with transaction.atomic():
        link.delete()
        change_record(
            tournament=table.position.tournament_id,
            obj=table,
            kind=ChangeLog.ObjectType.TABLE_LINK,
            action=ChangeLog.Action.DELETE,
            before={"table": table.number, "position": table.position.number},
            user=user,
        )
    return next(new for new in links_for_position(table.position) if new.table_id == table.pk)


def table_sheet(link: TableLink) -> ScoreSheet | None:
    """The table's sheet if it exists (a GET never creates it)."""
    return (
        ScoreSheet.objects.select_related("tournament", "table__position")
        .filter(table=link.table)
        .first()
    )


def _seat_registration(sheet: ScoreSheet, seat: Any) -> Registration:
    if not isinstance(seat, int) or isinstance(seat, bool):
        raise DealError("entered_by", _("Indiquez qui saisit la donne."))
    player = (
        SheetPlayer.objects.select_related("registration").filter(sheet=sheet, seat=seat).first()
    )
    if player is None:
        raise DealError("entered_by", _("Indiquez qui saisit la donne."))
    return player.registration


def phone_deal_record(
    *, link: TableLink, client_id: Any, data: Any, entered_by: Any, version: Any
) -> tuple[Deal, bool]:
    """Record a deal typed at the table; returns (deal, replayed).

    A client id already recorded on this sheet answers the original deal, whatever the body:
    the phone resent it after a lost answer.
    """
    if not isinstance(client_id, str) or not CLIENT_ID_RE.match(client_id):
        raise DealError("client_id", _("Identifiant de donne invalide."))
    table: Table = link.table
    sheet = ScoreSheet.objects.filter(table=table).first()
    if sheet is not None:
        earlier = Deal.objects.filter(sheet=sheet, client_id=client_id).first()
        if earlier is not None:
            return earlier, True
    if isinstance(version, bool) or not isinstance(version, int):
        raise DealError("version", _("La version de la feuille (entier) est obligatoire."))
    if sheet is None:
        sheet = sheet_for_table(table=table)
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
            enterer = _seat_registration(sheet, entered_by)
            deal = deal_record(
                sheet=sheet,
                data=data,
                expected_version=version,
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


def _throttle_check(link: TableLink) -> None:
    if link.locked_until and link.locked_until > timezone.now():
        raise ConfirmationRefused(
            _("Trop de codes erronés : attendez quelques minutes ou appelez l'arbitre."),
            throttled=True,
        )


def _wrong_code(link: TableLink) -> None:
    TableLink.objects.filter(pk=link.pk).update(failures=F("failures") + 1)
    link.refresh_from_db(fields=["failures"])
    if link.failures >= MAX_FAILURES:
        TableLink.objects.filter(pk=link.pk).update(
            failures=0, locked_until=timezone.now() + timedelta(minutes=LOCK_MINUTES)
        )


def _player_with_code(link: TableLink, sheet: ScoreSheet, seat: Any, pin: Any) -> SheetPlayer:
    """The sheet's player at `seat`, if `pin` is their code; a wrong code counts toward the
    table's throttle."""
    if not isinstance(seat, int) or isinstance(seat, bool):
        raise ConfirmationRefused(_("Choisissez votre nom."))
    player = (
        SheetPlayer.objects.select_related("registration__player")
        .filter(sheet=sheet, seat=seat)
        .first()
    )
    if player is None:
        raise ConfirmationRefused(_("Choisissez votre nom."))
    if not isinstance(pin, str) or not secrets.compare_digest(
        pin.strip().encode(), player.registration.pin.encode()
    ):
        _wrong_code(link)
        raise ConfirmationRefused(_("Code personnel erroné."))
    TableLink.objects.filter(pk=link.pk).update(failures=0)
    return player


def deals_confirm(*, link: TableLink, seat: Any, pin: Any) -> list[Deal]:
    """The player at `seat` confirms, with their code, every waiting deal of the other side."""
    _throttle_check(link)
    sheet = table_sheet(link)
    if sheet is None:
        raise ConfirmationRefused(_("Aucune donne à confirmer."))
    player = _player_with_code(link, sheet, seat, pin)
    seat_of: dict[int | None, int] = dict(
        SheetPlayer.objects.filter(sheet=sheet).values_list("registration_id", "seat")
    )
    waiting = list(Deal.objects.filter(sheet=sheet, pending=True).order_by("number"))
    eligible = [
        deal for deal in waiting if may_confirm(deal, seat_of.get(deal.entered_by_player_id), seat)
    ]
    if not eligible:
        raise ConfirmationRefused(
            _(
                "Aucune donne à confirmer pour vous : une donne se confirme par un joueur de "
                "l'autre camp que celui qui l'a saisie."
            )
        )
    return _confirm(sheet, eligible, registration=player.registration, user=None)


def deal_confirm_by_arbiter(*, deal: Deal, user, expected_version: int) -> Deal:
    """The arbiter accepts a deal entered at the table (after checking it with the players)."""
    _confirm(deal.sheet, [deal], registration=None, user=user, expected_version=expected_version)
    return deal


def _confirm(sheet, deals, *, registration, user, expected_version=None) -> list[Deal]:
    now = timezone.now()
    with transaction.atomic():
        bump_version(sheet, expected_version)
        for deal in deals:
            updated = Deal.objects.filter(pk=deal.pk, pending=True).update(
                pending=False,
                confirmed_by_player=registration,
                confirmed_by=user,
                confirmed_at=now,
            )
            if not updated:
                continue
            deal.pending = False
            change_record(
                tournament=sheet.tournament_id,
                obj=deal,
                kind=ChangeLog.ObjectType.DEAL_CONFIRMATION,
                sheet=sheet,
                action=ChangeLog.Action.UPDATE,
                before={"number": deal.number, "pending": True},
                after={
                    "number": deal.number,
                    "pending": False,
                    "confirmed_by_player": registration.number if registration else None,
                },
                user=user,
                username=registration.player.full_name if registration else "",
            )
    return deals


def sheet_finish_at_table(*, link: TableLink, seat: Any, pin: Any) -> ScoreSheet:
    """The table declares its sheet complete (every deal in and confirmed); the arbiter's
    validation stays the last word."""
    _throttle_check(link)
    sheet = table_sheet(link)
    if sheet is None:
        raise ConfirmationRefused(_("La feuille est vide."))
    player = _player_with_code(link, sheet, seat, pin)
    if Deal.objects.filter(sheet=sheet, pending=True).exists():
        raise ConfirmationRefused(_("Des donnes attendent encore leur confirmation."))
    expected = sheet.tournament.deals_for_table_size(sheet.players.count()) + sheet.extra_deals
    if sheet.deals.count() < expected:
        raise ConfirmationRefused(
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
        note={"by_player": player.registration.number},
        username=player.registration.player.full_name,
    )
    return sheet
