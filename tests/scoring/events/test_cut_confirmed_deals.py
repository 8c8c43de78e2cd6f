"""Issue 26, a cut counts only vouched-for deals: a deal typed on a phone that nobody of the
other side confirmed (or that was contested) must not decide who qualifies."""

import json

import pytest
from django.test import Client
from django.urls import reverse

from scoring.sheets.table_entry import links_for_position
from tests.scoring.events.event_helpers import new_event, play, seat
from tournament.access.lifecycle import tournament_finish, tournament_reopen
from tournament.models import Cut, Position, Tournament

pytestmark = pytest.mark.django_db

# P3 (17 points after session 1, 5th) claims a garde contre alone worth 3 x 306.
CLAIM = {"players": 4, "taker": 2, "contract": "garde_contre", "oudlers": 3, "points": 91}


def test_an_unconfirmed_phone_deal_does_not_decide_the_cut(arbiter, arbiter_client):
    event, bracket = new_event(8, owner=arbiter, entry_mode="phones", deals_per_table_4=4)
    seat(bracket, [[1, 2, 3, 4], [5, 6, 7, 8]])
    play(bracket, [[5, 9, 2], [7, 1, 12]])  # 53 P7, 45 P2, 33 P5, 29 P1 | 17 P3 ...
    tournament_reopen(tournament=bracket, reason="la 4e donne", user=arbiter)
    position = bracket.positions.get(number=1)
    Position.objects.filter(pk=position.pk).update(status=Position.Status.PUBLISHED)
    link = links_for_position(position)[0]
    p3 = next(s for s in link.table.seats.all() if s.registration.player.last_name == "P3")
    sheet_version = link.table.sheet.version
    response = Client().post(
        reverse("table-deal-create", args=[link.token]),
        json.dumps(
            {
                "client_id": "claim-p3-1",
                "version": sheet_version,
                "deal": CLAIM,
                "entered_by": p3.index,
                "pin": p3.registration.pin,
            }
        ),
        content_type="application/json",
    )
    assert response.status_code == 201 and response.json()["pending"]
    tournament_finish(tournament=Tournament.objects.get(pk=bracket.pk), user=arbiter)
    response = arbiter_client.post(
        reverse("event-cut", args=[bracket.pk]),
        {
            "rule": "top_n",
            "value": 4,
            "consolante": "on",
            "carry_over_percent": 100,
            "seating": "generator",
            "apply": "1",
        },
    )
    assert "attendent encore leur confirmation" in response.text
    assert not Cut.objects.filter(source=bracket).exists()
