"""The table plan, the alphabetical who-sits-where and each player's itinerary show the seats."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.tournament.evening.positions_helpers import make_tournament
from tournament.evening.positions import position_generate
from tournament.models import Seat
from tournament.players.selectors import itinerary

pytestmark = pytest.mark.django_db


@pytest.fixture
def tournament():
    tournament = make_tournament(players=9, positions=2)  # tables of 4 and 5
    position_generate(tournament=tournament, seed=11)
    return tournament


def test_table_plan_lists_each_table_in_the_score_sheets_seat_order(arbiter_client, tournament):
    page = arbiter_client.get(reverse("position-detail", args=[tournament.pk, 1])).text
    for table in tournament.positions.get(number=1).tables.all():
        # Nord, Sud, Est, Ouest, 5e: as the FFT sheet lists the players.
        seats = sorted(
            table.seats.select_related("registration__player"),
            key=lambda s: "NSEWX".index(s.direction),
        )
        names = [s.registration.player.full_name for s in seats]
        section = page.split(f"Table {table.number}", 1)[1]
        positions = [section.index(name) for name in names]
        assert positions == sorted(positions), f"table {table.number} out of seat order"
    assert "Nord" in page and "5e" in page


def test_who_sits_where_is_alphabetical_with_table_and_seat(arbiter_client, tournament):
    page = arbiter_client.get(reverse("position-who-sits-where", args=[tournament.pk, 2])).text
    names = re.findall(r"<td >([A-ZÉË]+ Jo)</td>", page) or re.findall(r">([A-ZÉË]+ Jo)<", page)
    assert names == sorted(names) and len(names) == 9
    seat = Seat.objects.select_related("table", "registration__player").get(
        table__position__number=2, registration__number=4, table__position__tournament=tournament
    )
    row = page.split(seat.registration.player.full_name, 1)[1].split("</tr>", 1)[0]
    assert f">{seat.table.number}<" in row
    assert seat.get_direction_display() in row


def test_itinerary_gives_table_seat_and_opponents_at_every_position(arbiter_client, tournament):
    entry = tournament.registrations.get(number=1)
    page = arbiter_client.get(reverse("player-itinerary", args=[tournament.pk, entry.pk])).text
    assert "Parcours de ARNAUD Jo" in page
    assert f"position de départ <strong>{entry.start_label}</strong>" in page
    for number in (1, 2):
        seat = Seat.objects.select_related("table").get(
            registration=entry, table__position__number=number
        )
        others = seat.table.seats.exclude(registration=entry).select_related("registration__player")
        for other in others:
            assert other.registration.player.full_name in page


def test_the_itinerary_costs_the_same_queries_whatever_the_number_of_positions(arbiter_client):
    counts = {}
    for positions in (2, 6):
        tournament = make_tournament(players=9, positions=positions)
        position_generate(tournament=tournament, seed=11)
        entry = tournament.registrations.get(number=1)
        url = reverse("player-itinerary", args=[tournament.pk, entry.pk])
        arbiter_client.get(url)  # sessions, caches
        with CaptureQueriesContext(connection) as queries:
            page = arbiter_client.get(url).text
        counts[positions] = len(queries)
        assert entry.player.full_name in page
        rows = itinerary(entry)
        assert [row["position"] for row in rows] == list(range(1, positions + 1))
        assert all(len(row["opponents"].split(", ")) in (3, 4) for row in rows)
    assert counts[2] == counts[6], counts
