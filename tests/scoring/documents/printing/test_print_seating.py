"""Table plan, "who sits where" list and itinerary cards, checked against the seating in the DB."""

import re

import pytest
from django.urls import reverse

from scoring.documents.printing import table_plan
from tests.scoring.documents.printing.print_helpers import fetch_pdf, refused_to_anonymous
from tests.scoring.documents.printing.print_tournament import build_print_tournament
from tournament.models import Registration, Seat, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def data():
    return build_print_tournament()


def test_table_plan_lists_every_seat_of_the_position(arbiter_client, data, monkeypatch):
    # Only a public tournament has public standings to lead to (test_print_standings_qr.py).
    Tournament.objects.filter(pk=data.tournament.pk).update(is_public=True)
    encoded = []
    monkeypatch.setattr(table_plan, "qr_svg", lambda url: encoded.append(url) or "<svg></svg>")
    url = reverse("print-table-plan", args=[data.tournament.pk, 1])
    reader, pages = fetch_pdf(arbiter_client, url)
    assert len(reader.pages) == 1
    text = pages[0]
    assert "Plan des tables — position 1" in text and "Open de Chalon" in text
    for seat in Seat.objects.filter(table__position=data.positions[0]).select_related(
        "table", "registration__player"
    ):
        line = f"{seat.get_direction_display()} {seat.registration.player.full_name}"
        assert re.search(rf"{re.escape(line)} {seat.registration.number}\b", text)
    tables = text.split("Table ")[1:]
    assert [t.split()[0] for t in tables] == ["1", "2", "3", "4"]
    assert "5 joueurs, roi appelé" in text
    # The QR code leads to the public standings, as an absolute URL.
    public = reverse("public-tournament", args=[data.tournament.pk])
    assert encoded == [f"http://testserver{public}"]
    assert "Classement en direct" in text


def test_table_plan_without_a_number_prints_every_position(arbiter_client, data):
    reader, pages = fetch_pdf(
        arbiter_client, reverse("print-table-plan", args=[data.tournament.pk])
    )
    assert len(reader.pages) == 2
    assert "position 1" in pages[0] and "position 2" in pages[1]


def test_who_sits_where_is_alphabetical_with_table_and_seat(arbiter_client, data):
    url = reverse("print-who-sits-where", args=[data.tournament.pk, 2])
    _reader, pages = fetch_pdf(arbiter_client, url)
    text = "\n".join(pages)
    seats = Seat.objects.filter(table__position=data.positions[1]).select_related(
        "table", "registration__player"
    )
    expected = sorted(seats, key=lambda s: s.registration.player.last_name)
    found = [
        re.search(
            rf"^{re.escape(s.registration.player.full_name)} {s.registration.number} "
            rf"{s.table.number} {s.get_direction_display()}$",
            text,
            re.M,
        )
        for s in expected
    ]
    assert all(found)
    starts = [match.start() for match in found]
    assert starts == sorted(starts)  # alphabetical order on the page
    assert "Qui est où ? — position 2" in text


def test_itinerary_cards_give_table_and_seat_at_every_position(arbiter_client, data):
    reader, pages = fetch_pdf(
        arbiter_client, reverse("print-itineraries", args=[data.tournament.pk])
    )
    assert len(reader.pages) == 3  # 17 players, eight cards a page
    text = "\n".join(pages)
    for registration in Registration.objects.filter(tournament=data.tournament).select_related(
        "player"
    ):
        name = registration.player.full_name
        card = text[text.index(name) :]
        assert card.startswith(f"{name}\nN° {registration.number}")
        for seat in registration.seats.select_related("table__position"):
            row = f"{seat.table.position.number} {seat.table.number} {seat.get_direction_display()}"
            assert row in card.split("Open de Chalon")[0]


def test_itinerary_cards_leave_positions_not_drawn_yet_blank(arbiter_client, data):
    data.tournament.positions_count = 3
    data.tournament.save()
    withdrawn = data.by_name("ROUX")
    withdrawn.withdrawn_after = 2
    withdrawn.save()
    _reader, pages = fetch_pdf(
        arbiter_client, reverse("print-itineraries", args=[data.tournament.pk])
    )
    text = "\n".join(pages)
    roux = text[text.index("ROUX Émile") :].split("Open de Chalon")[0]
    assert "3 — ne joue pas" in roux
    durand = text[text.index("DURAND Pierre") :].split("Open de Chalon")[0]
    assert durand.rstrip().endswith("\n3")


@pytest.mark.parametrize(
    "name,args",
    [
        ("print-table-plan", "pk"),
        ("print-table-plan", "pk,1"),
        ("print-who-sits-where", "pk,1"),
        ("print-itineraries", "pk"),
    ],
)
def test_seating_documents_are_not_public(client, data, name, args):
    values = [data.tournament.pk] + ([1] if args == "pk,1" else [])
    assert refused_to_anonymous(client, reverse(name, args=values))


def test_unknown_position_is_a_404(arbiter_client, data):
    url = reverse("print-who-sits-where", args=[data.tournament.pk, 7])
    assert arbiter_client.get(url).status_code == 404


def test_the_impressions_tab_links_every_document(arbiter_client, data):
    pk = data.tournament.pk
    page = arbiter_client.get(reverse("print-index", args=[pk]))
    assert page.status_code == 200
    html = page.text
    assert 'aria-current="page">Impressions' in html
    for name, args in [
        ("print-blank-sheets", [pk, 1]),
        ("print-sheets", [pk, 1]),
        ("print-table-plan", [pk, 2]),
        ("print-who-sits-where", [pk, 2]),
        ("print-table-plan", [pk]),
    ]:
        assert f'href="{reverse(name, args=args)}"' in html
    # The itinerary cards print through a button (a POST: the print is recorded for reprints).
    assert f'action="{reverse("print-itineraries", args=[pk])}"' in html
    assert reverse("print-ranking", args=[pk]) + "?kind=team" in html
    # Position 2's only sheet is entered, so its results are offered too.
    assert "kind=position&amp;position=2" in html
    # Every tournament page now shows the tab.
    assert (
        reverse("print-index", args=[pk])
        in arbiter_client.get(reverse("tournament-detail", args=[pk])).text
    )


def test_the_impressions_tab_is_not_public(client, data):
    assert refused_to_anonymous(client, reverse("print-index", args=[data.tournament.pk]))
