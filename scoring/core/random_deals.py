"""Realistic random deals for demos and benchmarks (pure Python, seeded, scored by the engine).

Frequencies are those of club play: a prise or a garde on most deals, the garde sans rare and
the garde contre very rare; the taker usually lands near the target for the oudlers held;
now and then a poignée, a petit au bout, a passed deal, very rarely a chelem.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from scoring.core.deal import Deal, DealError
from scoring.core.engine import score_deal
from scoring.core.rules import FFT, RuleSet

_T = TypeVar("_T")

CONTRACT_WEIGHTS = {"prise": 50, "garde": 42, "garde_sans": 7, "garde_contre": 1}
# Oudlers in the attack's tricks, by contract: stronger contracts, stronger hands.
OUDLER_WEIGHTS = {
    "prise": (14, 42, 34, 10),
    "garde": (6, 34, 44, 16),
    "garde_sans": (2, 20, 50, 28),
    "garde_contre": (0, 10, 50, 40),
}
# Points scored compared with the target: mean and spread (the taker usually knows the hand).
MARGIN = {
    "prise": (2.0, 9.0),
    "garde": (4.0, 9.0),
    "garde_sans": (6.0, 8.0),
    "garde_contre": (8.0, 7.0),
}
PASS_RATE = 0.05
POIGNEE_RATE = 0.08
DOUBLE_POIGNEE_RATE = 0.015
PETIT_AU_BOUT_RATE = 0.07
CHELEM_RATE = 0.003


@dataclass(frozen=True)
class RandomDeal:
    """A generated deal: the engine's inputs (None when everybody passed) and the scores."""

    players: int
    dealer: int
    inputs: dict[str, Any] | None
    scores: tuple[int, ...]

    @property
    def passed(self) -> bool:
        return self.inputs is None


def random_deal(
    rng: random.Random, players: int, dealer: int, *, dead: bool = False, rules: RuleSet = FFT
) -> RandomDeal:
    """One deal at a table of `players`; with `dead` the dealer of a table of 5 sits out."""
    if rng.random() < PASS_RATE:
        return RandomDeal(players, dealer, None, (0,) * players)
    while True:
        inputs = _inputs(rng, players, dealer, dead)
        try:
            result = score_deal(Deal(**inputs), rules=rules)
        except DealError:  # an unlucky draw (e.g. a poignée too many): draw again
            continue
        return RandomDeal(players, dealer, inputs, tuple(result.scores))


def random_table_deals(
    rng: random.Random, players: int, count: int, *, dead: bool = False, first_dealer: int = 0
) -> list[RandomDeal]:
    """`count` deals at one table, the deal passing to the next player each time."""
    return [
        random_deal(rng, players, (first_dealer + index) % players, dead=dead)
        for index in range(count)
    ]


def _choice(rng: random.Random, options: Sequence[_T], weights: Sequence[float]) -> _T:
    return rng.choices(options, weights=weights, k=1)[0]


def _inputs(rng: random.Random, players: int, dealer: int, dead: bool) -> dict[str, Any]:
    seats = [seat for seat in range(players) if not (dead and seat == dealer)]
    playing = len(seats)
    taker = rng.choice(seats)
    partner = None
    if players == 5 and not dead and rng.random() < 0.92:  # else the king is in the chien
        partner = rng.choice([seat for seat in seats if seat != taker])
    contract = _choice(rng, list(CONTRACT_WEIGHTS), list(CONTRACT_WEIGHTS.values()))
    data: dict[str, Any] = {
        "players": players,
        "taker": taker,
        "partner": partner,
        "dead": dealer if dead else None,
        "contract": contract,
    }
    if rng.random() < CHELEM_RATE:
        announced = rng.random() < 0.5
        data.update(oudlers=3, points=91, chelem="attack", chelem_announced=announced)
        return data
    oudlers = _choice(rng, (0, 1, 2, 3), OUDLER_WEIGHTS[contract])
    target = FFT.targets[oudlers]
    mean, spread = MARGIN[contract]
    low = 4 * oudlers
    high = 91 - 4 * (3 - oudlers)
    points = min(high, max(low, target + rng.gauss(mean, spread)))
    # Half points exist only when three or five play the deal.
    points = round(points * 2) / 2 if playing != 4 else round(points)
    if points == int(points):
        points = int(points)
    data.update(oudlers=oudlers, points=points)
    poignees = []
    roll = rng.random()
    if roll < DOUBLE_POIGNEE_RATE:
        poignees.append([rng.choice(seats), "double"])
    elif roll < DOUBLE_POIGNEE_RATE + POIGNEE_RATE:
        poignees.append([rng.choice(seats), "simple"])
    data["poignees"] = poignees
    if rng.random() < PETIT_AU_BOUT_RATE:
        # The side taking the last trick with the petit holds it: one of the attack's oudlers,
        # or not.
        side = "attack" if rng.random() < 0.7 else "defense"
        if (side == "attack" and oudlers >= 1) or (side == "defense" and oudlers <= 2):
            data["petit_au_bout"] = side
    return data
