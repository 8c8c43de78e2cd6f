"""Issue 23, point 5: itinerary cards to reprint. A card printed before the player's code
changed (the cockpit's "Nouveau code"), or naming a seat that changed since (a swap, a re-plan
of drafts), is listed on the cockpit with a link printing those cards only, until they are
printed again."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring.live.reprints import cards_to_reprint
from tests.scoring.documents.printing.print_helpers import fetch_pdf
from tests.tournament.evening.positions_helpers import make_tournament
from tournament.evening.positions import position_generate, position_publish
from tournament.evening.selectors import tournament_plan
from tournament.evening.swaps import seat_swap

pytestmark = pytest.mark.django_db


def print_cards(client, tournament, query: str = "", *, post: bool = True) -> str:
    url = reverse("print-itineraries", args=[tournament.pk]) + query
    _reader, pages = fetch_pdf(client, url, post=post)
    return " ".join(" ".join(pages).split())


def cockpit(client, tournament) -> str:
    return client.get(reverse("tournament-detail", args=[tournament.pk])).content.decode()


@pytest.fixture
def planned():
    tournament = make_tournament(players=8, positions=2)
    position_generate(tournament=tournament, seed=2)
    position_publish(position=tournament.positions.get(number=1))
    return tournament


def test_a_new_code_after_printing_lists_the_card_until_it_is_printed_again(
    arbiter_client, planned
):
    assert "Cartes d'itinéraire à réimprimer" not in cockpit(arbiter_client, planned)
    print_cards(arbiter_client, planned)
    assert "Cartes d'itinéraire à réimprimer" not in cockpit(arbiter_client, planned)
    player = planned.registrations.get(number=3)
    arbiter_client.post(reverse("code-unlock", args=[planned.pk, player.pk]), {"new_code": "1"})
    page = cockpit(arbiter_client, planned)
    section = page[page.index('id="cockpit-reprints"') :]
    section = section[: section.index("</section>")]
    assert "Cartes d'itinéraire à réimprimer" in section
    assert f"3. {player.player.full_name}" in section and "nouveau code personnel" in section
    assert "?numeros=3" in section and "Imprimer cette carte" in section
    # The link prints that card only, with the new code; then the cockpit is quiet again.
    player.refresh_from_db()
    text = print_cards(arbiter_client, planned, "?numeros=3")
    assert player.pin in text and player.player.full_name in text
    assert planned.registrations.get(number=4).player.full_name not in text
    assert "Cartes d'itinéraire à réimprimer" not in cockpit(arbiter_client, planned)


def test_a_swap_after_printing_lists_both_players_cards(arbiter_client, planned):
    print_cards(arbiter_client, planned)
    plan = tournament_plan(planned)[1]
    first, second = (planned.registrations.get(pk=t[0]) for t in plan)
    seat_swap(position=planned.positions.get(number=2), first=first, second=second)
    reprints = cards_to_reprint(planned)
    assert sorted(r.registration.pk for r in reprints) == sorted([first.pk, second.pk])
    assert all(r.moved == (2,) and not r.new_code for r in reprints)
    assert "place changée (position 2)" in cockpit(arbiter_client, planned)


def test_cards_never_printed_are_never_to_reprint(arbiter_client, planned):
    player = planned.registrations.get(number=3)
    arbiter_client.post(reverse("code-unlock", args=[planned.pk, player.pk]), {"new_code": "1"})
    assert cards_to_reprint(planned) == []
    assert "Cartes d'itinéraire à réimprimer" not in cockpit(arbiter_client, planned)


def test_the_cockpit_keeps_its_query_count_with_cards_to_reprint(arbiter_client):
    counts = []
    for players in (8, 20):
        tournament = make_tournament(players=players, positions=2)
        position_generate(tournament=tournament, seed=2)
        position_publish(position=tournament.positions.get(number=1))
        print_cards(arbiter_client, tournament)
        for number in (1, 2):
            registration = tournament.registrations.get(number=number)
            registration.pin = "000000"
            registration.save(update_fields=["pin"])
        url = reverse("tournament-detail", args=[tournament.pk])
        arbiter_client.get(url)
        with CaptureQueriesContext(connection) as queries:
            assert "à réimprimer" in arbiter_client.get(url).content.decode()
        counts.append(len(queries))
    assert counts[0] == counts[1], counts


@pytest.mark.parametrize("numbers", ["%C2%B2", "99999999999999999999999", "3,x,%20"])
def test_a_card_list_no_player_can_have_prints_no_unknown_card(arbiter_client, planned, numbers):
    """A superscript digit or a number past any column's range names no card: never a 500."""
    text = print_cards(arbiter_client, planned, f"?numeros={numbers}")
    assert planned.registrations.get(number=4).player.full_name not in text


def test_only_the_print_buttons_post_records_the_cards_a_get_changes_nothing(
    arbiter_client, planned
):
    """A GET (a link preview, a prefetch, a reload of the PDF tab) reads only: the reprint list
    moves on the arbiter's print button (a POST), never on a GET."""
    player = planned.registrations.get(number=3)
    print_cards(arbiter_client, planned, post=False)
    player.refresh_from_db()
    assert player.card_printed is None
    cockpit_page = cockpit(arbiter_client, planned)
    # Both print buttons on the print page and the cockpit are POST forms.
    index = arbiter_client.get(reverse("print-index", args=[planned.pk])).content.decode()
    action = f'method="post" action="{reverse("print-itineraries", args=[planned.pk])}'
    assert index.count(action) == 2
    print_cards(arbiter_client, planned)
    player.refresh_from_db()
    assert player.card_printed and player.card_printed["pin"] == player.pin
    arbiter_client.post(reverse("code-unlock", args=[planned.pk, player.pk]), {"new_code": "1"})
    section = cockpit(arbiter_client, planned)
    assert 'method="post" action="' + reverse("print-itineraries", args=[planned.pk]) in section
    assert "Cartes d'itinéraire à réimprimer" not in cockpit_page
