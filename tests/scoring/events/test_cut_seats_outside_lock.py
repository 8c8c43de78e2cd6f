"""A cut, and a replacement after it, seat their brackets once their own writes are committed:
the seating solver (seconds) never runs inside a transaction, where it would hold the lock the
room's phones wait on (on SQLite, the whole database's)."""

import pytest
from django.db import connection

from scoring.events.cuts import cut_apply
from scoring.events.replace import cut_withdrawal_replace
from tests.scoring.events.event_helpers import new_event, play, seat
from tournament.core import seating

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def solves(monkeypatch) -> list[bool]:
    """Whether a transaction was open, for every call of the seating solver."""
    in_transaction: list[bool] = []
    real = seating.generate

    def watched(*args, **kwargs):
        in_transaction.append(connection.in_atomic_block)
        return real(*args, **kwargs)

    monkeypatch.setattr(seating, "generate", watched)
    return in_transaction


def test_a_cut_and_a_replacement_seat_outside_any_transaction(solves):
    _event, bracket = new_event(8, positions_count=2)
    seat(bracket, [[1, 2, 3, 4], [5, 6, 7, 8]])
    play(bracket, [[5, 9, 2], [7, 1, 12]])
    cut = cut_apply(source=bracket, rule="top_n", value=4, consolante=True, seed=1)
    assert cut.qualified.positions.count() == 2 and cut.consolante.positions.count() == 2
    assert solves and not any(solves)
    solves.clear()
    gone = cut.qualified.registrations.get(player__last_name="P2")
    cut_withdrawal_replace(cut=cut, registration=gone)
    seated = set(
        cut.qualified.positions.get(number=1).tables.values_list(
            "seats__registration__player__last_name", flat=True
        )
    )
    assert "P2" not in seated and len(seated) == 4
    assert solves and not any(solves)
