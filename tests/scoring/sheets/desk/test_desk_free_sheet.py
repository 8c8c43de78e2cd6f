"""A sheet without a seating plan: any 3 to 5 registered players for a club evening."""

import pytest
from django.urls import reverse

from scoring.models import ScoreSheet
from tournament.models import Player, Registration, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def tournament():
    tournament = Tournament.objects.create(name="Soirée du club", date="2025-03-14")
    for number, name in enumerate(["ALBERT", "BERTHE", "CHARLES", "DENISE", "EMILE"], 1):
        Registration.objects.create(
            tournament=tournament, player=Player.objects.create(last_name=name), number=number
        )
    return tournament


def registrations(tournament):
    return list(tournament.registrations.order_by("number").values_list("pk", flat=True))


def test_three_players_make_a_sheet_scored_at_three(arbiter_client, tournament):
    a, b, c, *_ = registrations(tournament)
    url = reverse("sheet-free-create", args=[tournament.pk])
    response = arbiter_client.post(url, {"title": "Table du bar", "player_0": a,
                                         "player_1": b, "player_2": c})  # fmt: skip
    sheet = ScoreSheet.objects.get()
    assert response["Location"] == reverse("sheet-detail", args=[sheet.pk])
    assert sheet.table is None and sheet.players.count() == 3
    data = {"version": 0, "dealer": 0, "side": "attack", "taker": "E", "contract": "G",
            "oudlers": "2", "points": "45,5"}  # fmt: skip
    arbiter_client.post(reverse("sheet-detail", args=[sheet.pk]), data)
    # Half points exist at 3: 45.5 with 2 oudlers wins by 5; (25 + 5) × 2 = 60, taker 2V.
    assert sheet.deals.get().scores == [-60, 120, -60]
    overview = arbiter_client.get(reverse("entry-overview", args=[tournament.pk])).content
    assert "Table du bar" in overview.decode()


def test_a_player_twice_or_fewer_than_three_is_refused(arbiter_client, tournament):
    a, b, *_ = registrations(tournament)
    url = reverse("sheet-free-create", args=[tournament.pk])
    html = arbiter_client.post(url, {"player_0": a, "player_1": a, "player_2": b}).content
    assert "choisi deux fois" in html.decode()
    assert arbiter_client.post(url, {"player_0": a, "player_1": b}).status_code == 200
    assert not ScoreSheet.objects.exists()
