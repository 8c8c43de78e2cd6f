"""Seating generator: who sits at which table, in which direction, for every position.

Pure Python, no Django. The entry point is `generate`; the Django layer loads registrations,
calls it and saves the `Plan`. Vocabulary:

- a *position* is a round: every table plays its deals once;
- a *table* is a tuple of player ids in seat order N, E, S, W and, at tables of five, a fifth
  seat "X" (shown "5e" on sheets). Tables of three use N, E, S. North deals first, so balancing
  directions also rotates first dealers;
- two players *meet* when they sit at the same table in a position. `repeated_meetings` (E) sums,
  over all pairs, max(0, times met - 1).

Hard rules, always kept: teammates never share a table; every present player has exactly one seat
per position; tables of 4 with the remainder at tables of 5 (policy "five") or 3 ("three").
Then, in order: the seats at tables of 3 or 5 (the *odd tables*, a different game) shared as
evenly as the arithmetic allows, each player's count within 1 of every other's over the whole
plan; as few repeated meetings as possible (a third meeting costs far more than a second);
balanced directions per player. Fairness comes before repeats: where both cannot hold, the plan
says so in `Plan.notes`, with a lower bound on repeats.

How: known designs (affine plane, transversal designs from difference matrices, rotational
designs found offline) give zero-repeat movements where they exist, with players relabelled by the
seed; greedy starts do elsewhere. Each start is first made fair (odd seats handed from players
with more to players with fewer), then a tabu search and simulated annealing, both with
incremental meeting counts, lower the repeats by moves that never widen the odd-table spread.
A small field's first plan (20 players or fewer) is then annealed on the repeats alone, and up
to 16 players an exact model (OR-Tools CP-SAT, `exact`) improves it where it can and proves a
lower bound; a re-plan of a small field goes to the same model, the played positions fixed.
Directions are balanced last. Re-plan by passing the positions already played as `fixed` and
the current plan as `previous`: played positions are kept exactly, unplayed ones change as
little as the new field allows, all counts cover the whole tournament.
`plan_figures` gives a plan's repeats, odd-table spread and direction spread with their bounds.

Modules, by capability:

- `plan`: the vocabulary and data types (`Plan`, `SeatingPlayer`, `PlanNote`), table sizes,
  the checks of a request and `SeatingError`;
- `generator`: `generate`, the entry point, which assembles the plan;
- `state`: the search state (incremental meeting and odd-table counts), the swap delta and the
  swap every search step uses;
- `starts`: starting groupings (previous plan, designs relabelled, greedy);
- `search`: the optimisation from those starts (fairness first, then repeats), with its bounds;
- `small`: the small fields' second pass (`refine_on_repeats`, `refine_exactly`), a re-plan
  through the exact model too;
- `bounds`: lower bounds on repeats (counting, co-meetings of positions);
- `exact`: the CP-SAT model of a small field, behind a plain-Python interface;
- `local_search`: the tabu search and the simulated annealing;
- `designs`: zero-repeat combinatorial designs; `directions`: N, E, S, W balanced per player;
- `metrics`: meetings, repeats, spreads and `plan_figures`; `plan_problems` for a plan by hand;
- `notes`: the plan's notes for the arbiter, translatable templates;
- `seeded`: one position seated from the standings instead, by rank or in a snake (finals).
"""

from tournament.core.seating.generator import generate
from tournament.core.seating.metrics import (
    PlanFigures,
    direction_counts,
    direction_spread,
    direction_spread_floor,
    meeting_counts,
    odd_spread,
    odd_table_counts,
    plan_figures,
    plan_problems,
    repeated_meetings,
    starting_positions,
)
from tournament.core.seating.plan import (
    DIRECTIONS,
    Plan,
    PlanNote,
    SeatingError,
    SeatingPlayer,
    numbered_field,
    table_sizes,
)
from tournament.core.seating.seeded import RANK, SNAKE, seat_by_standings
from tournament.core.seating.small import expected_seconds

__all__ = [
    "DIRECTIONS",
    "RANK",
    "SNAKE",
    "Plan",
    "PlanFigures",
    "PlanNote",
    "SeatingError",
    "SeatingPlayer",
    "direction_counts",
    "direction_spread",
    "direction_spread_floor",
    "expected_seconds",
    "generate",
    "meeting_counts",
    "numbered_field",
    "odd_spread",
    "odd_table_counts",
    "plan_figures",
    "plan_problems",
    "repeated_meetings",
    "seat_by_standings",
    "starting_positions",
    "table_sizes",
]
