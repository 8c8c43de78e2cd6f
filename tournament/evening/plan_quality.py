"""The positions page's figures for the whole plan: repeats, odd-table and direction spreads."""

from __future__ import annotations

from tournament.core import seating
from tournament.evening.fairness import generated_floor
from tournament.evening.selectors import tables_of
from tournament.models import Tournament


def plan_quality(tournament: Tournament) -> seating.PlanFigures | None:
    """Figures of all generated positions together, None before the first one is generated.

    Spreads cover the players of the last generated position (those still playing, with their
    teams): a withdrawn player's seats no longer change, a late one's count from their arrival.
    The repeats' bound is the generator's where it still holds (its counts, or the exact
    solver's proof: 16 at 13 players x 3 positions where counting alone says 8).
    """
    stored = list(tournament.positions.prefetch_related("tables__seats"))
    positions = [tables_of(p) for p in stored]
    if not positions:
        return None
    teams = dict(tournament.registrations.values_list("pk", "team_id"))
    floor = generated_floor(positions, stored[-1].generated_figures, teams)
    plan = seating.Plan(
        tuple(tuple(tuple(table) for table in p) for p in positions), repeats_floor=floor
    )
    playing = {p for table in positions[-1] for p in table}
    players = [seating.SeatingPlayer(pk, teams[pk]) for pk in sorted(playing) if pk in teams]
    return seating.plan_figures(plan, players)
