"""Penalty points: charged to the culprit, or shared among the table, outside the deal rows."""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass

# Faults whose sanction the FFT rules (004, 000) state without penalty points: the fausse
# donne's culprit may not bid on the redealt deal, a revoking defender may not bid on the next
# one (and the taker chooses whether a failed contract counts), a petit sec cancels the deal.
# Their default is 0 points. The rules give no figure for any other fault (the FFT arbitration
# code sets it), so those have no default: the arbiter must give the amount.
RULE_PENALTY_DEFAULTS: dict[str, int] = {
    "fausse_donne": 0,
    "renonce_defence": 0,
    "petit_sec": 0,
}


def penalty_defaults(organiser_defaults: Mapping[str, int] | None) -> dict[str, int]:
    """Every kind's blank-amount default: the organiser's amounts over the rules'."""
    return {**RULE_PENALTY_DEFAULTS, **(organiser_defaults or {})}


def default_penalty(kind: str, organiser_defaults: Mapping[str, int] | None) -> int | None:
    """The points an incident of `kind` costs when the arbiter leaves the amount blank.

    The organiser's amount (0 included) first, then the rules'; None when neither gives one:
    the amount must then be asked, never taken as 0.
    """
    chosen = (organiser_defaults or {}).get(kind)
    if chosen is not None:
        return int(chosen)
    return RULE_PENALTY_DEFAULTS.get(kind)


@dataclass(frozen=True)
class Penalty:
    """One incident's penalty: who pays, how much, and who shares it when it is shared.

    `table` lists the players of the culprit's table in a fixed order (seat order); the culprit
    may be in it or not. It is only used when `shared` is true.
    """

    culprit: Hashable
    points: int
    shared: bool = False
    table: Sequence[Hashable] = ()


def penalty_adjustments(penalties: Iterable[Penalty]) -> dict[Hashable, int]:
    """Points to add to each player's total: negative for culprits.

    A charged penalty only takes points from the culprit. A shared one also gives them to the
    other players of the table so that the table still sums to zero; when the amount does not
    divide evenly, the remainder goes one point at a time to the others in table order (the
    same input always gives the same split).
    """
    totals: dict[Hashable, int] = {}
    for penalty in penalties:
        if penalty.points < 0:
            raise ValueError(f"penalty points are a positive amount, not {penalty.points}")
        if penalty.points == 0:
            continue
        totals[penalty.culprit] = totals.get(penalty.culprit, 0) - penalty.points
        others = [p for p in penalty.table if p != penalty.culprit] if penalty.shared else []
        if not others:
            continue
        share, remainder = divmod(penalty.points, len(others))
        for index, other in enumerate(others):
            totals[other] = totals.get(other, 0) + share + (1 if index < remainder else 0)
    return totals
