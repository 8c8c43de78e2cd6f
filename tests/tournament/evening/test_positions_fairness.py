"""Issue 23, point 1: every fairness measure wherever the plan changes. A re-plan shows them
before → after and says in words what gets worse; the positions page flags a plan that hand
swaps made worse than the generator left it, with "Replanifier" one click away; the page keeps
a constant number of queries."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.tournament.evening.positions_helpers import make_tournament
from tournament.evening.fairness import plan_change, tournament_roster
from tournament.evening.positions import position_generate
from tournament.evening.selectors import tournament_plan
from tournament.evening.swaps import seat_swap

pytestmark = pytest.mark.django_db

LABELS = [
    "Rencontres répétées (E)",
    "Paires qui se rencontrent 3 fois ou plus",
    "Écart des tables de 3 ou 5",
    "Écart des directions",
    "Coéquipiers à une même table",
]


def five_every_time(tournament):
    """Swap one player onto the table of 5 at every position, as the issue's arbiter did;
    returns that player."""
    plan = tournament_plan(tournament)
    mover = next(p for t in plan[0] if len(t) == 5 for p in t)
    registration = tournament.registrations.get(pk=mover)
    for position in tournament.positions.all():
        tables = tournament_plan(tournament)[position.number - 1]
        five = next(t for t in tables if len(t) == 5)
        if mover not in five:
            other = tournament.registrations.get(pk=five[0])
            seat_swap(position=position, first=registration, second=other)
    return registration


def test_a_replan_shows_every_measure_before_and_after_once(arbiter_client):
    tournament = make_tournament(players=13, positions=3)
    url = reverse("position-generate", args=[tournament.pk])
    arbiter_client.post(url, {"seed": 3})
    page = arbiter_client.get(reverse("position-list", args=[tournament.pk])).text
    assert "Replanification : ce qui a changé" not in page  # a first generation changes nothing
    response = arbiter_client.post(url, {"seed": 4}, follow=True)
    page = response.content.decode()
    assert "Replanification : ce qui a changé" in page
    assert all(label in page for label in LABELS)
    assert 'id="plan-change-measures"' in page
    again = arbiter_client.get(reverse("position-list", args=[tournament.pk])).text
    assert "Replanification : ce qui a changé" not in again


def test_regenerating_a_position_shows_the_measures_on_its_plan(arbiter_client):
    tournament = make_tournament(players=13, positions=3)
    arbiter_client.post(reverse("position-generate", args=[tournament.pk]), {"seed": 3})
    url = reverse("position-regenerate", args=[tournament.pk, 2])
    page = arbiter_client.post(url, follow=True).content.decode()
    assert "Replanification : ce qui a changé" in page and "Écart des directions" in page


def test_a_change_that_makes_a_measure_worse_says_who_suffers(arbiter_client):
    tournament = make_tournament(players=13, positions=3)
    position_generate(tournament=tournament, seed=3)
    before = tournament_plan(tournament)
    mover = five_every_time(tournament)
    after = tournament_plan(tournament)
    change = plan_change(before, after, tournament_roster(tournament))
    odd = next(m for m in change.measures if m.key == "odd")
    assert odd.worse and odd.after == 3
    assert f"{mover.player.full_name} serait à la table de 5 pour la 3e fois" in change.warnings
    # The other way round, as a re-plan undoing it: the spread gets better, no such words.
    back = plan_change(after, before, tournament_roster(tournament))
    assert next(m for m in back.measures if m.key == "odd").better
    assert not any("table de 5" in w for w in back.warnings)


def test_the_positions_page_flags_a_plan_worse_than_the_generators(arbiter_client):
    tournament = make_tournament(players=13, positions=3)
    arbiter_client.post(reverse("position-generate", args=[tournament.pk]), {"seed": 3})
    generated = tournament.positions.get(number=3).generated_figures
    assert {"repeats", "thrice", "odd", "directions", "teammates"} <= set(generated)
    assert generated["repeats_floor"] == 16  # and the generator's bound (the solver's proof)
    list_url = reverse("position-list", args=[tournament.pk])
    assert "moins équitable que celui du générateur" not in arbiter_client.get(list_url).text
    five_every_time(tournament)
    page = arbiter_client.get(list_url).text
    assert "Ce plan est moins équitable que celui du générateur" in page
    assert f"Écart des tables de 3 ou 5 : 3 (le générateur : {generated['odd']})" in page
    flag = page[page.index('id="plan-drift"') :]
    flag = flag[: flag.index("</section>")]
    assert reverse("position-generate", args=[tournament.pk]) in flag and "Replanifier" in flag
    # One click: the re-plan, and the flag is gone.
    arbiter_client.post(reverse("position-generate", args=[tournament.pk]))
    assert "moins équitable que celui du générateur" not in arbiter_client.get(list_url).text


def test_the_positions_page_keeps_a_constant_number_of_queries(arbiter_client):
    counts = []
    for players, positions in ((9, 2), (22, 6)):
        tournament = make_tournament(players=players, positions=positions)
        position_generate(tournament=tournament, seed=1)
        url = reverse("position-list", args=[tournament.pk])
        arbiter_client.get(url)
        with CaptureQueriesContext(connection) as queries:
            assert arbiter_client.get(url).status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1], counts


def test_the_positions_page_explains_repeats_above_their_bound(arbiter_client):
    """Issue 38: "Rencontres répétées 22 / au mieux 12" was left unexplained; the page says
    what the bound counts and that sharing the tables of 5 fairly costs repeats."""
    tournament = make_tournament(players=13, positions=4)
    list_url = reverse("position-list", args=[tournament.pk])
    assert 'id="repeats-gap"' not in arbiter_client.get(list_url).text  # nothing generated
    arbiter_client.post(reverse("position-generate", args=[tournament.pk]), {"seed": 1})
    page = arbiter_client.get(list_url).text
    note = page[page.index('id="repeats-gap"') :]
    note = note[: note.index("</p>")]
    assert "rencontres répétées et non" in note
    assert "partager ces tables équitablement" in note
