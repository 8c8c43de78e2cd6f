"""Pure scoring of one French Tarot deal: breakdown and per-seat scores of a validated deal."""

from __future__ import annotations

import math
from dataclasses import dataclass

from scoring.core.deal import ATTACK, DEFENSE, Deal
from scoring.core.deal_validation import validate_deal
from scoring.core.rules import FFT, RuleSet


@dataclass(frozen=True)
class DealResult:
    """The breakdown a score sheet shows; bonuses are signed from the attack's point of view."""

    deal: Deal
    rules_name: str
    counted_points: int | float  # the attack's points as compared with the target
    target: int
    won: bool
    margin: int  # points of gain or loss, the half point given to the winning side
    multiplier: int
    contract_value: int  # (25 + margin) x multiplier, unsigned
    petit_au_bout_bonus: int
    poignee_bonus: int
    chelem_bonus: int
    value: int  # V: what each defender pays when positive, receives when negative
    scores: tuple[int, ...]


def passed_scores(players: int) -> tuple[int, ...]:
    """Scores of a deal where everybody passed."""
    return (0,) * players


def score_deal(deal: Deal, rules: RuleSet = FFT) -> DealResult:
    """Score a deal under `rules` (FFT by default); raises DealError for impossible input."""
    deal = validate_deal(deal, rules)
    counted = _counted_points(deal, rules)
    target = rules.targets[deal.oudlers]
    won = counted >= target
    # The half point goes to the winning side: 40.5 for 41 loses by 1, 41.5 wins by 1.
    margin = math.ceil(abs(counted - target))
    multiplier = rules.multipliers[deal.contract]
    contract_value = (rules.contract_base + margin) * multiplier
    petit = _petit_au_bout_bonus(deal, rules, multiplier)
    poignee = _poignee_total(deal, rules)
    chelem = _chelem_bonus(deal, rules)
    sign = 1 if won else -1
    value = sign * contract_value + petit + sign * poignee + chelem
    scores = split_value(deal, value)
    if sum(scores) != 0:
        raise RuntimeError(f"deal scores do not sum to zero: {scores}")
    return DealResult(
        deal=deal,
        rules_name=rules.name,
        counted_points=counted,
        target=target,
        won=won,
        margin=margin,
        multiplier=multiplier,
        contract_value=contract_value,
        petit_au_bout_bonus=petit,
        poignee_bonus=sign * poignee,
        chelem_bonus=chelem,
        value=value,
        scores=scores,
    )


def split_value(deal: Deal, value: int) -> tuple[int, ...]:
    """Share V: each defender -V, the partner +V, the mort 0, the taker balances the table."""
    shares = [-1] * deal.players
    if deal.dead is not None:
        shares[deal.dead] = 0
    if deal.partner is not None:
        shares[deal.partner] = 1
    shares[deal.taker] = 0
    shares[deal.taker] = -sum(shares)
    return tuple(share * value for share in shares)


def _counted_points(deal: Deal, rules: RuleSet) -> int | float:
    if not rules.petit_au_bout_in_points or deal.petit_au_bout is None:
        return deal.points
    sign = 1 if deal.petit_au_bout == ATTACK else -1
    return deal.points + sign * rules.petit_au_bout_base


def _petit_au_bout_bonus(deal: Deal, rules: RuleSet, multiplier: int) -> int:
    if deal.petit_au_bout is None or rules.petit_au_bout_in_points:
        return 0
    bonus = rules.petit_au_bout_base * (multiplier if rules.petit_au_bout_multiplied else 1)
    return bonus if deal.petit_au_bout == ATTACK else -bonus


def _poignee_total(deal: Deal, rules: RuleSet) -> int:
    # Unsigned: the poignée goes to the side that wins the deal, whoever showed it.
    return sum(rules.poignee_bonuses[size] for _seat, size in deal.poignees)


def _chelem_bonus(deal: Deal, rules: RuleSet) -> int:
    bonus = 0
    if deal.chelem == ATTACK:
        announced = deal.chelem_announced
        bonus += rules.chelem_announced_made if announced else rules.chelem_unannounced_made
    elif deal.chelem_announced:
        bonus += rules.chelem_announced_failed
    if deal.chelem == DEFENSE:
        # An announced chelem turned into a defence chelem pays both: the failed announcement
        # and the defence's own bonus. The sources list them as independent bonuses and give
        # no exception, so we apply both (V drops by 400).
        bonus += rules.chelem_by_defense
    return bonus
