"""The designs behind zero-repeat movements: every round a partition, no pair twice."""

import itertools

import pytest

from tournament.core.seating.designs import (
    ROTATIONAL_BASES,
    affine_plane_16,
    catalogue_design,
    difference_design,
    max_difference_rounds,
    rotational_design,
)


def assert_resolvable_packing(design, points: int) -> None:
    seen = set()
    for rnd in design:
        assert sorted(p for table in rnd for p in table) == list(range(points))
        for table in rnd:
            for pair in itertools.combinations(sorted(table), 2):
                assert pair not in seen
                seen.add(pair)


def test_affine_plane_seats_16_players_5_times_without_repeats():
    design = affine_plane_16()
    assert len(design) == 5
    assert_resolvable_packing(design, 16)


def test_doubled_affine_planes_seat_32_players_10_times_without_repeats():
    design = catalogue_design(32)
    assert len(design) == 10
    assert_resolvable_packing(design, 32)


@pytest.mark.parametrize("points", sorted(ROTATIONAL_BASES))
def test_rotational_designs_reach_their_number_of_rounds(points):
    design = rotational_design(points)
    assert len(design) == {20: 5, 24: 7, 28: 9, 36: 11, 40: 10}[points]
    assert_resolvable_packing(design, points)


@pytest.mark.parametrize("order", range(4, 51))
def test_difference_designs_give_10_rounds_from_11_groups_on(order):
    rounds = max_difference_rounds(order, min(order, 10))
    assert rounds >= min(order, 10) - (order in (6, 10))  # Z_6 and Z_10 fall one or two short
    design = difference_design(order, rounds)
    assert_resolvable_packing(design, 4 * order)
    groups = [set(range(g * order, (g + 1) * order)) for g in range(4)]
    for rnd in design:
        for table in rnd:
            assert all(len(group & set(table)) == 1 for group in groups)  # teams fit in groups
