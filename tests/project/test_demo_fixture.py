"""fixtures/demo.json: a realistic finished tournament that `make run` loads and tests use."""

import pytest
from django.core.management import call_command
from django.db.models import Sum

from scoring.live.standings import standings_for
from scoring.models import Deal, DealScore, Incident, ScoreSheet
from tournament.models import Position, Registration, Table, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def demo():
    call_command("load_demo", verbosity=0)
    return Tournament.objects.get()


def test_a_finished_public_tournament_of_about_32_players(demo):
    assert demo.status == Tournament.Status.FINISHED and demo.is_public
    assert 30 <= Registration.objects.filter(tournament=demo).count() <= 36
    assert Position.objects.filter(tournament=demo).count() == 6
    assert not Position.objects.filter(status=Position.Status.DRAFT).exists()
    assert Table.objects.filter(game=Table.Game.FIVE).exists()
    assert Table.objects.filter(game=Table.Game.FOUR).count() >= 6 * 7


def test_penalties_and_an_adjusted_score(demo):
    assert Incident.objects.filter(tournament=demo, penalty_points__gt=0).count() >= 2
    adjusted = Deal.objects.filter(sheet__tournament=demo, adjusted=True)
    assert adjusted.count() == 1
    assert adjusted.get().adjustment_reason


def test_every_deal_and_every_sheet_sums_to_zero(demo):
    for deal in Deal.objects.filter(sheet__tournament=demo):
        assert sum(deal.scores) == 0
        stored = sorted(DealScore.objects.filter(deal=deal).values_list("seat", "points"))
        assert [points for _seat, points in stored] == deal.scores
    for sheet in ScoreSheet.objects.filter(tournament=demo):
        total = DealScore.objects.filter(deal__sheet=sheet).aggregate(t=Sum("points"))["t"]
        assert total == 0
        assert sheet.deals.count() == 5


def test_its_public_ranking_shows_everybody(demo, client):
    standings = standings_for(demo, public=True)
    assert len(standings.players) == Registration.objects.count()
    assert standings.positions == [1, 2, 3, 4, 5, 6]
    assert any(r.row.penalties_charged for r in standings.players)
    response = client.get(f"/public/{demo.pk}/")
    assert response.status_code == 200


def test_load_demo_leaves_a_database_with_tournaments_alone(demo):
    call_command("load_demo", verbosity=0)
    assert Tournament.objects.count() == 1
