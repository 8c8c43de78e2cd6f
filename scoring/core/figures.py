"""The FFT score sheet's figures: which figure a contract can give, and the row it fills.

The official sheet carries only the contract and each player's figure. Typed from it, a deal is
the contract, the taker (and the partner at 5) and the taker's figure; the other figures follow
from the split (each defender −V, the partner +V, the mort 0), and the figure is accepted only
when some real deal of that contract gives it. The values are computed with the engine's own
rules (scoring.core.engine), so every figure score_deal produces is accepted. Pure Python.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import replace
from functools import lru_cache
from itertools import combinations_with_replacement
from typing import NotRequired, TypedDict, Unpack

from scoring.core.deal import (
    ATTACK,
    CHELEM_POINTS,
    CONTRACT_LABELS,
    DEFENSE,
    POINTS_PER_OUDLER,
    TOTAL_POINTS,
    TRUMPS_IN_GAME,
    Deal,
    DealError,
    is_int,
)
from scoring.core.deal_validation import validate_deal
from scoring.core.engine import _chelem_bonus, _counted_points, _petit_au_bout_bonus, split_value
from scoring.core.rules import FFT, RULE_SETS, RuleSet
from tournament.core.i18n import gettext_noop as _

FIGURE = "figure"


class Table(TypedDict):
    """Who plays and the contract, as `table_shape` takes them besides the rules."""

    players: int
    taker: int
    contract: str
    partner: NotRequired[int | None]
    dead: NotRequired[int | None]


def figure_scores(*, figure: int, rules: RuleSet = FFT, **table: Unpack[Table]) -> tuple[int, ...]:
    """The row the taker's figure fills: defenders −V, partner +V, the mort 0, the taker as typed.

    Raises DealError naming the faulty field: the table's seats as the engine checks them, or
    "figure" when no real deal of this contract gives the taker that figure.
    """
    shape = table_shape(rules=rules, **table)
    contract = shape.contract
    if not is_int(figure):
        raise DealError(
            FIGURE,
            _("Chiffre du preneur : %(value)s n'est pas un nombre entier."),
            {"value": figure},
        )
    share = taker_share(shape)
    value, remainder = divmod(figure, share)
    if remainder:
        raise DealError(
            FIGURE,
            _(
                "Chiffre du preneur : %(value)s n'est pas un multiple de %(share)s (le preneur "
                "marque %(share)s fois ce que paie chaque défenseur)."
            ),
            {"value": figure, "share": share},
        )
    values = contract_values(contract, _playing(shape), rules)
    if value not in values:
        below = max((v for v in values if v < value), default=None)
        above = min((v for v in values if v > value), default=None)
        nearest = " ; ".join(_signed(v * share) for v in (below, above) if v is not None)
        raise DealError(
            FIGURE,
            _(
                "Chiffre du preneur : aucune donne jouée en %(contract)s ne donne %(value)s au "
                "preneur. Chiffres possibles les plus proches : %(nearest)s."
            ),
            {"value": _signed(figure), "contract": CONTRACT_LABELS[contract], "nearest": nearest},
        )
    return split_value(shape, value)


def table_shape(
    *,
    players: int,
    taker: int,
    contract: str,
    partner: int | None = None,
    dead: int | None = None,
    rules: RuleSet = FFT,
) -> Deal:
    """Who plays and the contract, checked as the engine checks a deal (card fields left blank)."""
    return validate_deal(
        Deal(
            players=players,
            taker=taker,
            contract=contract,
            oudlers=0,
            points=0,
            partner=partner,
            dead=dead,
        ),
        rules,
    )


def taker_share(shape: Deal) -> int:
    """How many times V the taker scores: 3 at 4 players, 2 at 3 or with a partner, 4 alone at 5."""
    return split_value(shape, 1)[shape.taker]


def contract_values(contract: str, playing: int, rules: RuleSet = FFT) -> frozenset[int]:
    """Every deal value V (what each defender pays) a real deal of `contract` can give."""
    if RULE_SETS.get(rules.name) is rules:
        return _registered_values(rules.name, contract, playing)
    return _values(rules, contract, playing)


@lru_cache(maxsize=64)
def _registered_values(rules_name: str, contract: str, playing: int) -> frozenset[int]:
    return _values(RULE_SETS[rules_name], contract, playing)


def _values(rules: RuleSet, contract: str, playing: int) -> frozenset[int]:
    # V = ±contract value + petit au bout ± poignées + chelem: the poignées go to the winner
    # whatever else happened, so they are added last to each (won, V without them).
    multiplier = rules.multipliers[contract]
    bases: set[tuple[bool, int]] = set()
    template = Deal(players=4, taker=0, contract=contract, oudlers=0, points=0)
    for oudlers, points in _card_points(playing):
        for petit in (None, ATTACK, DEFENSE):
            card = replace(template, oudlers=oudlers, points=points, petit_au_bout=petit)
            counted = _counted_points(card, rules)
            target = rules.targets[oudlers]
            won = counted >= target
            margin = math.ceil(abs(counted - target))  # the half point goes to the winner
            contract_value = (rules.contract_base + margin) * multiplier
            sign = 1 if won else -1
            petit_bonus = _petit_au_bout_bonus(card, rules, multiplier)
            for announced, chelem in _chelems(card, contract, rules):
                bonus = _chelem_bonus(
                    replace(card, chelem_announced=announced, chelem=chelem), rules
                )
                bases.add((won, sign * contract_value + petit_bonus + bonus))
    poignees = _poignee_totals(playing, rules)
    return frozenset(
        base + (poignee if won else -poignee) for won, base in bases for poignee in poignees
    )


def _card_points(playing: int) -> Iterator[tuple[int, int | float]]:
    """Every (oudlers, points) the attack can hold; half points only at 3 and 5 players."""
    step = 1 if playing == 4 else 0.5
    for oudlers in range(4):
        low = POINTS_PER_OUDLER * oudlers
        high = TOTAL_POINTS - POINTS_PER_OUDLER * (3 - oudlers)
        points: int | float = low
        while points <= high:
            yield oudlers, int(points) if points == int(points) else points
            points += step


def _chelems(card: Deal, contract: str, rules: RuleSet) -> Iterator[tuple[bool, str | None]]:
    """The chelem outcomes these card points allow (as the engine's validation allows them)."""
    for announced in (False, True):
        yield announced, None
        for side in (ATTACK, DEFENSE):
            if rules.chelem_is_every_trick:
                # Whoever takes every trick takes the last one, and the petit with it if at the end.
                if card.petit_au_bout not in (None, side):
                    continue
                fixed = side == ATTACK and contract != "garde_contre"
                if fixed and (card.points, card.oudlers) not in CHELEM_POINTS:
                    continue
            yield announced, side


def _poignee_totals(playing: int, rules: RuleSet) -> frozenset[int]:
    """The poignée bonuses a deal can carry: at most one per player, within the 22 trumps."""
    thresholds = rules.poignee_thresholds[playing]
    totals = set()
    for count in range(playing + 1):
        for sizes in combinations_with_replacement(sorted(rules.poignee_bonuses), count):
            if sum(thresholds[size] for size in sizes) <= TRUMPS_IN_GAME:
                totals.add(sum(rules.poignee_bonuses[size] for size in sizes))
    return frozenset(totals)


def _playing(shape: Deal) -> int:
    return shape.players - (1 if shape.dead is not None else 0)


def _signed(value: int) -> str:
    return f"{value:+d}" if value else "0"
