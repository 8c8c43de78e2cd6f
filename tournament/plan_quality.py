"""The positions page's figures for the whole plan: repeats, odd-table and direction spreads."""

from __future__ import annotations

from tournament import seating, services
from tournament.models import Tournament


def plan_quality(tournament: Tournament) -> seating.PlanFigures | None:
    """Figures of all generated positions together, None before the first one is generated.

    Spreads cover the players of the last generated position (those still playing, with their
    teams): a withdrawn player's seats no longer change, a late one's count from their arrival.
    """
    positions = services.tournament_plan(tournament)
    if not positions:
        return None
    plan = seating.Plan(tuple(tuple(tuple(table) for table in p) for p in positions))
    playing = {p for table in positions[-1] for p in table}
    players = [
        seating.SeatingPlayer(r.pk, r.team_id)
        for r in tournament.registrations.filter(pk__in=playing)
    ]
    return seating.plan_figures(plan, players)
