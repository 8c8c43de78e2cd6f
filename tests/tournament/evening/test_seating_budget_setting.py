"""The seating generator's budgets are settings: the exact solver's (SEATING_EXACT_BUDGET), which
the positions page's announced wait follows, and the annealing's steps (SEATING_SEARCH_STEPS); a
generation through the site gives the generator both."""

import pytest
from django.urls import reverse

from tests.tournament.evening.positions_helpers import make_tournament
from tournament.core.seating import exact, search, small
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


def _count_anneal_steps(monkeypatch) -> list[int]:
    """The steps each annealing run is given, in the search and in the small fields' pass."""
    given: list[int] = []
    real_anneal = search.anneal

    def anneal(*args, **kwargs):
        given.append(args[5])  # state, grouping, rng, cost, floor, steps
        return real_anneal(*args, **kwargs)

    monkeypatch.setattr(search, "anneal", anneal)
    monkeypatch.setattr(small, "anneal", anneal)
    return given


@pytest.mark.parametrize("players", [13, 30])  # with the small fields' pass, and without
def test_a_generation_keeps_the_annealing_within_the_setting_s_steps(
    settings, arbiter_client, monkeypatch, players
):
    given = _count_anneal_steps(monkeypatch)
    settings.SEATING_SEARCH_STEPS = 3_000
    tournament = make_tournament(players=players, positions=5)
    arbiter_client.post(reverse("position-generate", args=[tournament.pk]), {"seed": 1})
    assert len(tournament_plan(tournament)) == 5
    assert given and all(0 < steps <= 1_000 for steps in given)  # 3,000 over 3 runs


def test_the_site_s_real_budgets_are_the_generator_s_own(real_seating_budget, settings):
    """Production plans are the pure generator's at its defaults; the tests that judge a plan's
    quality through the site get exactly those back."""
    assert settings.SEATING_SEARCH_STEPS == search.MAX_ANNEAL_STEPS
    assert settings.SEATING_EXACT_BUDGET == small.EXACT_BUDGET
