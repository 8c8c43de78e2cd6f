"""The random draw that seating plans are measured against (tests and bench/seating.py), and
plans shared by the tests that assert different things of one request."""

from __future__ import annotations

import functools
import random

from tournament.core.seating import Plan, generate, numbered_field
from tournament.core.seating.search import MAX_ANNEAL_STEPS


def random_draw(players: int, positions: int, sizes: list[int], rng: random.Random) -> list:
    """Every position, shuffle the players (numbered from 1) and cut the list into tables of
    `sizes`: a plan as a list of positions, each a list of tables of player numbers."""
    plan = []
    for _ in range(positions):
        ids = list(range(1, players + 1))
        rng.shuffle(ids)
        tables, start = [], 0
        for size in sizes:
            tables.append(ids[start : start + size])
            start += size
        plan.append(tables)
    return plan


@functools.cache
def numbered_plan(
    players: int,
    positions: int,
    policy: str = "five",
    seed: int = 0,
    team_size: int | None = None,
    search_steps: int = MAX_ANNEAL_STEPS,
) -> Plan:
    """`generate` for `numbered_field(players, team_size)`, solved once per test process.

    The same arguments always give the same plan and a plan is immutable, so tests that assert
    different things of one request share it instead of searching again."""
    field = numbered_field(players, team_size)
    return generate(field, positions, policy, seed=seed, search_steps=search_steps)
