"""Every printed QR code leads where the README says, from the public address (issue 38), read
back from the PDF as a phone would: the table plan's per-table codes to each table's entry
page, the itinerary card's to the player's own page (next table and seat, standings); the table
plan asks first when that address is loopback, as the blank sheets do."""

import pytest
from django.test import Client as HttpClient
from django.urls import reverse

from scoring.sheets.table_entry import links_for_position
from tests.scoring.documents.printing.print_tournament import build_print_tournament
from tests.scoring.documents.printing.qr_reading import qr_codes
from tournament.models import Tournament

pytestmark = pytest.mark.django_db

PUBLIC = "http://club.lan:8000"


@pytest.fixture
def phones(settings):
    settings.PUBLIC_URL = PUBLIC
    data = build_print_tournament()
    Tournament.objects.filter(pk=data.tournament.pk).update(
        entry_mode=Tournament.EntryMode.PHONES, is_public=True
    )
    data.tournament.refresh_from_db()
    data.links = {link.table.number: link for link in links_for_position(data.positions[0])}
    return data


def test_the_table_plans_codes_lead_to_each_tables_entry(arbiter_client, phones, tmp_path):
    url = reverse("print-table-plan", args=[phones.tournament.pk, 1])
    response = arbiter_client.get(url)
    assert response["Content-Type"] == "application/pdf"
    found = [code for page in qr_codes(response.content, tmp_path) for code in page]
    entries = {
        f"{PUBLIC}{reverse('table-entry', args=[link.token])}" for link in phones.links.values()
    }
    assert entries <= set(found), found
    standings = f"{PUBLIC}{reverse('public-tournament', args=[phones.tournament.pk])}"
    assert standings in found  # the page's own code, captioned "Classement en direct"
    for code in entries:  # each opens its table on a phone
        assert HttpClient().get(code.removeprefix(PUBLIC)).status_code == 200


def test_the_table_plan_warns_when_its_codes_would_lead_to_loopback(
    arbiter_client, phones, settings
):
    settings.PUBLIC_URL = "http://127.0.0.1:8000"
    url = reverse("print-table-plan", args=[phones.tournament.pk, 1])
    response = arbiter_client.get(url)
    assert response["Content-Type"].startswith("text/html")
    text = response.content.decode()
    assert 'id="loopback-warning"' in text and "127.0.0.1" in text
    assert "Plan des tables" in text
    anyway = arbiter_client.get(url + "?adresse=locale")
    assert anyway["Content-Type"] == "application/pdf"


def test_the_itinerary_card_leads_to_the_players_own_page(arbiter_client, phones, tmp_path):
    url = reverse("print-itineraries", args=[phones.tournament.pk])
    response = arbiter_client.get(url)
    assert response["Content-Type"] == "application/pdf"
    found = {code for page in qr_codes(response.content, tmp_path) for code in page}
    registrations = [r for r in phones.registrations if r.status == "active"]
    pages = {
        f"{PUBLIC}{reverse('public-player', args=[phones.tournament.pk, r.pk])}"
        for r in registrations
    }
    assert pages <= found, sorted(pages - found)
    durand = phones.by_name("DURAND")
    own = f"{PUBLIC}{reverse('public-player', args=[phones.tournament.pk, durand.pk])}"
    page = HttpClient().get(own.removeprefix(PUBLIC))
    assert page.status_code == 200 and "DURAND" in page.content.decode()


@pytest.mark.parametrize("query", ["", "?brouillons=non"])
def test_the_itinerary_cards_warn_when_their_codes_would_lead_to_loopback(
    arbiter_client, phones, settings, query
):
    """Both print buttons POST; on loopback they get the question first, nothing is recorded,
    and "print anyway" posts again with the same query."""
    settings.PUBLIC_URL = "http://127.0.0.1:8000"
    url = reverse("print-itineraries", args=[phones.tournament.pk]) + query
    asked = arbiter_client.post(url)
    assert asked["Content-Type"].startswith("text/html")
    text = asked.content.decode()
    assert 'id="loopback-warning"' in text and "127.0.0.1" in text
    assert "Cartes d&#x27;itinéraire des joueurs" in text
    assert 'method="post"' in text and "adresse=locale" in text
    if query:
        assert "brouillons=non" in text
    printed = phones.tournament.registrations.exclude(card_printed=None)
    assert not printed.exists()  # the question printed nothing
    sep = "&" if query else "?"
    anyway = arbiter_client.post(url + sep + "adresse=locale")
    assert anyway["Content-Type"] == "application/pdf"
    assert printed.exists()
