"""Re-planning after a withdrawal or a late arrival keeps every published position identical."""

import pytest
from django.urls import reverse

from tests.tournament.evening.positions_helpers import make_tournament
from tournament.evening.selectors import start_labels, tournament_plan
from tournament.models import Player, Position, Seat

pytestmark = pytest.mark.django_db


def test_withdrawal_then_replan_keeps_published_positions_and_drops_the_player(arbiter_client):
    tournament = make_tournament(players=17, positions=4)
    arbiter_client.post(reverse("position-generate", args=[tournament.pk]), {"seed": 3})
    for number in (1, 2):
        # Confirmed: position 1's sheets are not typed when position 2 is published.
        arbiter_client.post(
            reverse("position-publish", args=[tournament.pk, number]), {"confirm": "1"}
        )
    published = tournament_plan(tournament)[:2]
    leaver = tournament.registrations.get(number=5)

    arbiter_client.post(reverse("registration-withdraw", args=[tournament.pk, leaver.pk]))
    page = arbiter_client.get(reverse("position-list", args=[tournament.pk])).text
    assert "à replanifier" in page
    response = arbiter_client.post(reverse("position-publish", args=[tournament.pk, 3]))
    assert tournament.positions.get(number=3).status == Position.Status.DRAFT
    assert "replanifiez avant de publier" in arbiter_client.get(response.url).text

    arbiter_client.post(reverse("position-generate", args=[tournament.pk]))
    plan = tournament_plan(tournament)
    assert plan[:2] == published
    for position in plan[2:]:
        seated = [p for table in position for p in table]
        assert leaver.pk not in seated and len(seated) == 16
        assert sorted(len(table) for table in position) == [4, 4, 4, 4]
    assert tournament.positions.get(number=1).status == Position.Status.PUBLISHED
    assert (
        "à replanifier"
        not in arbiter_client.get(reverse("position-list", args=[tournament.pk])).text
    )


def test_late_arrival_then_replan_seats_the_player_from_the_next_position(arbiter_client):
    tournament = make_tournament(players=16, positions=3)
    arbiter_client.post(reverse("position-generate", args=[tournament.pk]), {"seed": 5})
    arbiter_client.post(reverse("position-publish", args=[tournament.pk, 1]))
    published = tournament_plan(tournament)[0]

    arbiter_client.post(reverse("player-register", args=[tournament.pk]), {"last_name": "Tardif"})
    late = tournament.registrations.get(player__last_name="Tardif")
    assert late.first_position == 2
    arbiter_client.post(reverse("position-generate", args=[tournament.pk]))

    plan = tournament_plan(tournament)
    assert plan[0] == published
    for position in plan[1:]:
        assert late.pk in [p for table in position for p in table]
        assert sorted(len(table) for table in position) == [4, 4, 4, 5]
    # The score sheet names a late player by the seat of their first position.
    seat = Seat.objects.get(registration=late, table__position__number=2)
    assert late.start_label == seat.label
    assert start_labels(tournament)[late.pk] == seat.label


def test_start_label_reads_like_the_fft_sheet(arbiter_client):
    tournament = make_tournament(players=8, positions=1)
    arbiter_client.post(reverse("position-generate", args=[tournament.pk]), {"seed": 1})
    seat = Seat.objects.select_related("table").get(
        table__number=2, direction="W", table__position__tournament=tournament
    )
    assert seat.registration.start_label == "2 O"
    assert Player.objects.count() == 8
