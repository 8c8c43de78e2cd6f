"""Issue 26, a cut counts only vouched-for deals: a deal typed on a phone that nobody of the
other side confirmed (or that was contested) must not decide who qualifies."""

import json

import pytest
from django.test import Client
from django.urls import reverse

from scoring.late import LateDeal
from scoring.models import Deal
from scoring.sheets.services import deal_delete
from scoring.sheets.table_entry import links_for_position
from tests.scoring.events.event_helpers import new_event, play, seat
from tournament.access.lifecycle import DealsWaiting, tournament_finish, tournament_reopen
from tournament.models import Cut, Position, Tournament

pytestmark = pytest.mark.django_db

# P3 (17 points after session 1, 5th) claims a garde contre alone worth 3 x 306.
CLAIM = {"players": 4, "taker": 2, "contract": "garde_contre", "oudlers": 3, "points": 91}


CUT = {
    "rule": "top_n",
    "value": 4,
    "consolante": "on",
    "carry_over_percent": 100,
    "seating": "generator",
    "apply": "1",
}


def _claim(link, p3, client_id: str):
    return Client().post(
        reverse("table-deal-create", args=[link.token]),
        json.dumps(
            {
                "client_id": client_id,
                "version": link.table.sheet.version,
                "deal": CLAIM,
                "entered_by": p3.index,
                "pin": p3.registration.pin,
            }
        ),
        content_type="application/json",
    )


def test_an_unconfirmed_phone_deal_does_not_decide_the_cut(arbiter, arbiter_client):
    event, bracket = new_event(8, owner=arbiter, entry_mode="phones", deals_per_table_4=4)
    seat(bracket, [[1, 2, 3, 4], [5, 6, 7, 8]])
    play(bracket, [[5, 9, 2], [7, 1, 12]])  # 53 P7, 45 P2, 33 P5, 29 P1 | 17 P3 ...
    tournament_reopen(tournament=bracket, reason="la 4e donne", user=arbiter)
    position = bracket.positions.get(number=1)
    Position.objects.filter(pk=position.pk).update(status=Position.Status.PUBLISHED)
    link = links_for_position(position)[0]
    p3 = next(s for s in link.table.seats.all() if s.registration.player.last_name == "P3")
    response = _claim(link, p3, "claim-p3-1")
    assert response.status_code == 201 and response.json()["pending"]
    # The session can't even be finished while it waits (issue 35): the arbiter decides it.
    with pytest.raises(DealsWaiting):
        tournament_finish(tournament=Tournament.objects.get(pk=bracket.pk), user=arbiter)
    deal = Deal.objects.get(client_id="claim-p3-1")
    deal_delete(deal=deal, user=arbiter)
    tournament_finish(tournament=Tournament.objects.get(pk=bracket.pk), user=arbiter)
    # The same claim sent again after the finish is a late deal: it waits for the arbiter, and
    # the cut goes to the page of what waits instead of cutting.
    assert _claim(link, p3, "claim-p3-2").status_code == 202
    response = arbiter_client.post(reverse("event-cut", args=[bracket.pk]), CUT)
    waiting = reverse("deals-waiting", args=[bracket.pk])
    assert response.status_code == 302 and response.url == f"{waiting}?pour=cut"
    assert not Cut.objects.filter(source=bracket).exists()
    page = arbiter_client.get(response.url)
    assert "Donne tardive" in page.text and "P3" in page.text
    late = LateDeal.objects.get()
    arbiter_client.post(reverse("late-deal-decide", args=[late.pk, "reject"]))
    response = arbiter_client.post(reverse("event-cut", args=[bracket.pk]), CUT)
    cut = Cut.objects.get(source=bracket)
    # P3's rejected claim decided nothing: the top four of the confirmed deals qualify.
    assert "P3" not in {line["name"] for line in cut.report["qualified"]}
