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
