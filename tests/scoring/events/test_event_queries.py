"""Issue 26: the event page and a cut's preview cost the same number of queries whatever the
field's size (8 or 16 players), in session 1 and in a session 2 that carries session 1."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring.events.cuts import cut_apply
from tests.scoring.events.event_helpers import new_event, play, seat

pytestmark = pytest.mark.django_db

PREVIEW = {"rule": "top_percent", "value": 50, "carry_over_percent": 100, "preview": "1"}
PREVIEW |= {"consolante": "on", "seating": "generator"}


def queries(client, method: str, url: str, data=None) -> int:
    with CaptureQueriesContext(connection) as captured:
        response = client.post(url, data) if method == "POST" else client.get(url)
    assert response.status_code == 200
    return len(captured)


def costs(client, arbiter, tables: int) -> tuple[int, int, int]:
    event, bracket = new_event(4 * tables, owner=arbiter)
    seat(bracket, [[4 * t + i for i in range(1, 5)] for t in range(tables)])
    play(bracket, [[5, 9, 2]] * tables)
    preview_1 = queries(client, "POST", reverse("event-cut", args=[bracket.pk]), PREVIEW)
    cut = cut_apply(source=bracket, rule="top_n", value=2 * tables, seed=1, user=arbiter)
    page = queries(client, "GET", event.get_absolute_url())
    preview_2 = queries(client, "POST", reverse("event-cut", args=[cut.qualified.pk]), PREVIEW)
    return preview_1, page, preview_2


def test_the_event_page_and_the_cut_preview_cost_the_same_at_8_and_16_players(
    arbiter_client, arbiter
):
    assert costs(arbiter_client, arbiter, 2) == costs(arbiter_client, arbiter, 4)
