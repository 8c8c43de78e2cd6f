"""The thin layer joining registration and seating rules to the database, by capability.

Every write is a keyword-only function named `<thing>_<action>` running in one transaction.
Errors a user can fix are raised as ValidationError with a translated message; nothing is
written when one is raised. Reads that write nothing live in `selectors`.

- tournaments: creating a tournament, editing its settings
- registrations: registering players, late arrivals, withdrawals
- teams: forming teams, taking a player out
- imports: checking then applying a file of players
- positions: generating and publishing positions
- swaps: exchanging two seats
- fairness: a plan's fairness measures, before → after a change, against the generator's
- selectors: the read helpers
"""

from .fairness import PlanChange, generated_floor, plan_drift, replan_change
from .imports import import_apply, import_check
from .positions import (
    EarlierPositionsUnfinished,
    generation_seconds,
    position_generate,
    position_publish,
    position_regenerate,
    position_tables_store,
)
from .registrations import (
    next_number,
    player_register,
    registration_reinstate,
    registration_withdraw,
)
from .selectors import (
    itinerary,
    last_played_position,
    played_positions,
    played_tables,
    player_or_none,
    player_search,
    players_by_pk,
    position_in_play,
    position_or_404,
    position_plan,
    positions_in_order,
    positions_overview,
    registration_or_404,
    registrations_by_player,
    registrations_by_tournament,
    roster,
    seat_in_play,
    start_labels,
    table_or_404,
    tables_of,
    tournament_plan,
    tournaments_of_player,
    who_sits_where,
)
from .swaps import seat_swap, seat_swap_preview
from .teams import team_assign, team_remove_member
from .tournaments import TOURNAMENT_FIELDS, tournament_create, tournament_update

__all__ = [
    "EarlierPositionsUnfinished",
    "PlanChange",
    "plan_drift",
    "replan_change",
    "generated_floor",
    "generation_seconds",
    "TOURNAMENT_FIELDS",
    "import_apply",
    "import_check",
    "itinerary",
    "last_played_position",
    "next_number",
    "played_positions",
    "played_tables",
    "player_register",
    "player_or_none",
    "player_search",
    "players_by_pk",
    "position_generate",
    "position_or_404",
    "position_plan",
    "position_publish",
    "position_regenerate",
    "position_tables_store",
    "positions_in_order",
    "positions_overview",
    "position_in_play",
    "registration_or_404",
    "registrations_by_player",
    "registrations_by_tournament",
    "registration_reinstate",
    "registration_withdraw",
    "roster",
    "seat_in_play",
    "seat_swap",
    "seat_swap_preview",
    "start_labels",
    "table_or_404",
    "team_assign",
    "team_remove_member",
    "tournament_create",
    "tables_of",
    "tournament_plan",
    "tournament_update",
    "tournaments_of_player",
    "who_sits_where",
]
