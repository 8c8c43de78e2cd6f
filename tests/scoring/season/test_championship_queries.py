"""A championship page answers with the same number of queries for 6 and 12 tournaments of 60
players (the standings of every finished tournament are loaded together)."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring.models import Championship
from tests.scoring.season.championship_helpers import championship, generated_season

pytestmark = pytest.mark.django_db


def page_queries(client, url: str) -> tuple[int, object]:
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(url)
    assert response.status_code == 200
    return len(ctx.captured_queries), response


def test_a_championship_page_costs_the_same_queries_for_6_and_12_tournaments(
    arbiter_client, arbiter, django_assert_num_queries
):
    roster, tournaments = generated_season(12, players=60)
    six = championship(tournaments[:6], owner=arbiter, name="Six soirées")
    twelve = championship(tournaments, owner=arbiter, name="Douze soirées", best_of=8)
    Championship.objects.update(is_public=True)
    for name in ("championship-detail", "public-championship"):
        count, response = page_queries(arbiter_client, reverse(name, args=[six.pk]))
        assert len(response.context["standings"].finished) == 6
        with django_assert_num_queries(count):
            response = arbiter_client.get(reverse(name, args=[twelve.pk]))
        ranked = response.context["ranked"]
        assert len(ranked) == 60 and all(line.played == 12 for line in ranked)
    player = reverse("championship-player", args=[twelve.pk, roster[0].pk])
    count_six, _ = page_queries(arbiter_client, reverse("championship-player", args=[six.pk,
                                roster[0].pk]))  # fmt: skip
    with django_assert_num_queries(count_six):
        arbiter_client.get(player)
