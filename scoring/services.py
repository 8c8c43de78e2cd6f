"""The thin layer joining the scoring engine to the database: every write of a sheet goes here.

Each write runs in one transaction, checks the sheet's version (optimistic concurrency: two
people editing the same sheet never silently overwrite each other), stores the per-seat result
and leaves a ChangeLog record with the state before and after.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from decimal import Decimal
from typing import Any

from django.db import transaction
from django.db.models import F
from django.utils.translation import gettext_lazy as _

from scoring.engine import Deal as EngineDeal
from scoring.engine import score_deal
from scoring.models import ChangeLog, Deal, DealScore, ScoreSheet, SheetPlayer
from scoring.rules import RULE_SETS
from tournament.models import DIRECTIONS, Registration, Table, Tournament

ENGINE_FIELDS = (
    "players",
    "taker",
    "partner",
    "dead",
    "contract",
    "oudlers",
    "points",
    "poignees",
    "petit_au_bout",
    "chelem_announced",
    "chelem",
)


class StaleSheetError(Exception):
    """The sheet changed since the editor loaded it; nothing was written."""

    def __init__(self, sheet: ScoreSheet, expected: int | None):
        self.sheet = sheet
        self.expected = expected
        super().__init__(
            _("La feuille a été modifiée par quelqu'un d'autre (version %(current)s).")
            % {"current": sheet.version}
        )


def deal_snapshot(deal: Deal) -> dict[str, Any]:
    """A JSON-ready picture of a deal for the history."""
    data = deal.engine_input()
    data.update(
        number=deal.number,
        dealer=deal.dealer,
        passed=deal.passed,
        cancelled=deal.cancelled,
        arbiter_called=deal.arbiter_called,
        scores=list(deal.scores),
        adjusted=deal.adjusted,
        adjustment_reason=deal.adjustment_reason,
        score_not_recorded=deal.score_not_recorded,
    )
    return data


def sheet_for_table(*, table: Table) -> ScoreSheet:
    """The table's sheet, created on first use with the players in their seats."""
    sheet = ScoreSheet.objects.filter(table=table).first()
    if sheet is not None:
        return sheet
    with transaction.atomic():
        sheet, created = ScoreSheet.objects.get_or_create(
            table=table, defaults={"tournament_id": table.position.tournament_id}
        )
        if created:
            seats = sorted(table.seats.select_related("registration"), key=lambda s: s.index)
            SheetPlayer.objects.bulk_create(
                SheetPlayer(
                    sheet=sheet,
                    registration=seat.registration,
                    seat=index,
                    direction=seat.direction,
                    start_label=start_label(seat.registration),
                )
                for index, seat in enumerate(seats)
            )
    return sheet


def start_label(registration: Registration) -> str:
    """How FFT sheets name a player: table and direction at the first position played."""
    first = (
        registration.seats.select_related("table__position")
        .order_by("table__position__number")
        .first()
    )
    if first is None:
        return str(registration.number)
    return f"{first.table.number} {first.direction}"


def sheet_create_free(
    *,
    tournament: Tournament,
    registrations: Sequence[Registration],
    title: str = "",
    user=None,
) -> ScoreSheet:
    """A sheet without a seating plan: any 3 to 5 registered players (a club evening)."""
    if not 3 <= len(registrations) <= 5:
        raise ValueError("a sheet needs 3 to 5 players")
    if len({r.pk for r in registrations}) != len(registrations):
        raise ValueError("a player appears twice on the sheet")
    with transaction.atomic():
        sheet = ScoreSheet.objects.create(tournament=tournament, title=title)
        SheetPlayer.objects.bulk_create(
            SheetPlayer(
                sheet=sheet,
                registration=registration,
                seat=index,
                direction=DIRECTIONS[index],
                start_label=str(registration.number),
            )
            for index, registration in enumerate(registrations)
        )
        ChangeLog.objects.create(
            tournament=tournament,
            sheet=sheet,
            object_type="sheet",
            object_id=sheet.pk,
            action=ChangeLog.Action.CREATE,
            after={"title": title, "players": [r.pk for r in registrations]},
            user=user,
        )
    return sheet


def compute_scores(data: dict[str, Any], rule_set: str = "fft") -> list[int]:
    """Score a deal's inputs with the engine (raises DealError on impossible input)."""
    if data.get("passed") or data.get("cancelled"):
        return [0] * data["players"]
    obj = {name: data.get(name) for name in ENGINE_FIELDS}
    obj["poignees"] = [list(p) for p in obj.get("poignees") or []]
    obj["chelem_announced"] = bool(obj.get("chelem_announced"))
    if isinstance(obj.get("points"), Decimal):
        obj["points"] = float(obj["points"])
    result = score_deal(EngineDeal(**obj), rules=RULE_SETS[rule_set])
    return list(result.scores)


def _bump_version(sheet: ScoreSheet, expected: int | None) -> None:
    """Compare-and-swap on the sheet's version; raises StaleSheetError when it moved."""
    rows = ScoreSheet.objects.filter(pk=sheet.pk)
    if expected is not None:
        rows = rows.filter(version=expected)
    if rows.update(version=F("version") + 1) != 1:
        sheet.refresh_from_db(fields=["version"])
        raise StaleSheetError(sheet, expected)
    sheet.version = (expected if expected is not None else sheet.version) + 1


def _apply_inputs(deal: Deal, data: dict[str, Any]) -> None:
    passed = bool(data.get("passed"))
    cancelled = bool(data.get("cancelled"))
    deal.passed = passed
    deal.cancelled = cancelled
    deal.players = data["players"]
    deal.dealer = data.get("dealer")
    deal.arbiter_called = bool(data.get("arbiter_called"))
    deal.dead = data.get("dead")
    if passed or cancelled:
        deal.taker = deal.partner = deal.oudlers = deal.points = None
        deal.contract = deal.petit_au_bout = deal.chelem = ""
        deal.poignees = []
        deal.chelem_announced = False
        return
    deal.taker = data["taker"]
    deal.partner = data.get("partner")
    deal.contract = data["contract"]
    deal.oudlers = data["oudlers"]
    deal.points = Decimal(str(data["points"]))
    deal.poignees = [list(p) for p in data.get("poignees") or []]
    deal.petit_au_bout = data.get("petit_au_bout") or ""
    deal.chelem_announced = bool(data.get("chelem_announced"))
    deal.chelem = data.get("chelem") or ""


def _store_scores(deal: Deal, seat_registrations: dict[int, int]) -> None:
    DealScore.objects.filter(deal=deal).delete()
    DealScore.objects.bulk_create(
        DealScore(deal=deal, registration_id=seat_registrations[seat], seat=seat, points=points)
        for seat, points in enumerate(deal.scores)
    )


def _seat_registrations(sheet: ScoreSheet) -> dict[int, int]:
    return dict(SheetPlayer.objects.filter(sheet=sheet).values_list("seat", "registration_id"))


def _log(deal: Deal, action: str, before, after, user) -> None:
    ChangeLog.objects.create(
        tournament_id=deal.sheet.tournament_id,
        sheet_id=deal.sheet_id,
        object_type="deal",
        object_id=deal.pk,
        action=action,
        before=before,
        after=after,
        user=user,
    )


def deal_record(
    *,
    sheet: ScoreSheet,
    data: dict[str, Any],
    user=None,
    expected_version: int | None = None,
    rule_set: str | None = None,
) -> Deal:
    """Score and append a deal to a sheet."""
    rule_set = rule_set or sheet.tournament.rule_set
    scores = compute_scores(data, rule_set)
    with transaction.atomic():
        _bump_version(sheet, expected_version)
        last = sheet.deals.order_by("-number").values_list("number", flat=True).first()
        deal = Deal(sheet=sheet, number=(last or 0) + 1, rule_set=rule_set, created_by=user)
        _apply_inputs(deal, data)
        deal.scores = scores
        deal.computed_scores = scores
        deal.save()
        _store_scores(deal, _seat_registrations(sheet))
        _log(deal, ChangeLog.Action.CREATE, None, deal_snapshot(deal), user)
    return deal


def deal_update(
    *, deal: Deal, data: dict[str, Any], user=None, expected_version: int | None = None
) -> Deal:
    """Correct a deal's inputs; its score is recomputed and the change recorded."""
    scores = compute_scores(data, deal.rule_set)
    with transaction.atomic():
        _bump_version(deal.sheet, expected_version)
        before = deal_snapshot(deal)
        _apply_inputs(deal, data)
        deal.computed_scores = scores
        if not deal.adjusted:
            deal.scores = [0] * len(scores) if deal.score_not_recorded else scores
        deal.save()
        _store_scores(deal, _seat_registrations(deal.sheet))
        _log(deal, ChangeLog.Action.UPDATE, before, deal_snapshot(deal), user)
    return deal


def deal_delete(*, deal: Deal, user=None, expected_version: int | None = None) -> None:
    """Remove a deal; later deals keep their numbers' order (renumbered to stay contiguous)."""
    with transaction.atomic():
        sheet = deal.sheet
        _bump_version(sheet, expected_version)
        before = deal_snapshot(deal)
        number = deal.number
        _log(deal, ChangeLog.Action.DELETE, before, None, user)
        deal.delete()
        # Two-step shift avoids a transient clash on the (sheet, number) unique constraint.
        later = sheet.deals.filter(number__gt=number)
        later.update(number=F("number") + 1000)
        sheet.deals.filter(number__gt=number + 1000).update(number=F("number") - 1001)


def deal_adjust(
    *,
    deal: Deal,
    scores: Iterable[int] | None,
    reason: str,
    user=None,
    expected_version: int | None = None,
) -> Deal:
    """Replace a deal's computed row by an arbiter's score (zero-sum, reason mandatory).

    Passing scores=None removes the adjustment and restores the computed row.
    """
    with transaction.atomic():
        _bump_version(deal.sheet, expected_version)
        before = deal_snapshot(deal)
        if scores is None:
            deal.adjusted = False
            deal.adjustment_reason = ""
            deal.scores = list(deal.computed_scores)
        else:
            scores = [int(s) for s in scores]
            if len(scores) != deal.players or sum(scores) != 0:
                raise ValueError("an adjusted score must give every seat a figure summing to 0")
            if not reason.strip():
                raise ValueError("an adjusted score needs a reason")
            deal.adjusted = True
            deal.adjustment_reason = reason.strip()
            deal.scores = scores
        deal.save()
        _store_scores(deal, _seat_registrations(deal.sheet))
        _log(deal, ChangeLog.Action.UPDATE, before, deal_snapshot(deal), user)
    return deal
