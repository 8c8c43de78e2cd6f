"""The plan's notes: what the arbiter should know about a plan that is not perfect.

Each note is a `PlanNote` (a French template marked for the catalogue, with its params),
translated where it is shown, like `SeatingError`.
"""

from __future__ import annotations

from tournament.core.i18n import gettext_noop
from tournament.core.seating.plan import PlanNote
from tournament.core.seating.search import Outcome
from tournament.core.seating.state import State

# One sentence per kind of odd table, so that each translates whole.
_UNFAIR = {
    5: gettext_noop(
        "Les tables de 5 ne peuvent pas être mieux partagées : avec les positions déjà jouées, "
        "l'écart entre joueurs est d'au moins %(spread)s."
    ),
    3: gettext_noop(
        "Les tables de 3 ne peuvent pas être mieux partagées : avec les positions déjà jouées, "
        "l'écart entre joueurs est d'au moins %(spread)s."
    ),
    0: gettext_noop(
        "Les tables de 3 ou 5 ne peuvent pas être mieux partagées : avec les positions déjà "
        "jouées, l'écart entre joueurs est d'au moins %(spread)s."
    ),
}
_FORCED = gettext_noop(
    "Rencontres répétées : %(repeats)s (au moins %(floor)s inévitables : les positions demandent "
    "plus de rencontres qu'il ne reste d'adversaires jamais rencontrés)."
)
_NOT_FORCED = gettext_noop(
    "Rencontres répétées : %(repeats)s (aucun décompte ne les impose, mais aucun plan sans "
    "répétition n'a été trouvé)."
)
_UNEVEN = {
    5: gettext_noop(
        "Un plan avec moins de rencontres répétées (%(repeats)s au total) existait, mais les "
        "tables de 5 y revenaient "
        "aux mêmes joueurs (écart %(spread)s entre joueurs) : le partage équitable passe avant."
    ),
    3: gettext_noop(
        "Un plan avec moins de rencontres répétées (%(repeats)s au total) existait, mais les "
        "tables de 3 y revenaient "
        "aux mêmes joueurs (écart %(spread)s entre joueurs) : le partage équitable passe avant."
    ),
    0: gettext_noop(
        "Un plan avec moins de rencontres répétées (%(repeats)s au total) existait, mais les "
        "tables de 3 ou 5 y "
        "revenaient aux mêmes joueurs (écart %(spread)s entre joueurs) : le partage équitable "
        "passe avant."
    ),
}


def plan_notes(state: State, outcome: Outcome, sizes: list[int]) -> tuple[PlanNote, ...]:
    """What the plan could not reach and why: unfair odd tables, repeats, fairness's price."""
    notes = []
    odd_size = next((s for s in sizes if s != 4), 0)
    if outcome.fair_spread > 1:
        notes.append(PlanNote(_UNFAIR[odd_size], {"spread": outcome.fair_spread}))
    repeats = state.repeats()
    if repeats:
        if outcome.repeats_floor:
            notes.append(PlanNote(_FORCED, {"repeats": repeats, "floor": outcome.repeats_floor}))
        else:
            notes.append(PlanNote(_NOT_FORCED, {"repeats": repeats}))
    if outcome.uneven is not None:
        fewer, spread = outcome.uneven
        notes.append(PlanNote(_UNEVEN[odd_size], {"repeats": fewer, "spread": spread}))
    return tuple(notes)
