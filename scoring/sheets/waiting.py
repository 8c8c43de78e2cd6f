"""What still waits at a position's tables before the arbiter closes it, finishes the tournament,
cuts it or seats by rank, and the arbiter's decisions on what waits.

Three things wait, each counted nowhere until decided:
- a deal entered on a phone that nobody of the other side confirmed yet (pending, or contested);
  the arbiter confirms it, corrects or adjusts it then confirms it, or deletes it (the sheet's
  own actions, each in the history);
- deals a phone reports it still holds (scoring.late.PhoneQueue): the arbiter decides to go on
  anyway (`phone_queue_acknowledge`), and what the phone sends later is kept as a late deal;
- a deal that reached the server after its position closed (scoring.late.LateDeal): the arbiter
  accepts it (it becomes a confirmed deal of the sheet) or rejects it (kept, never counted).

`waiting_at` answers tournament's `hooks.waiting_deals`: its close, finish and seating by rank
refuse while anything waits (tournament.access.lifecycle.ensure_nothing_waits), as the cut does.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.late import LateDeal, PhoneQueue
from scoring.models import Deal, ScoreSheet
from scoring.sheets.services import deal_record, sheet_for_table
from scoring.sheets.services.sheets import bump_version, sheet_field_write
from tournament.access.audit import change_record
from tournament.access.lifecycle import Locked
from tournament.models import ChangeLog, Position, Table, Tournament


@dataclass
class TableWaits:
    """What waits at one table: its waiting deals, its phones' unsent deals, its late deals."""

    table: Table
    deals: list[Deal] = field(default_factory=list)
    queues: list[PhoneQueue] = field(default_factory=list)
    late: list[LateDeal] = field(default_factory=list)

    @property
    def number(self) -> int:
        return self.table.number

    @property
    def position_number(self) -> int:
        return self.table.position.number

    @property
    def queued(self) -> int:
        return sum(q.count - q.acknowledged for q in self.queues)

    @property
    def count(self) -> int:
        return len(self.deals) + self.queued + len(self.late)


def waiting_at(
    tournament: Tournament, positions: Sequence[Position] | None = None
) -> list[TableWaits]:
    """What waits at each table of these positions (every position of the tournament when
    None), tables with nothing waiting left out, by position and table number. Three queries."""
    where: dict[str, Any] = {"position__tournament": tournament}
    if positions is not None:
        where = {"position__in": [p.pk for p in positions]}
    prefix = {f"table__{key}": value for key, value in where.items()}
    deals = Deal.objects.waiting().filter(**{f"sheet__{k}": v for k, v in prefix.items()})
    queues = PhoneQueue.objects.filter(count__gt=F("acknowledged"), **prefix)
    late = LateDeal.objects.filter(status=LateDeal.Status.WAITING, **prefix)
    tables: dict[int, TableWaits] = {}

    def at(table: Table) -> TableWaits:
        return tables.setdefault(table.pk, TableWaits(table))

    related = "sheet__table__position"
    for deal in deals.select_related(related, "entered_by_player__player").order_by("number"):
        assert deal.sheet.table is not None  # filtered on the table's position
        at(deal.sheet.table).deals.append(deal)
    for queue in queues.select_related("table__position").order_by("reported_at"):
        at(queue.table).queues.append(queue)
    for item in late.select_related("table__position", "entered_by_player__player"):
        at(item.table).late.append(item)
    return sorted(tables.values(), key=lambda w: (w.position_number, w.number))


def late_deals_waiting(tournament: Tournament) -> int:
    """How many deals phones sent after their position closed wait for the arbiter (the desk's
    entry overview says so)."""
    waiting = LateDeal.objects.filter(status=LateDeal.Status.WAITING)
    return waiting.filter(table__position__tournament=tournament).count()


# --- the arbiter's decisions ----------------------------------------------------------------


def _decision_record(item: LateDeal | PhoneQueue, *, before: Any, after: Any, user: Any) -> None:
    table = item.table
    change_record(
        tournament=table.position.tournament_id,
        obj=item,
        kind=(
            ChangeLog.ObjectType.LATE_DEAL
            if isinstance(item, LateDeal)
            else ChangeLog.ObjectType.PHONE_QUEUE
        ),
        sheet=ScoreSheet.objects.filter(table=table).values_list("pk", flat=True).first(),
        action=ChangeLog.Action.UPDATE,
        before={"table": table.number, "position": table.position.number, **before},
        after={"table": table.number, "position": table.position.number, **after},
        user=user,
    )


def _locked_late(late: LateDeal) -> LateDeal:
    fresh = (
        LateDeal.objects.select_for_update(of=("self",))
        .select_related("table__position__tournament")
        .get(pk=late.pk)
    )
    if fresh.status != LateDeal.Status.WAITING:
        raise ValidationError(_("L'arbitre a déjà décidé de cette donne tardive."))
    return fresh


@transaction.atomic
def late_deal_accept(*, late: LateDeal, user: Any) -> Deal:
    """The arbiter accepts a late deal: it becomes the sheet's next deal, confirmed by them (its
    position may be closed: this is the arbiter's own act). A validated sheet is reopened to
    take it and validated again (both logged, with the reason); a finished tournament is
    refused, saying to reopen it first (its results are published: reopening them is a decision
    of its own). A deal the sheet can't take (a full sheet, a wrong input) is refused as at the
    desk."""
    late = _locked_late(late)
    tournament = late.table.position.tournament
    if tournament.status == Tournament.Status.FINISHED:
        raise Locked(
            _(
                "Le tournoi est terminé : rouvrez-le d'abord (page du tournoi, « Rouvrir le "
                "tournoi », avec un motif), puis acceptez la donne tardive."
            ),
            code="finished",
        )
    sheet = sheet_for_table(table=late.table)
    sheet.tournament = tournament
    was_validated = sheet.status == ScoreSheet.Status.VALIDATED
    if was_validated:
        _sheet_status_for(late, sheet, user, validated=False)
    if late.number is not None and sheet.deals.filter(number=late.number).exists():
        raise ValidationError(
            _(
                "La donne %(number)s est déjà sur la feuille : comparez-les, corrigez la "
                "feuille s'il le faut, puis refusez la donne tardive."
            )
            % {"number": late.number}
        )
    deal = deal_record(
        sheet=sheet,
        data=late.data,
        user=user,
        entered_at_table={"client_id": late.client_id, "entered_by_player": late.entered_by_player},
        after_close=True,
    )
    now = timezone.now()
    Deal.objects.filter(pk=deal.pk).update(pending=False, confirmed_by=user, confirmed_at=now)
    deal.pending = False
    late.status, late.decided_by, late.decided_at, late.deal = (
        LateDeal.Status.ACCEPTED,
        user,
        now,
        deal,
    )
    late.save(update_fields=["status", "decided_by", "decided_at", "deal"])
    _decision_record(
        late,
        before={"status": LateDeal.Status.WAITING.value},
        after={"status": late.status, "deal": deal.number, "scores": deal.scores},
        user=user,
    )
    if was_validated:  # the arbiter's acceptance is their check of the deal: validated again
        _sheet_status_for(late, sheet, user, validated=True)
    return deal


def _sheet_status_for(late: LateDeal, sheet: ScoreSheet, user: Any, *, validated: bool) -> None:
    """Un-validate the sheet a late deal is accepted on, or validate it again once the deal is
    in, as the arbiter would (logged, with the reason), in the acceptance's transaction; its
    position may be closed."""
    bump_version(sheet, None, validating=True, after_close=True)
    reason = _("Donne tardive acceptée (reçue après la clôture)")
    if late.number is not None:
        reason = _("Donne tardive %(number)s acceptée (reçue après la clôture)") % {
            "number": late.number
        }
    states = (ScoreSheet.Status.VALIDATED.value, ScoreSheet.Status.IN_PROGRESS.value)
    before, after = reversed(states) if validated else states
    sheet_field_write(
        sheet,
        field="status",
        before=before,
        after=after,
        kind=ChangeLog.ObjectType.SHEET_STATUS,
        action=ChangeLog.Action.UPDATE if validated else ChangeLog.Action.REOPEN,
        note={"reason": reason},
        user=user,
    )


@transaction.atomic
def late_deal_reject(*, late: LateDeal, user: Any) -> LateDeal:
    """The arbiter rejects a late deal: kept as it came, counted nowhere."""
    late = _locked_late(late)
    late.status, late.decided_by, late.decided_at = (
        LateDeal.Status.REJECTED,
        user,
        timezone.now(),
    )
    late.save(update_fields=["status", "decided_by", "decided_at"])
    _decision_record(
        late,
        before={"status": LateDeal.Status.WAITING.value},
        after={"status": late.status, "deal": late.data},
        user=user,
    )
    return late


@transaction.atomic
def phone_queue_acknowledge(*, queue: PhoneQueue, user: Any) -> PhoneQueue:
    """The arbiter goes on although a phone holds unsent deals: what it sends once its position
    is closed is kept as late deals. A phone reporting more deals afterwards waits again."""
    queue = (
        PhoneQueue.objects.select_for_update().select_related("table__position").get(pk=queue.pk)
    )
    before = queue.acknowledged
    queue.acknowledged = queue.count
    queue.save(update_fields=["acknowledged"])
    _decision_record(
        queue,
        before={"unsent": queue.count - before},
        after={"unsent": 0, "acknowledged": queue.count},
        user=user,
    )
    return queue
