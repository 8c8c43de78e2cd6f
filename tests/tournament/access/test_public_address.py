"""One public address for every absolute link (PUBLIC_URL), and a plain warning when the one in
use is loopback: no phone can open 127.0.0.1, so the cockpit says so and printing blank sheets
with such QR codes asks first."""

import pytest
from django.test import RequestFactory
from django.urls import reverse

from scoring.documents.printing.render import public_standings_url
from scoring.sheets.table_entry import links_for_position
from tests.scoring.documents.printing.print_helpers import fetch_pdf
from tests.scoring.documents.printing.print_tournament import build_print_tournament
from tournament.models import Tournament
from tournament.public_address import absolute_url, is_loopback, site_root

pytestmark = pytest.mark.django_db

LAN = "http://192.168.1.23:8000"
LOOPBACK = {"HTTP_HOST": "127.0.0.1:8000"}


@pytest.fixture
def phones():
    """The printing tournament played on phones, public; position 1 published with its links."""
    data = build_print_tournament()
    Tournament.objects.filter(pk=data.tournament.pk).update(
        entry_mode=Tournament.EntryMode.PHONES, is_public=True
    )
    data.tournament.refresh_from_db()
    links_for_position(data.positions[0])
    return data


@pytest.mark.parametrize(
    ("url", "loopback"),
    [
        ("http://127.0.0.1:8000/", True),
        ("http://localhost:8000/", True),
        ("http://[::1]:8000/", True),
        ("http://127.8.0.1/", True),
        ("http://192.168.1.23:8000/", False),
        ("http://clublaptop.local:8000/", False),
        ("https://tarot.example.org/", False),
    ],
)
def test_loopback_addresses_are_recognised(url, loopback):
    assert is_loopback(url) is loopback


def test_links_follow_public_url_whatever_host_the_arbiter_used(settings, phones):
    request = RequestFactory().get("/", HTTP_HOST="127.0.0.1:8000")
    assert site_root(request) == "http://127.0.0.1:8000/"
    settings.PUBLIC_URL = LAN
    assert site_root(request) == LAN + "/"
    assert absolute_url(request, "/table/") == LAN + "/table/"
    assert public_standings_url(request, phones.tournament).startswith(LAN + "/public/")


def test_blank_sheets_print_the_public_address(settings, arbiter_client, phones):
    settings.PUBLIC_URL = LAN
    url = reverse("print-blank-sheets", args=[phones.tournament.pk, 1])
    _reader, pages = fetch_pdf(arbiter_client, url)
    assert "192.168.1.23:8000/table/" in " ".join(pages[0].split())


def test_the_hall_screen_and_sign_up_links_use_the_public_address(settings, arbiter_client, phones):
    settings.PUBLIC_URL = LAN
    tournament = phones.tournament
    arbiter_client.post(reverse("hall-link-create", args=[tournament.pk]))
    page = arbiter_client.get(reverse("tournament-detail", args=[tournament.pk]), **LOOPBACK)
    html = page.content.decode()
    tournament.refresh_from_db()
    assert f'value="{LAN}/salle/{tournament.hall_token}/"' in html
    signup = arbiter_client.get(reverse("signup-settings", args=[tournament.pk]), **LOOPBACK)
    assert signup.context["public_url"] == f"{LAN}/inscription/{tournament.pk}/"


def test_the_cockpit_shows_where_phones_go(settings, arbiter_client, phones):
    settings.PUBLIC_URL = LAN
    html = arbiter_client.get(reverse("tournament-detail", args=[phones.tournament.pk])).content
    html = html.decode()
    assert 'id="phone-address"' in html and f"{LAN}/table/" in html and "<svg" in html
    assert 'id="phones-unreachable"' not in html


def test_on_loopback_the_cockpit_says_phones_cant_reach_it(arbiter_client, phones):
    url = reverse("tournament-detail", args=[phones.tournament.pk])
    html = arbiter_client.get(url, **LOOPBACK).content.decode()
    assert 'id="phones-unreachable"' in html
    assert "Les téléphones ne peuvent pas joindre ce site" in html and "make club" in html


def test_a_paper_tournament_not_public_has_no_phone_notice(arbiter_client):
    data = build_print_tournament()
    url = reverse("tournament-detail", args=[data.tournament.pk])
    html = arbiter_client.get(url, **LOOPBACK).content.decode()
    assert 'id="phones-unreachable"' not in html and 'id="phone-address"' not in html


def test_blank_sheets_with_loopback_qr_codes_ask_first(arbiter_client, phones):
    url = reverse("print-blank-sheets", args=[phones.tournament.pk, 1])
    asked = arbiter_client.get(url, **LOOPBACK)
    assert asked.status_code == 200 and asked["Content-Type"].startswith("text/html")
    assert 'id="loopback-warning"' in asked.content.decode()
    anyway = arbiter_client.get(url + "?adresse=locale", **LOOPBACK)
    assert anyway["Content-Type"] == "application/pdf"
