"""Itinerary cards: a draft position's table is marked "brouillon — peut changer", or left
blank when the arbiter prints without drafts; published positions are printed as they are."""

import pytest
from django.urls import reverse

from tests.desk_helpers import make_tournament
from tests.scoring.documents.printing.print_helpers import fetch_pdf
from tournament.models import Position, Seat, Table

pytestmark = pytest.mark.django_db


@pytest.fixture
def with_draft(arbiter):
    tournament, first = make_tournament(tables=1)
    draft = Position.objects.create(tournament=tournament, number=2, status="draft")
    table = Table.objects.create(position=draft, number=7)
    for seat in first.tables.get().seats.all():
        Seat.objects.create(table=table, registration=seat.registration, direction=seat.direction)
    return tournament


def cards(client, tournament, query: str = "") -> str:
    url = reverse("print-itineraries", args=[tournament.pk]) + query
    _reader, pages = fetch_pdf(client, url)
    return " ".join(" ".join(pages).split())


def test_draft_positions_are_marked_on_the_cards(arbiter_client, with_draft):
    text = cards(arbiter_client, with_draft)
    assert text.count("brouillon — peut changer") == 4


def test_the_arbiter_may_print_the_cards_without_drafts(arbiter_client, with_draft):
    text = cards(arbiter_client, with_draft, "?brouillons=non")
    assert "brouillon" not in text
    assert " 7 " not in f" {text} "  # the draft's table number printed nowhere
    html = arbiter_client.get(reverse("print-index", args=[with_draft.pk])).content.decode()
    assert "?brouillons=non" in html
