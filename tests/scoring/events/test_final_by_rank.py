"""Issue 26, a final seated by rank ("table d'honneur") when it carries nothing of the
qualifying sessions: every player starts it at 0, yet its leaders' table is the cut's leaders."""

import pytest
from django.urls import reverse

from tests.scoring.events.event_helpers import new_event, numbers_by_table, play, seat
from tournament.models import Cut

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("carry", [0, 100])
def test_a_final_carrying_nothing_still_seats_the_cuts_leaders_together(
    arbiter_client, arbiter, carry
):
    event, bracket = new_event(16, owner=arbiter)
    seat(bracket, [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12], [13, 14, 15, 16]])
    play(bracket, [[5, 9, 2], [7, 1, 12], [3, 4, 8], [10, 0, 6]])
    # 53 P7, 49 P13, 45 P2, 42 P11 | 33 P5, 33 P15, 29 P1, 26 P10 | 22 P9, 17 P3...
    form = {"rule": "top_n", "value": 8, "carry_over_percent": carry, "seating": "rank"}
    response = arbiter_client.post(reverse("event-cut", args=[bracket.pk]), form | {"apply": "1"})
    assert response.status_code == 302
    final = Cut.objects.get(source=bracket).qualified
    assert numbers_by_table(final) == [["P11", "P13", "P2", "P7"], ["P1", "P10", "P15", "P5"]]


def test_the_seating_chosen_at_the_cut_seats_the_consolante_too(arbiter_client, arbiter):
    """Issue 38: "en serpentin" seated the final that way and the consolante by the generator,
    without saying so."""
    event, bracket = new_event(16, owner=arbiter)
    seat(bracket, [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12], [13, 14, 15, 16]])
    play(bracket, [[5, 9, 2], [7, 1, 12], [3, 4, 8], [10, 0, 6]])
    form = {"rule": "top_n", "value": 8, "carry_over_percent": 100, "seating": "snake"}
    form["consolante"] = "on"
    page = arbiter_client.get(reverse("event-cut", args=[bracket.pk])).content.decode()
    assert "Pour le tableau principal et pour la consolante." in page
    response = arbiter_client.post(reverse("event-cut", args=[bracket.pk]), form | {"apply": "1"})
    assert response.status_code == 302
    cut = Cut.objects.get(source=bracket)
    for bracket_seated in (cut.qualified, cut.consolante):
        first = bracket_seated.positions.get(number=1)
        assert first.seating == "snake", bracket_seated


def test_the_cut_is_neither_previewed_nor_applied_before_the_session_ends(arbiter_client, arbiter):
    """Issue 38: the preview ran on a session in play and only *Appliquer* was refused."""
    from tournament.models import Tournament

    event, bracket = new_event(8, owner=arbiter)
    seat(bracket, [[1, 2, 3, 4], [5, 6, 7, 8]])
    Tournament.objects.filter(pk=bracket.pk).update(status=Tournament.Status.RUNNING)
    url = reverse("event-cut", args=[bracket.pk])
    page = arbiter_client.get(url).content.decode()
    assert 'id="cut-unfinished"' in page and "La séance n'est pas terminée" in page
    finish = reverse("tournament-detail", args=[bracket.pk]) + "#tournament-finish"
    assert f'href="{finish}"' in page  # the cockpit opens its settings on that button
    form = {"rule": "top_n", "value": 4, "carry_over_percent": 100, "seating": "generator"}
    page = arbiter_client.post(url, form | {"preview": "1"}).content.decode()
    assert "l&#x27;aperçu et la coupe attendent sa fin" in page
    assert 'name="apply"' not in page  # no preview, so nothing to apply
    assert not Cut.objects.exists()
