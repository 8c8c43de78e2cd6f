"""The exact solver's budget is a setting (SEATING_EXACT_BUDGET): the positions page announces a
wait that follows it and a generation through the site gives the solver that budget."""

import pytest
from django.urls import reverse

from tests.tournament.evening.positions_helpers import make_tournament
from tournament.core.seating import exact
from tournament.evening.positions import generation_seconds
from tournament.evening.selectors import tournament_plan

pytestmark = pytest.mark.django_db


def test_the_announced_wait_follows_the_budget(settings):
    tournament = make_tournament(players=12, positions=4)  # the exact solver's field
    settings.SEATING_EXACT_BUDGET = 2.0
    assert generation_seconds(tournament, 0) == 9  # 3 s of set-up and 3 x the budget
    settings.SEATING_EXACT_BUDGET = 0.2
    assert generation_seconds(tournament, 0) == 4


def test_a_generation_gives_the_solver_the_setting_s_budget(settings, arbiter_client, monkeypatch):
    budgets = []
    real_exact_plan = exact.exact_plan

    def exact_plan(*args, **kwargs):
        budgets.append(args[4])  # teams, sizes, positions, hint, budget
        return real_exact_plan(*args, **kwargs)

    monkeypatch.setattr(exact, "exact_plan", exact_plan)
    settings.SEATING_EXACT_BUDGET = 0.3
    tournament = make_tournament(players=12, positions=4)
    arbiter_client.post(reverse("position-generate", args=[tournament.pk]), {"seed": 1})
    assert len(tournament_plan(tournament)) == 4
    assert budgets == [0.3]
