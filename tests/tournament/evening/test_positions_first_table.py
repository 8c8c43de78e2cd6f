"""Issue 26: an event's brackets play in one venue, so a bracket numbers its tables from its
first_table: two brackets of a session never share a table number."""

import pytest

from tests.tournament.evening.positions_helpers import make_tournament
from tournament.evening.positions import position_generate

pytestmark = pytest.mark.django_db


def test_tables_are_numbered_from_the_tournaments_first_table():
    tournament = make_tournament(players=16, positions=2, first_table=11)
    position_generate(tournament=tournament, seed=1)
    for position in tournament.positions.all():
        assert sorted(position.tables.values_list("number", flat=True)) == [11, 12, 13, 14]


def test_a_tournament_of_its_own_numbers_its_tables_from_one():
    tournament = make_tournament(players=8, positions=1)
    position_generate(tournament=tournament, seed=1)
    assert sorted(tournament.positions.get().tables.values_list("number", flat=True)) == [1, 2]
