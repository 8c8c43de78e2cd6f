"""What a phone still holds when its position closes: the count of unsent deals it reports with
its sheet refresh (the desk shows it before a close), and a deal it sends after the close, kept
as a late deal for the arbiter (scoring.sheets.waiting decides both), never dropped."""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.late import LateDeal, PhoneQueue
from scoring.models import ScoreSheet, TableLink
from scoring.sheets.services import deal_input_check
from scoring.sheets.table_entry.codes import CodeRefused
from scoring.sheets.table_entry.deals import check_client_id
from scoring.sheets.table_entry.links import table_sheet
from tournament.access.audit import change_record
from tournament.models import ChangeLog, Position, Registration, Tournament

# Late deals waiting for the arbiter at one table: beyond, a phone is refused (a leaked link
# can't flood the desk); a table sends one or two after a close.
LATE_DEALS_PER_TABLE = 20
# A phone's report of its unsent deals is bounded like its queue could ever be, and a table
# keeps the reports of at most this many phones (its players', one or two each).
QUEUE_LIMIT = 99
PHONES_PER_TABLE = 10


def closed_link(token: str) -> TableLink | None:
    """The link of a table whose position closed (or whose tournament finished) while its
    players entered deals on their phones: what a phone sends there is a late deal. None for an
    unknown or revoked link, a paper tournament, or a position still open."""
    if not token or len(token) > 64:
        return None
    link = (
        TableLink.objects.select_related("table__position__tournament").filter(token=token).first()
    )
    if link is None or link.revoked:
        return None
    position = link.table.position
    tournament = position.tournament
    if tournament.entry_mode == Tournament.EntryMode.PAPER:
        return None
    closed = position.status == Position.Status.CLOSED
    if closed or tournament.status == Tournament.Status.FINISHED:
        return link
    return None


def late_deal_keep(
    *, link: TableLink, client_id: Any, data: Any, enterer: Registration, number: Any = None
) -> tuple[LateDeal, bool]:
    """Keep a deal sent after its table's position closed, as sent, for the arbiter: returns
    (late deal, replayed); a resend of the same client id answers the first. Checked as any
    deal typed at the table; `enterer` is the player the phone's binding proved, if any."""
    client_id = check_client_id(client_id)
    table = link.table
    earlier = LateDeal.objects.filter(table=table, client_id=client_id).first()
    if earlier is not None:
        return earlier, True
    sheet = table_sheet(link) or ScoreSheet(tournament=table.position.tournament, table=table)
    if sheet.pk is None:
        sheet._players_count = table.seats.count()
    deal_input_check(data, sheet)
    waiting = LateDeal.objects.filter(table=table, status=LateDeal.Status.WAITING).count()
    if waiting >= LATE_DEALS_PER_TABLE:
        raise CodeRefused(
            _("Trop de donnes reçues après la clôture : appelez l'arbitre."),
            throttled=True,
            field="deal",
        )
    try:
        with transaction.atomic():
            late = LateDeal.objects.create(
                table=table,
                client_id=client_id,
                data=data,
                entered_by_player=enterer,
                number=number if isinstance(number, int) and not isinstance(number, bool) else None,
            )
            change_record(
                tournament=table.position.tournament_id,
                obj=late,
                kind=ChangeLog.ObjectType.LATE_DEAL,
                sheet=sheet.pk,
                action=ChangeLog.Action.CREATE,
                after={
                    "table": table.number,
                    "position": table.position.number,
                    "deal": data,
                    "entered_by_player": enterer.number,
                    "number": late.number,
                },
                username=enterer.player.full_name,
            )
    except IntegrityError:  # the same deal sent twice at once: the other request kept it
        return LateDeal.objects.get(table=table, client_id=client_id), True
    return late, False


def phone_queue_report(*, link: TableLink, device: str, count: Any) -> None:
    """What one phone (its device cookie) says it still holds unsent: kept while it holds some,
    forgotten when it holds none; a count the arbiter already decided on stays decided."""
    if not device or isinstance(count, bool) or not isinstance(count, int) or count < 0:
        return
    count = min(count, QUEUE_LIMIT)
    rows = PhoneQueue.objects.filter(table_id=link.table_id, device=device)
    if count == 0:
        rows.delete()
        return
    row = rows.first()
    if row is None:
        if PhoneQueue.objects.filter(table_id=link.table_id).count() >= PHONES_PER_TABLE:
            return  # a table has a handful of phones: more reports are not its players'
        try:
            with transaction.atomic():
                PhoneQueue.objects.create(
                    table_id=link.table_id, device=device, count=count, reported_at=timezone.now()
                )
        except IntegrityError:  # two reports of one phone at once: the other one is kept
            pass
        return
    row.count, row.acknowledged = count, min(row.acknowledged, count)
    row.reported_at = timezone.now()
    row.save(update_fields=["count", "acknowledged", "reported_at"])
