"""Deals: record, correct, delete, adjust, mark as not recorded; their history pictures.

Each write runs in one transaction, bumps the sheet's version (`scoring.sheets.services.sheets`)
and goes through one helper, `_deal_write`, which saves the deal, its per-player scores and the
history record with the state before and after.
"""

from __future__ import annotations

from collections.abc import Iterable
from decimal import Decimal
from typing import Any

from django.db import transaction
from django.db.models import F

from scoring.core.deal import Deal as EngineDeal
from scoring.core.deal import DealError
from scoring.core.engine import split_value
from scoring.core.figures import FIGURE
from scoring.core.rules import RULE_SETS
from scoring.models import Deal, DealScore, Incident, ScoreSheet, SheetPlayer
from scoring.sheets.services.barring import refuse_barred_taker
from scoring.sheets.services.deal_input import compute_scores, deal_input_check
from scoring.sheets.services.sheets import bump_version, sheet_players_count
from tournament.access.audit import change_record
from tournament.core.i18n import gettext_noop
from tournament.models import ChangeLog, Tournament


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
    if deal.alone:
        # Only when known: older pictures have no such key, and "" would read as a change.
        data["alone"] = deal.alone
    if deal.is_figure_only:
        data[FIGURE] = deal_figure(deal)
    if deal.client_id:
        data.update(
            pending=deal.pending,
            entered_by_player=deal.entered_by_player_id,
            confirmed_by_player=deal.confirmed_by_player_id,
        )
    return data


def deal_figure(deal: Deal) -> int | None:
    """The taker's figure of a deal typed from the FFT sheet (as computed, before adjustments)."""
    if not deal.is_figure_only or deal.taker is None:
        return None
    row = deal.computed_scores or deal.scores
    return row[deal.taker] if deal.taker < len(row) else None


def _check_room(sheet: ScoreSheet) -> None:
    """A table's sheet holds its deals per table, plus the extras the arbiter allowed."""
    if sheet.table_id is None:
        return
    extra = ScoreSheet.objects.filter(pk=sheet.pk).values_list("extra_deals", flat=True).first()
    tournament = Tournament.objects.get(pk=sheet.tournament_id)
    allowed = tournament.deals_for_table_size(sheet_players_count(sheet)) + (extra or 0)
    if sheet.deals.count() >= allowed:
        raise DealError(
            "number",
            gettext_noop(
                "Cette feuille a déjà ses %(allowed)s donnes. Un arbitre peut autoriser une "
                "donne supplémentaire."
            ),
            {"allowed": allowed},
        )


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
        deal.contract = deal.petit_au_bout = deal.chelem = deal.alone = ""
        deal.poignees = []
        deal.chelem_announced = False
        return
    deal.taker = data["taker"]
    deal.partner = data.get("partner")
    deal.alone = data.get("alone") or ""
    deal.contract = data["contract"]
    if data.get(FIGURE) is not None:
        # Typed from the FFT sheet: the card fields stay unknown, the row holds the figures.
        deal.oudlers = deal.points = None
        deal.poignees = []
        deal.petit_au_bout = deal.chelem = ""
        deal.chelem_announced = False
        return
    deal.oudlers = data["oudlers"]
    deal.points = Decimal(str(data["points"]))
    deal.poignees = [list(p) for p in data.get("poignees") or []]
    deal.petit_au_bout = data.get("petit_au_bout") or ""
    deal.chelem_announced = bool(data.get("chelem_announced"))
    deal.chelem = data.get("chelem") or ""


def _deal_write(
    deal: Deal, *, action: str, before: dict[str, Any] | None, user: Any, username: str = ""
) -> None:
    """Save a deal, its per-player scores and the history record of the change (in the
    caller's transaction)."""
    deal.save()
    _store_scores(deal, _seat_registrations(deal.sheet))
    change_record(
        tournament=deal.sheet.tournament_id,
        obj=deal,
        sheet=deal.sheet_id,
        action=action,
        before=before,
        after=deal_snapshot(deal),
        user=user,
        username=username,
    )


def _store_scores(deal: Deal, seat_registrations: dict[int, int]) -> None:
    DealScore.objects.filter(deal=deal).delete()
    DealScore.objects.bulk_create(
        DealScore(deal=deal, registration_id=seat_registrations[seat], seat=seat, points=points)
        for seat, points in enumerate(deal.scores)
    )


def _seat_registrations(sheet: ScoreSheet) -> dict[int, int]:
    return dict(SheetPlayer.objects.filter(sheet=sheet).values_list("seat", "registration_id"))


def deal_record(
    *,
    sheet: ScoreSheet,
    data: dict[str, Any],
    user: Any = None,
    expected_version: int | None = None,
    rule_set: str | None = None,
    entered_at_table: dict[str, Any] | None = None,
    after_close: bool = False,
) -> Deal:
    """Score and append a deal to a sheet.

    `entered_at_table` (client_id, entered_by_player) marks a deal typed on a player's phone:
    it waits for an opponent's confirmation before it counts publicly. `after_close`: the
    arbiter accepts a late deal on a closed position (scoring.sheets.waiting).
    """
    rule_set = rule_set or sheet.tournament.rule_set
    data = deal_input_check(data, sheet)
    scores = compute_scores(data, rule_set)
    with transaction.atomic():
        bump_version(sheet, expected_version, after_close=after_close)
        _check_room(sheet)
        last = sheet.deals.order_by("-number").values_list("number", flat=True).first()
        refuse_barred_taker(sheet, (last or 0) + 1, data)
        deal = Deal(sheet=sheet, number=(last or 0) + 1, rule_set=rule_set, created_by=user)
        if entered_at_table:
            deal.pending = True
            deal.client_id = entered_at_table["client_id"]
            deal.entered_by_player = entered_at_table["entered_by_player"]
        _apply_inputs(deal, data)
        deal.scores = scores
        deal.computed_scores = scores
        _deal_write(deal, action=ChangeLog.Action.CREATE, before=None, user=user)
    return deal


def deal_update(
    *,
    deal: Deal,
    data: dict[str, Any],
    user: Any = None,
    expected_version: int | None = None,
    username: str = "",
) -> Deal:
    """Correct a deal's inputs; its score is recomputed and the change recorded (`username`:
    the player who corrected it at the table, without an account)."""
    data = deal_input_check(data, deal.sheet)
    scores = compute_scores(data, deal.rule_set)
    with transaction.atomic():
        bump_version(deal.sheet, expected_version)
        refuse_barred_taker(deal.sheet, deal.number, data)
        before = deal_snapshot(deal)
        _apply_inputs(deal, data)
        deal.computed_scores = scores
        if not deal.adjusted:
            deal.scores = [0] * len(scores) if deal.score_not_recorded else scores
        _deal_write(
            deal, action=ChangeLog.Action.UPDATE, before=before, user=user, username=username
        )
    return deal


def deal_delete(*, deal: Deal, user: Any = None, expected_version: int | None = None) -> None:
    """Remove a deal; later deals keep their numbers' order (renumbered to stay contiguous)."""
    with transaction.atomic():
        sheet = deal.sheet
        bump_version(sheet, expected_version)
        before = deal_snapshot(deal)
        number = deal.number
        change_record(
            tournament=deal.sheet.tournament_id,
            obj=deal,
            sheet=deal.sheet_id,
            action=ChangeLog.Action.DELETE,
            before=before,
            after=None,
            user=user,
        )
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
    user: Any = None,
    expected_version: int | None = None,
) -> Deal:
    """Replace a deal's computed row by an arbiter's score (zero-sum, reason mandatory).

    Passing scores=None removes the adjustment and restores the computed row.
    """
    with transaction.atomic():
        bump_version(deal.sheet, expected_version)
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
        _deal_write(deal, action=ChangeLog.Action.UPDATE, before=before, user=user)
    return deal


def next_dealer(previous: int | None, players: int, first: int = 0) -> int:
    """The dealer of the next deal: the seat to the right of the previous dealer."""
    if previous is None:
        return first
    return (previous - 1) % players


def conflict_record(
    *, sheet: ScoreSheet, data: dict[str, Any], expected_version: int | None, user: Any = None
) -> ChangeLog:
    """Keep a refused input (its sheet moved meanwhile) beside the state that won."""
    deals = Deal.objects.filter(sheet=sheet).order_by("number")
    return change_record(
        tournament=sheet.tournament_id,
        obj=sheet,
        kind=ChangeLog.ObjectType.SHEET,
        sheet=sheet,
        action=ChangeLog.Action.CONFLICT,
        before={
            "version": sheet.version,
            "deals": [deal_snapshot(deal) for deal in deals],
        },
        after={"expected_version": expected_version, "input": _json_ready(data)},
        user=user,
    )


def _json_ready(data: dict[str, Any]) -> dict[str, Any]:
    ready = {}
    for key, value in data.items():
        if isinstance(value, Decimal):
            value = float(value)
        ready[key] = value
    return ready


def deal_may_go_unrecorded(deal: Deal) -> bool:
    """The revoke rule: after a revoke in defence on this deal and a failed contract, the taker
    may choose to leave the score unrecorded."""
    revoke = Incident.objects.filter(
        sheet_id=deal.sheet_id,
        deal_number=deal.number,
        kind=Incident.Kind.RENONCE_DEFENCE,
    ).exists()
    failed = (
        deal.taker is not None
        and bool(deal.computed_scores)
        and deal.computed_scores[deal.taker] < 0
    )
    return revoke and failed


def deal_set_not_recorded(
    *, deal: Deal, not_recorded: bool, user: Any = None, expected_version: int | None = None
) -> Deal:
    """The taker's choice after a defender's revoke and a failed contract: mark the score or not.

    Raises ValueError when the deal had no revoke in defence or the contract did not fail.
    """
    if not_recorded and not deal_may_go_unrecorded(deal):
        raise ValueError("only a failed contract after a revoke in defence may go unrecorded")
    with transaction.atomic():
        bump_version(deal.sheet, expected_version)
        before = deal_snapshot(deal)
        deal.score_not_recorded = not_recorded
        if not deal.adjusted:
            deal.scores = [0] * deal.players if not_recorded else list(deal.computed_scores)
        _deal_write(deal, action=ChangeLog.Action.UPDATE, before=before, user=user)
    return deal


def lost_by_margin_scores(deal: Deal, margin: int) -> list[int]:
    """The row of a contract the arbiter declares lost by `margin` points (e.g. taker's revoke)."""
    if deal.taker is None or not deal.contract:
        raise ValueError("only a played deal can be declared lost")
    rules = RULE_SETS[deal.rule_set]
    value = -(rules.contract_base + margin) * rules.multipliers[deal.contract]
    shape = EngineDeal(
        players=deal.players,
        taker=deal.taker,
        contract=deal.contract,
        oudlers=0,
        points=0,
        partner=deal.partner,
        dead=deal.dead,
    )
    return list(split_value(shape, value))
