"""Re-plan after a withdrawal or a late arrival: played positions stay, guarantees still hold."""

import functools
from collections import Counter

import pytest

from tests.tournament.core.seating.seating_helpers import numbered_plan
from tournament.core.seating import (
    SeatingPlayer,
    direction_spread,
    generate,
    meeting_counts,
    plan_figures,
    plan_problems,
    repeated_meetings,
)


def field(n: int) -> list[SeatingPlayer]:
    return [SeatingPlayer(i) for i in range(1, n + 1)]


def replanned(players, positions, played, *, seed, policy="five", leaving=(), arriving=()):
    """Plan `players` over `positions`, then re-plan after `played` positions with `leaving`
    gone and `arriving` come: the played positions stay and the re-plan breaks no hard rule.
    Returns (the first plan, the players now, the re-plan)."""
    plan, now, replan = _replanned(
        players, positions, played, seed, policy, tuple(leaving), tuple(arriving)
    )
    assert replan.positions[:played] == plan.positions[:played]
    assert plan_problems(replan, now, policy, first=played) == []
    return plan, now, replan


@functools.cache
def _replanned(players, positions, played, seed, policy, leaving, arriving):
    """The plans of `replanned`, searched once per test process (tests share some requests)."""
    plan = numbered_plan(players, positions, policy, seed=seed)
    now = [p for p in field(players) if p.id not in leaving] + [SeatingPlayer(i) for i in arriving]
    replan = generate(
        now, positions, policy, fixed=plan.positions[:played], seed=seed, previous=plan
    )
    return plan, now, replan


def test_replacing_a_withdrawn_player_keeps_played_positions_and_zero_repeats():
    _plan, _now, replan = replanned(32, 8, 4, seed=3, leaving=[7], arriving=[33])
    assert repeated_meetings(replan) == 0
    assert all(7 not in t for pos in replan.positions[4:] for t in pos)
    assert direction_spread(replan) <= 1


def test_withdrawal_with_tables_of_three_keeps_zero_repeats():
    _plan, _now, replan = replanned(32, 8, 3, seed=5, policy="three", leaving=[12])
    assert repeated_meetings(replan) == 0


def test_withdrawal_with_tables_of_five_never_forces_a_third_meeting():
    _plan, _now, replan = replanned(32, 10, 4, seed=6, policy="five", leaving=[20])
    assert max(meeting_counts(replan).values()) <= 2


def test_late_arrivals_join_the_positions_not_yet_played():
    _plan, _now, replan = replanned(40, 10, 2, seed=8, arriving=[41, 42, 43, 44])
    assert repeated_meetings(replan) == 0


def test_replan_without_previous_plan_still_keeps_played_positions():
    plan = generate(field(48), 8, seed=1)
    replan = generate(field(48), 8, fixed=plan.positions[:3], seed=99)
    assert replan.positions[:3] == plan.positions[:3]
    assert repeated_meetings(replan) == 0


def test_replan_is_deterministic():
    plan = generate(field(20), 5, seed=2)
    now = field(20)[:-1] + [SeatingPlayer(21)]
    first = generate(now, 5, fixed=plan.positions[:2], seed=2, previous=plan)
    again = generate(now, 5, fixed=plan.positions[:2], seed=2, previous=plan)
    assert first == again


def test_32_players_over_10_positions_replan_after_position_4_without_repeats():
    plan, _now, replan = replanned(32, 10, 4, seed=4, leaving=[30], arriving=[40])
    assert repeated_meetings(plan) == 0
    assert repeated_meetings(replan) == 0


def odd_spread_of(plan, players) -> int:
    """Most minus fewest positions at a table of 3 or 5 over the players still playing."""
    counts = Counter({p.id: 0 for p in players})
    for position in plan.positions:
        for table in position:
            if len(table) != 4:
                counts.update(p for p in table if p in counts)
    return max(counts.values()) - min(counts.values())


# The direction ceiling is 1 with tables of 5. Tables of 3 have no West seat: with 31 players
# at 8 positions too few are left for everybody (the plan's own floor is 2), and with 25 players
# one player's played positions (N 0, E 1, S 2, W 0) leave them only one West seat in three
# positions: 2 apart at best (a search over the table orders, 200 restarts, finds no better).
@pytest.mark.parametrize(
    ("players", "positions", "played", "policy", "leaving", "arriving", "directions"),
    [
        (32, 10, 4, "five", [20], [], 1),  # 3 tables of 5 appear for the last 6 positions
        (32, 8, 3, "three", [12], [], 2),
        # A late arrival who missed the first 2 positions, in a dense field.
        pytest.param(34, 7, 2, "five", [], [35], 1, marks=pytest.mark.slow),
        (45, 6, 2, "five", [1], [50, 51], 1),
        (26, 6, 3, "three", [3, 8], [40], 2),
    ],
)
def test_replan_keeps_the_odd_tables_shared_within_one(
    players, positions, played, policy, leaving, arriving, directions
):
    _plan, now, replan = replanned(
        players, positions, played, seed=6, policy=policy, leaving=leaving, arriving=arriving
    )
    assert odd_spread_of(replan, now) <= 1
    assert plan_figures(replan, now).direction_spread <= directions


def test_replan_says_when_played_positions_pin_the_odd_table_spread():
    # Two withdrawals leave 32 players: no table of 5 any more, so whoever played at them in
    # the first 3 positions keeps that lead.
    plan = generate(field(34), 6, "five", seed=2)
    now = [p for p in field(34) if p.id not in (4, 9)]
    replan = generate(now, 6, "five", fixed=plan.positions[:3], seed=2, previous=plan)
    pinned = odd_spread_of(type(plan)(plan.positions[:3]), now)
    assert odd_spread_of(replan, now) == pinned
    if pinned > 1:
        assert any("ne peuvent pas être mieux partagées" in str(note) for note in replan.notes)
