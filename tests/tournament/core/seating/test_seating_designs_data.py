"""The stored seating designs (tournament/core/seating/designs.json) load as the hand tables
were."""

import hashlib

from tournament.core.seating.designs import DOUBLED_AFFINE_32, ROTATIONAL_BASES

# SHA-256 of repr((ROTATIONAL_BASES, DOUBLED_AFFINE_32)) when both were Python literals in
# designs.py: the same numbers, in the same order, as the same tuples and lists.
HAND_TABLES_SHA256 = "b93cadbbae96a3eca6b5eb9e63b98ad898d9512442a639fdbbbdf78575380d24"


def test_stored_designs_load_as_the_hand_tables_were():
    loaded = repr((ROTATIONAL_BASES, DOUBLED_AFFINE_32)).encode()
    assert hashlib.sha256(loaded).hexdigest() == HAND_TABLES_SHA256


def test_rotational_bases_keep_their_shape():
    assert sorted(ROTATIONAL_BASES) == [20, 24, 28, 36, 40]
    for v, (shifts, levels, fixed, base) in ROTATIONAL_BASES.items():
        assert shifts * levels + fixed == v
        assert len(base) * 4 == v  # one base round seats every point once
