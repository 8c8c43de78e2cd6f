"""The positions page shows, for the whole plan, repeats, odd-table spread and direction spread."""

import re
from collections import Counter

import pytest
from django.urls import reverse

from tournament import services

from .positions_helpers import make_tournament

pytestmark = pytest.mark.django_db


def figures_on(page: str) -> dict[str, tuple[int, int]]:
    """(this plan, at best) per row of the page's plan-quality table."""
    section = page.split('class="plan-quality"', 1)[1].split("</section>", 1)[0]
    rows = re.findall(
        r'<td>([^<]+)</td><td class="num">(\d+)</td><td class="num">(\d+)</td>', section
    )
    return {label: (int(ours), int(best)) for label, ours, best in rows}


def odd_spread(plan: list, players: set[int]) -> int:
    counts = Counter({p: 0 for p in players})
    for position in plan:
        for table in position:
            if len(table) != 4:
                counts.update(p for p in table if p in players)
    return max(counts.values()) - min(counts.values())


def test_no_figures_before_the_first_generation(arbiter_client):
    tournament = make_tournament(players=21, positions=4)
    page = arbiter_client.get(reverse("position-list", args=[tournament.pk])).text
    assert "plan-quality" not in page


def test_page_shows_the_plan_s_figures(arbiter_client):
    tournament = make_tournament(players=21, positions=4)  # one table of 5 each position
    arbiter_client.post(reverse("position-generate", args=[tournament.pk]), {"seed": 2})
    plan = services.tournament_plan(tournament)
    page = arbiter_client.get(reverse("position-list", args=[tournament.pk])).text
    figures = figures_on(page)
    repeats = sum(c - 1 for c in _meetings(plan).values())
    assert figures["Rencontres répétées"] == (repeats, 0)
    players = {p for table in plan[0] for p in table}
    assert figures["Écart des tables de 3 ou 5"] == (odd_spread(plan, players), 1)
    assert figures["Écart des tables de 3 ou 5"][0] <= 1  # 20 seats, 21 players: 0 or 1 each
    assert figures["Écart des directions"][0] <= 1


def test_after_a_withdrawal_the_replanned_plan_stays_fair(arbiter_client):
    tournament = make_tournament(players=22, positions=5)  # two tables of 5
    arbiter_client.post(reverse("position-generate", args=[tournament.pk]), {"seed": 4})
    arbiter_client.post(reverse("position-publish", args=[tournament.pk, 1]))
    leaver = tournament.registrations.get(number=7)
    arbiter_client.post(reverse("registration-withdraw", args=[tournament.pk, leaver.pk]))
    arbiter_client.post(reverse("position-generate", args=[tournament.pk]))

    plan = services.tournament_plan(tournament)
    playing = {p for table in plan[-1] for p in table}
    assert leaver.pk not in playing and len(playing) == 21
    page = arbiter_client.get(reverse("position-list", args=[tournament.pk])).text
    ours, _best = figures_on(page)["Écart des tables de 3 ou 5"]
    assert ours == odd_spread(plan, playing) <= 1


def _meetings(plan: list) -> Counter:
    counts: Counter = Counter()
    for position in plan:
        for table in position:
            ordered = sorted(table)
            counts.update((a, b) for i, a in enumerate(ordered) for b in ordered[i + 1 :])
    return counts


def test_a_plan_at_its_bound_reads_optimal_proven(arbiter_client):
    tournament = make_tournament(players=8, positions=3)  # 8 repeats at least, 8 reached
    arbiter_client.post(reverse("position-generate", args=[tournament.pk]), {"seed": 1})
    page = arbiter_client.get(reverse("position-list", args=[tournament.pk])).text
    assert figures_on(page)["Rencontres répétées"] == (8, 8)
    assert "optimal (prouvé)" in page
