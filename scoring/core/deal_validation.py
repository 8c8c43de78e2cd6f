"""Validation of one deal: every field checked, a DealError naming the first one at fault."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace
from decimal import Decimal
from fractions import Fraction
from typing import Any

from scoring.core.deal import (
    ATTACK,
    CHELEM_POINTS,
    POINTS_PER_OUDLER,
    SIDES,
    TOTAL_POINTS,
    TRUMPS_IN_GAME,
    Deal,
    DealError,
    is_int,
)
from scoring.core.rules import FFT, RuleSet
from tournament.core.i18n import gettext_noop as _


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
                "Points : %(value)s est impossible avec ce nombre de bouts (%(oudlers)s) : "
                "entre %(low)s et %(high)s."
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
                "bouts : %(oudlers)s)."
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
