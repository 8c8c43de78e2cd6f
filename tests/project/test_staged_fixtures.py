"""The staged tournaments of fixtures/staged/ hold what their stage says, with the standings the
rules give: each total is worked out here from 004's printed bilans and the penalties, never
read back from the fixture."""

import pytest
from django.db import connection

from scoring.live.standings import standings_for
from scoring.models import Incident, ScoreSheet
from tests.examples_004 import BILANS, PAPER_ORDER
from tests.staged import SEATS_2, STAGES, build_stage, fixture_path
from tournament.models import Position, Tournament

pytestmark = pytest.mark.django_db

# 004's Bilan row by seat: Nord −446, Sud +1346, Est −390, Ouest −510.
NORD, SUD, EST, OUEST = BILANS
assert PAPER_ORDER == "NSEW"


def ranked(tournament) -> list[tuple[int, str, int]]:
    return [(r.rank, r.row.name, r.row.total) for r in standings_for(tournament).players]


def test_after_position_1_ranks_the_players_by_their_004_bilans(after_position_1):
    assert after_position_1.positions.get().status == Position.Status.PUBLISHED
    sheet = ScoreSheet.objects.get(tournament=after_position_1)
    assert sheet.deals.count() == 5 and sheet.status == ScoreSheet.Status.IN_PROGRESS
    assert ranked(after_position_1) == [
        (1, "DUPONT", SUD),  # +1346
        (2, "DUBOIS", EST),  # −390
        (3, "DURAND", NORD),  # −446
        (4, "DESPRES", OUEST),  # −510
    ]


def test_with_incidents_takes_each_charged_penalty_from_its_culprit_only(with_incidents):
    incidents = Incident.objects.values_list(
        "registration__player__last_name", "kind", "deal__number", "penalty_points"
    )
    assert set(incidents) == {("DUPONT", "renonce_taker", 5, 50), ("DESPRES", "lateness", None, 40)}
    assert ranked(with_incidents) == [
        (1, "DUPONT", SUD - 50),  # 1296
        (2, "DUBOIS", EST),  # −390
        (3, "DURAND", NORD),  # −446
        (4, "DESPRES", OUEST - 40),  # −550
    ]


def test_after_last_position_adds_both_positions_bilans(after_last_position):
    assert after_last_position.status == Tournament.Status.FINISHED
    assert set(after_last_position.positions.values_list("number", "status")) == {
        (1, Position.Status.CLOSED),
        (2, Position.Status.CLOSED),
    }
    assert set(ScoreSheet.objects.values_list("status", flat=True)) == {ScoreSheet.Status.VALIDATED}
    # Position 2 seats DESPRES Nord, DURAND Est, DUBOIS Sud, DUPONT Ouest.
    assert SEATS_2 == {"N": "DESPRES", "E": "DURAND", "S": "DUBOIS", "W": "DUPONT"}
    assert ranked(after_last_position) == [
        (1, "DUBOIS", EST + SUD),  # −390 + 1346 = 956
        (2, "DUPONT", SUD + OUEST),  # 1346 − 510 = 836
        (3, "DURAND", NORD + EST),  # −446 − 390 = −836
        (4, "DESPRES", OUEST + NORD),  # −510 − 446 = −956
    ]


# Transactional: the build's writes commit as in `python -m tests.staged` (a position's table
# links are made when its publication commits).
@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(
    connection.vendor != "sqlite",
    reason="the files are written on SQLite (python -m tests.staged); PostgreSQL's jsonb orders "
    "a JSON field's keys its own way",
)
def test_the_staged_fixtures_are_what_the_builder_writes_today():
    """A model or desk change that alters a stage fails here: run `python -m tests.staged`.

    Built by the same code as `python -m tests.staged`, in this process on the test database,
    emptied before each stage (the rows and ids of a new database)."""
    for stage in STAGES:
        written = build_stage(stage)
        assert written == fixture_path(stage).read_text(), f"{stage}: run python -m tests.staged"
