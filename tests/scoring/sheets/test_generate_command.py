"""The tournament generator: realistic random deals, stored like recorded ones, fast."""

import random
from collections import Counter

import pytest
from django.core.management import call_command

from scoring.core.deal import Deal as EngineDeal
from scoring.core.engine import score_deal
from scoring.core.random_deals import random_table_deals
from scoring.live.standings import standings_for
from scoring.models import Deal, DealScore, ScoreSheet, SheetPlayer
from tournament.models import Position, Registration, Seat, Table, Tournament


def test_random_deals_are_valid_zero_sum_and_realistic():
    rng = random.Random(3)
    deals = [d for _ in range(400) for d in random_table_deals(rng, rng.choice([3, 4, 5]), 5)]
    contracts = Counter(d.inputs["contract"] for d in deals if not d.passed)
    total = sum(contracts.values())
    assert contracts["prise"] + contracts["garde"] > 0.8 * total
    assert contracts["garde_sans"] < 0.12 * total
    assert contracts["garde_contre"] < contracts["garde_sans"]
    assert 0 < sum(d.passed for d in deals) < 0.1 * len(deals)
    assert any(d.inputs and d.inputs.get("poignees") for d in deals)
    assert any(d.inputs and d.inputs.get("petit_au_bout") for d in deals)
    for deal in deals:
        assert sum(deal.scores) == 0
        if not deal.passed:
            assert score_deal(EngineDeal(**deal.inputs)).scores == deal.scores


def test_the_same_seed_gives_the_same_deals():
    first = random_table_deals(random.Random(7), 4, 5)
    again = random_table_deals(random.Random(7), 4, 5)
    assert first == again


@pytest.mark.django_db
def test_command_generates_a_seated_finished_tournament():
    call_command("generate_tournament", players=33, positions=3, deals=4, seed=5, verbosity=0)
    tournament = Tournament.objects.get()
    assert tournament.is_public and tournament.status == Tournament.Status.FINISHED
    assert Registration.objects.count() == 33
    assert Position.objects.filter(status=Position.Status.CLOSED).count() == 3
    assert Table.objects.filter(game=Table.Game.FIVE).count() == 3
    assert Seat.objects.count() == 33 * 3
    assert SheetPlayer.objects.count() == 33 * 3
    assert ScoreSheet.objects.filter(status=ScoreSheet.Status.VALIDATED).count() == 8 * 3
    assert Deal.objects.count() == 8 * 3 * 4
    assert DealScore.objects.count() == 33 * 3 * 4
    for deal in Deal.objects.all():
        stored = dict(DealScore.objects.filter(deal=deal).values_list("seat", "points"))
        assert [stored[seat] for seat in range(deal.players)] == deal.scores
    standings = standings_for(tournament, public=True)
    assert sum(r.row.total for r in standings.players) == 0
    assert standings.positions == [1, 2, 3]


@pytest.mark.django_db
def test_teams_never_meet_and_unplayed_positions_stay_drafts():
    call_command(
        "generate_tournament", players=16, positions=3, played=2, teams=2, seed=2, verbosity=0
    )
    tournament = Tournament.objects.get()
    assert tournament.status == Tournament.Status.RUNNING
    assert Position.objects.get(number=3).status == Position.Status.DRAFT
    assert not Deal.objects.filter(sheet__table__position__number=3).exists()
    for table in Table.objects.all():
        teams = list(table.seats.values_list("registration__team_id", flat=True))
        assert len(teams) == len(set(teams))
    standings = standings_for(tournament)
    assert len(standings.teams) == 8
