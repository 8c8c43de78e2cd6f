"""Beyond zero repeats: E stays at its lower bound and third meetings wait until forced."""

import random

import pytest

from tournament.seating import SeatingPlayer, generate, meeting_counts, repeated_meetings


def field(n: int) -> list[SeatingPlayer]:
    return [SeatingPlayer(i) for i in range(1, n + 1)]


@pytest.mark.parametrize("positions", [6, 7, 8, 9, 10])
def test_sixteen_players_repeat_only_24_meetings_per_extra_position(positions):
    plan = generate(field(16), positions, seed=positions)
    assert repeated_meetings(plan) == 24 * (positions - 5)
    assert max(meeting_counts(plan).values()) == 2  # nobody meets anyone a third time


def random_draw_repeats(players: int, positions: int, sizes: list[int], rng) -> int:
    plan = []
    for _ in range(positions):
        ids = list(range(players))
        rng.shuffle(ids)
        tables, k = [], 0
        for size in sizes:
            tables.append(ids[k : k + size])
            k += size
        plan.append(tables)
    return repeated_meetings(plan)


@pytest.mark.parametrize("policy", ["five", "three"])
def test_dense_tables_of_five_or_three_stay_far_below_a_random_draw(policy):
    players, positions = 34, 10  # 3 x 10 > 0.7 x 33: some repeats are forced
    plan = generate(field(players), positions, policy, seed=4)
    sizes = [len(t) for t in plan.positions[0]]
    rng = random.Random(0)
    draws = [random_draw_repeats(players, positions, sizes, rng) for _ in range(20)]
    assert repeated_meetings(plan) < 0.5 * sum(draws) / len(draws)
    assert max(meeting_counts(plan).values()) == 2
