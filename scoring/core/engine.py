"""Pure scoring of one French Tarot deal: validation, breakdown and per-seat scores."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import MISSING, dataclass, fields, replace
from decimal import Decimal
from fractions import Fraction
from typing import Any, TypeGuard

from scoring.core.rules import FFT, RuleSet
from tournament.core.i18n import TranslatableError
from tournament.core.i18n import gettext_noop as _

CONTRACTS = ("prise", "garde", "garde_sans", "garde_contre")
CONTRACT_LABELS: Mapping[str, str] = {
    "prise": _("Prise"),
    "garde": _("Garde"),
    "garde_sans": _("G. Sans"),
    "garde_contre": _("G. Contre"),
}
# Their full names, where the score sheet's abbreviations above do not fit (the deal's choices).
CONTRACT_NAMES: Mapping[str, str] = {
    "prise": _("Prise"),
    "garde": _("Garde"),
    "garde_sans": _("Garde sans"),
    "garde_contre": _("Garde contre"),
}
POIGNEE_SIZES = ("simple", "double", "triple")
ATTACK = "attack"
DEFENSE = "defense"
SIDES = (ATTACK, DEFENSE)

TOTAL_POINTS = 91
# The 21 trumps and the Excuse, which may stand in for a trump in a poignée.
TRUMPS_IN_GAME = 22
# An oudler is worth 4.5 but is counted with a low card: holding one guarantees at least 4.
POINTS_PER_OUDLER = 4
# The Excuse held by the defence against an attack chelem stays with it and counts 4 points.
CHELEM_POINTS = ((91, 3), (87, 2))


class DealError(TranslatableError):
    """A deal a user can correct: names the field and carries a translatable message."""

    def __init__(self, field: str, template: str, params: Mapping[str, Any] | None = None):
        self.field = field
        super().__init__(template, params)

    def _init_args(self) -> tuple[Any, ...]:
        return (self.field, self.template, self.params)


@dataclass(frozen=True)
class Deal:
    """One played deal as the arbiter records it; seats are 0..players-1."""

    players: int
    taker: int
    contract: str
    oudlers: int
    points: int | float
    partner: int | None = None
    dead: int | None = None
    poignees: Sequence[Sequence[Any]] = ()
    petit_au_bout: str | None = None
    chelem_announced: bool = False
    chelem: str | None = None

    @classmethod
    def from_dict(cls, obj: Mapping[str, Any]) -> Deal:
        """Build a deal from a JSON object, turning missing or unknown keys into DealError."""
        if not isinstance(obj, Mapping):
            raise DealError("deal", _("Donne : un objet est attendu."))
        known = {f.name for f in fields(cls)}
        for key in obj:
            if key not in known:
                raise DealError(str(key), _("Champ inconnu : %(name)s."), {"name": key})
        for f in fields(cls):
            required = f.default is MISSING and f.default_factory is MISSING
            if required and f.name not in obj:
                raise DealError(f.name, _("Champ manquant : %(name)s."), {"name": f.name})
        return cls(**obj)

    def to_dict(self) -> dict[str, Any]:
        """The JSON-ready form, the inverse of from_dict."""
        data = {f.name: getattr(self, f.name) for f in fields(self)}
        data["poignees"] = [list(p) for p in self.poignees]
        return data


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


# --- validation -----------------------------------------------------------------------------


def validate_deal(deal: Deal, rules: RuleSet = FFT) -> Deal:
    """Check every field; return the deal normalised (points as int or x.5, poignées as tuples)."""
    _check_players(deal)
    _check_seat("taker", deal.taker, deal.players, _TAKER_RANGE)
    _check_dead(deal)
    _check_partner(deal)
    _check_contract(deal, rules)
    _check_oudlers(deal)
    points = _check_points(deal)
    poignees = _check_poignees(deal, rules)
    _check_side("petit_au_bout", deal.petit_au_bout, _PETIT_SIDE)
    if not isinstance(deal.chelem_announced, bool):
        raise DealError(
            "chelem_announced",
            _("Chelem annoncé : %(value)s n'est pas oui ou non."),
            {"value": deal.chelem_announced},
        )
    _check_side("chelem", deal.chelem, _CHELEM_SIDE)
    deal = replace(deal, points=points, poignees=poignees)
    _check_chelem_points(deal, rules)
    _check_petit_against_chelem(deal, rules)
    return deal


_TAKER_RANGE = _("Preneur : %(value)s n'est pas une place de la table (0 à %(last)s).")
_PARTNER_RANGE = _("Associé : %(value)s n'est pas une place de la table (0 à %(last)s).")
_DEAD_RANGE = _("Mort : %(value)s n'est pas une place de la table (0 à %(last)s).")
_PARTNER_NOT_FIVE = _("Associé : pas d'associé à %(players)s joueurs.")
_DEAD_NOT_FIVE = _("Mort : il n'y a de mort qu'à une table de 5 joueurs (ici %(players)s).")
_POIGNEE_RANGE = _("Poignées : %(value)s n'est pas une place de la table (0 à %(last)s).")
_PETIT_SIDE = _("Petit au bout : %(value)s n'est ni l'attaque ni la défense.")
_CHELEM_SIDE = _("Chelem : %(value)s n'est ni l'attaque ni la défense.")


def is_int(value: object) -> TypeGuard[int]:
    """An integer proper: bool is an int subclass, but True as a seat or a count is a mistake."""
    return isinstance(value, int) and not isinstance(value, bool)


def _check_players(deal: Deal) -> None:
    if not is_int(deal.players) or deal.players not in (3, 4, 5):
        raise DealError(
            "players",
            _("Nombre de joueurs : %(value)s n'est pas 3, 4 ou 5."),
            {"value": deal.players},
        )


def _check_seat(field: str, value: Any, players: int, template: str) -> None:
    if not is_int(value) or not 0 <= value < players:
        raise DealError(field, template, {"value": value, "last": players - 1})


def _check_five_seat(
    deal: Deal, field: str, value: Any, range_template: str, template: str
) -> None:
    """A seat that exists only at a table of 5 (the dead, the partner): in range, and 5 players."""
    _check_seat(field, value, deal.players, range_template)
    if deal.players != 5:
        raise DealError(field, template, {"players": deal.players})


def _check_dead(deal: Deal) -> None:
    if deal.dead is None:
        return
    _check_five_seat(deal, "dead", deal.dead, _DEAD_RANGE, _DEAD_NOT_FIVE)
    if deal.dead == deal.taker:
        raise DealError("dead", _("Mort : le mort ne peut pas être le preneur."))
    if deal.dead == deal.partner:
        raise DealError("dead", _("Mort : le mort ne peut pas être l'associé."))


def _check_partner(deal: Deal) -> None:
    if deal.partner is None:
        return
    _check_five_seat(deal, "partner", deal.partner, _PARTNER_RANGE, _PARTNER_NOT_FIVE)
    if deal.dead is not None:
        raise DealError(
            "partner", _("Associé : pas d'associé quand un mort est assis : on joue à 4.")
        )
    if deal.partner == deal.taker:
        raise DealError(
            "partner",
            _("Associé : le preneur qui joue seul n'a pas d'associé ; laisser le champ vide."),
        )


def _check_contract(deal: Deal, rules: RuleSet) -> None:
    if not isinstance(deal.contract, str) or deal.contract not in rules.multipliers:
        raise DealError(
            "contract",
            _("Contrat : %(value)s n'est pas un contrat connu."),
            {"value": deal.contract},
        )


def _check_oudlers(deal: Deal) -> None:
    if not is_int(deal.oudlers) or not 0 <= deal.oudlers <= 3:
        raise DealError(
            "oudlers", _("Bouts : %(value)s n'est pas entre 0 et 3."), {"value": deal.oudlers}
        )


def _playing(deal: Deal) -> int:
    """Players actually in the deal: a mort sits out and the other four play the 4-player game."""
    return deal.players - (1 if deal.dead is not None else 0)


def _check_points(deal: Deal) -> int | float:
    value = deal.points
    if isinstance(value, bool) or not isinstance(value, int | float | Decimal | Fraction):
        raise DealError("points", _("Points : %(value)s n'est pas un nombre."), {"value": value})
    if not math.isfinite(value) or not 0 <= value <= TOTAL_POINTS:
        raise DealError(
            "points", _("Points : %(value)s n'est pas entre 0 et 91."), {"value": value}
        )
    doubled = value * 2
    if doubled != int(doubled):
        raise DealError(
            "points",
            _("Points : %(value)s — seuls les demi-points (x,5) existent."),
            {"value": value},
        )
    points: int | float = int(value) if doubled % 2 == 0 else int(doubled) / 2
    if isinstance(points, float) and _playing(deal) == 4:
        raise DealError(
            "points",
            _("Points : pas de demi-point quand on joue à 4 (%(value)s)."),
            {"value": value},
        )
    _check_points_for_oudlers(points, deal.oudlers)
    return points


def _check_points_for_oudlers(points: int | float, oudlers: int) -> None:
    low = POINTS_PER_OUDLER * oudlers
    high = TOTAL_POINTS - POINTS_PER_OUDLER * (3 - oudlers)
    if not low <= points <= high:
        raise DealError(
            "points",
            _(
                "Points : %(value)s est impossible avec %(oudlers)s bout(s) "
                "(entre %(low)s et %(high)s)."
            ),
            {"value": points, "oudlers": oudlers, "low": low, "high": high},
        )


def _check_poignees(deal: Deal, rules: RuleSet) -> tuple[tuple[int, str], ...]:
    if isinstance(deal.poignees, str | bytes) or not isinstance(deal.poignees, Sequence):
        raise DealError(
            "poignees", _("Poignées : une liste est attendue."), {"value": deal.poignees}
        )
    poignees = tuple(_check_poignee(item, deal, rules) for item in deal.poignees)
    seats = [seat for seat, _size in poignees]
    for seat in seats:
        if seats.count(seat) > 1:
            raise DealError(
                "poignees",
                _("Poignées : la place %(seat)s en montre deux ; une seule par joueur."),
                {"seat": seat},
            )
    thresholds = rules.poignee_thresholds[_playing(deal)]
    needed = sum(thresholds[size] for _seat, size in poignees)
    if needed > TRUMPS_IN_GAME:
        raise DealError(
            "poignees",
            _("Poignées : elles demandent %(needed)s atouts, le jeu n'en a que %(available)s."),
            {"needed": needed, "available": TRUMPS_IN_GAME},
        )
    return poignees


def _check_poignee(item: Any, deal: Deal, rules: RuleSet) -> tuple[int, str]:
    if isinstance(item, str | bytes) or not isinstance(item, Sequence) or len(item) != 2:
        raise DealError(
            "poignees",
            _("Poignées : %(value)s n'est pas une place suivie d'une taille."),
            {"value": item},
        )
    seat, size = item
    _check_seat("poignees", seat, deal.players, _POIGNEE_RANGE)
    if not isinstance(size, str) or size not in rules.poignee_bonuses:
        raise DealError(
            "poignees",
            _("Poignées : %(value)s n'est pas simple, double ou triple."),
            {"value": size},
        )
    if seat == deal.dead:
        raise DealError(
            "poignees",
            _("Poignées : le mort (place %(seat)s) ne joue pas cette donne."),
            {"seat": seat},
        )
    return (seat, size)


def _check_side(field: str, value: Any, template: str) -> None:
    if value is not None and (not isinstance(value, str) or value not in SIDES):
        raise DealError(field, template, {"value": value})


def _check_chelem_points(deal: Deal, rules: RuleSet) -> None:
    # At garde contre the chien goes to the defence, so a chelem leaves the points open.
    if deal.chelem != ATTACK or deal.contract == "garde_contre" or not rules.chelem_is_every_trick:
        return
    if (deal.points, deal.oudlers) not in CHELEM_POINTS:
        raise DealError(
            "chelem",
            _(
                "Chelem : l'attaque qui fait tous les plis a 91 points et 3 bouts, ou 87 points "
                "et 2 bouts si la défense garde l'Excuse (saisi : %(points)s points, "
                "%(oudlers)s bout(s))."
            ),
            {"points": deal.points, "oudlers": deal.oudlers},
        )


def _check_petit_against_chelem(deal: Deal, rules: RuleSet) -> None:
    # Whoever takes every trick takes the last one: the other side cannot have the petit au bout.
    if not rules.chelem_is_every_trick:
        return
    if deal.chelem is not None and deal.petit_au_bout not in (None, deal.chelem):
        raise DealError(
            "petit_au_bout",
            _("Petit au bout : le camp qui fait le chelem fait aussi le dernier pli."),
        )
