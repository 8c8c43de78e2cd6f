"""Re-plan after a withdrawal or a late arrival: played positions stay, guarantees still hold."""

from tournament.seating import (
    SeatingPlayer,
    direction_spread,
    generate,
    meeting_counts,
    plan_problems,
    repeated_meetings,
)


def field(n: int) -> list[SeatingPlayer]:
    return [SeatingPlayer(i) for i in range(1, n + 1)]


def test_replacing_a_withdrawn_player_keeps_played_positions_and_zero_repeats():
    plan = generate(field(32), 8, seed=3)
    played = plan.positions[:4]
    now = [p for p in field(32) if p.id != 7] + [SeatingPlayer(33)]
    replan = generate(now, 8, fixed=played, seed=3, previous=plan)
    assert replan.positions[:4] == played
    assert plan_problems(replan, now, first=4) == []
    assert repeated_meetings(replan) == 0
    assert all(7 not in t for pos in replan.positions[4:] for t in pos)
    assert direction_spread(replan) <= 1


def test_withdrawal_with_tables_of_three_keeps_zero_repeats():
    plan = generate(field(32), 8, seed=5)
    played = plan.positions[:3]
    now = [p for p in field(32) if p.id != 12]
    replan = generate(now, 8, "three", fixed=played, seed=5, previous=plan)
    assert replan.positions[:3] == played
    assert plan_problems(replan, now, "three", first=3) == []
    assert repeated_meetings(replan) == 0


def test_withdrawal_with_tables_of_five_never_forces_a_third_meeting():
    plan = generate(field(32), 10, seed=6)
    played = plan.positions[:4]
    now = [p for p in field(32) if p.id != 20]
    replan = generate(now, 10, "five", fixed=played, seed=6, previous=plan)
    assert replan.positions[:4] == played
    assert plan_problems(replan, now, "five", first=4) == []
    assert max(meeting_counts(replan).values()) <= 2


def test_late_arrivals_join_the_positions_not_yet_played():
    plan = generate(field(40), 10, seed=8)
    played = plan.positions[:2]
    now = field(44)
    replan = generate(now, 10, fixed=played, seed=8, previous=plan)
    assert replan.positions[:2] == played
    assert plan_problems(replan, now, first=2) == []
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
    plan = generate(field(32), 10, seed=4)
    assert repeated_meetings(plan) == 0
    now = [p for p in field(32) if p.id != 30] + [SeatingPlayer(40)]
    replan = generate(now, 10, fixed=plan.positions[:4], seed=4, previous=plan)
    assert replan.positions[:4] == plan.positions[:4]
    assert plan_problems(replan, now, first=4) == []
    assert repeated_meetings(replan) == 0
