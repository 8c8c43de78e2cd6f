"""The positions page shows, for the whole plan, repeats, odd-table spread and direction spread."""

import re
from collections import Counter

import pytest
from django.urls import reverse

from tests.tournament.evening.positions_helpers import make_tournament
from tournament.evening import fairness
from tournament.evening.fairness import generated_floor
from tournament.evening.selectors import tournament_plan
from tournament.evening.swaps import seat_swap

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
    plan = tournament_plan(tournament)
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

    plan = tournament_plan(tournament)
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


def test_the_page_shows_the_solver_s_proof_kept_at_generation(arbiter_client):
    # Counting alone says 8 at 13 players x 3 positions; the exact solver proves 16.
    tournament = make_tournament(players=13, positions=3)
    arbiter_client.post(reverse("position-generate", args=[tournament.pk]), {"seed": 1})
    url = reverse("position-list", args=[tournament.pk])
    page = arbiter_client.get(url).text
    assert figures_on(page)["Rencontres répétées"] == (16, 16)
    assert "optimal (prouvé)" in page
    # A hand swap keeps the field, so the proof still holds (the repeats may change).
    plan = tournament_plan(tournament)
    position = tournament.positions.get(number=2)
    first, second = plan[1][0][0], plan[1][1][0]
    seat_swap(
        position=position,
        first=tournament.registrations.get(pk=first),
        second=tournament.registrations.get(pk=second),
    )
    ours, best = figures_on(arbiter_client.get(url).text)["Rencontres répétées"]
    assert best == 16 and ours >= 16


def test_the_generator_s_bound_holds_only_for_the_field_it_was_proven_for():
    plan = [[[1, 2, 3, 4], [5, 6, 7, 8]], [[1, 5, 2, 6], [3, 7, 4, 8]]]
    teams = dict.fromkeys(range(1, 9))
    kept = fairness.floor_figures(plan, 2, 5, teams)
    assert generated_floor(plan, kept, teams) == 5
    swapped = [plan[0], [[5, 1, 2, 6], [3, 7, 4, 8]]]  # a swap within position 2: same field
    assert generated_floor(swapped, kept, teams) == 5
    played_otherwise = [[[1, 2, 3, 5], [4, 6, 7, 8]], plan[1]]  # position 1 is not as it was
    assert generated_floor(played_otherwise, kept, teams) is None
    assert generated_floor(plan, kept, teams | {1: 9, 2: 9}) is None  # new teammates
    assert generated_floor(plan, {"repeats": 3}, teams) is None  # figures of old
