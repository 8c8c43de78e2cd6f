"""The random draw that seating plans are measured against (tests and bench/seating.py)."""

from __future__ import annotations

import random


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
