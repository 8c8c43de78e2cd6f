"""Rule sets as data: the FFT official scoring and named house variants."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import TypeVar

from tournament.core.i18n import gettext_noop as _

K = TypeVar("K")
V = TypeVar("V")


def _frozen(mapping: Mapping[K, V]) -> Mapping[K, V]:
    return MappingProxyType(dict(mapping))


@dataclass(frozen=True)
class RuleSet:
    """Every number the engine needs to score a deal; the engine holds no rule of its own."""

    name: str
    label: str
    # Points the attack needs, indexed by the number of oudlers in its tricks.
    targets: tuple[int, int, int, int] = (56, 51, 41, 36)
    # "Tout contrat valant arbitrairement 25 points".
    contract_base: int = 25
    multipliers: Mapping[str, int] = field(
        default_factory=lambda: _frozen(
            {"prise": 1, "garde": 2, "garde_sans": 4, "garde_contre": 6}
        )
    )
    poignee_bonuses: Mapping[str, int] = field(
        default_factory=lambda: _frozen({"simple": 20, "double": 30, "triple": 40})
    )
    # Trumps to show, keyed by the number of players actually playing the deal
    # (a table of 5 with a mort plays with the 4-player thresholds).
    poignee_thresholds: Mapping[int, Mapping[str, int]] = field(
        default_factory=lambda: _frozen(
            {
                3: _frozen({"simple": 13, "double": 15, "triple": 18}),
                4: _frozen({"simple": 10, "double": 13, "triple": 15}),
                5: _frozen({"simple": 8, "double": 10, "triple": 13}),
            }
        )
    )
    petit_au_bout_base: int = 10
    petit_au_bout_multiplied: bool = True
    # Booklet variant: the petit au bout adds to (or takes from) the attack's card points, so it
    # can change the contract's result, instead of being a separate bonus.
    petit_au_bout_in_points: bool = False
    # Chelem amounts from the attack's point of view; never multiplied.
    chelem_announced_made: int = 400
    chelem_unannounced_made: int = 200
    chelem_announced_failed: int = -200
    chelem_by_defense: int = -200
    # FFT: a chelem is every trick, so an attack chelem at prise/garde/garde sans fixes the
    # points (91 with 3 oudlers, or 87 with 2 when the defence keeps its Excuse). The booklet's
    # "all tricks but one" leaves the points open.
    chelem_is_every_trick: bool = True


FFT = RuleSet(name="fft", label=_("Règlement officiel FFT"))

# The commercial booklet (001): garde sans x3, garde contre x4, chelem "all tricks but one",
# petit au bout worth 10 card points to the side that took it. Everything else as FFT.
BOOKLET = replace(
    FFT,
    name="booklet",
    label=_("Variante maison (livret du commerce)"),
    multipliers=_frozen({"prise": 1, "garde": 2, "garde_sans": 3, "garde_contre": 4}),
    petit_au_bout_in_points=True,
    chelem_is_every_trick=False,
)

RULE_SETS: Mapping[str, RuleSet] = _frozen({FFT.name: FFT, BOOKLET.name: BOOKLET})


def get_rules(name: str) -> RuleSet:
    """The rule set registered under `name`; KeyError for an unknown name."""
    return RULE_SETS[name]
