"""One rule names a player's starting position everywhere: the table and seat of the first
position they played (tournament.seats.start_codes), whether the page, the sheet or the print
asks."""

import pytest
from django.urls import reverse
from django.utils import translation

from scoring.documents.printing.blank_sheets import blank_sheet_pages
from scoring.models import SheetPlayer
from scoring.sheets import services as scoring_services
from tests.tournament.evening.positions_helpers import make_tournament
from tournament.evening.selectors import start_labels
from tournament.models import Seat
from tournament.seats import start_codes


def test_the_first_row_of_each_player_wins():
    rows = [(7, 3, "W"), (8, 1, "X"), (7, 1, "N"), (9, 2, "S"), (8, 4, "E")]
    assert start_codes(rows) == {7: "3 W", 8: "1 X", 9: "2 S"}
    assert start_codes([]) == {}


@pytest.mark.django_db
def test_a_late_arrival_starts_at_their_first_seat_on_every_path(arbiter_client):
    tournament = make_tournament(players=16, positions=3)
    arbiter_client.post(reverse("position-generate", args=[tournament.pk]), {"seed": 5})
    arbiter_client.post(reverse("position-publish", args=[tournament.pk, 1]))
    arbiter_client.post(reverse("player-register", args=[tournament.pk]), {"last_name": "Tardif"})
    late = tournament.registrations.get(player__last_name="Tardif")
    arbiter_client.post(reverse("position-generate", args=[tournament.pk]))
    arbiter_client.post(reverse("position-publish", args=[tournament.pk, 2]), {"confirm": "1"})

    seats = Seat.objects.filter(registration=late).select_related("table__position")
    first, *later = seats.order_by("table__position__number")
    assert first.table.position.number == 2  # seated from position 2 only
    assert [seat.table.position.number for seat in later] == [3]
    code = f"{first.table.number} {first.direction}"

    with translation.override("fr"):
        assert late.start_label == first.label
        assert start_labels(tournament)[late.pk] == first.label
        assert scoring_services.start_label(late) == code
        # The sheet of position 2 stores the code; its printed blank sheet shows the label.
        sheet = scoring_services.sheet_for_table(table=first.table)
        assert SheetPlayer.objects.get(sheet=sheet, registration=late).start_label == code
        pages = blank_sheet_pages(first.table.position)
        printed = [
            column.start_label
            for page in pages
            for column in page.columns
            if column.name.startswith("TARDIF")
        ]
        assert printed == [first.label]
    # Before any seat, a registration is named by its number on a free sheet.
    arbiter_client.post(reverse("player-register", args=[tournament.pk]), {"last_name": "Dernier"})
    unseated = tournament.registrations.get(player__last_name="Dernier")
    assert scoring_services.start_label(unseated) == str(unseated.number)
    assert unseated.start_label == ""
