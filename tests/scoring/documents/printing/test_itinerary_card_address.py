"""The itinerary card prints its player's own page as an address too, beside its QR code (issue
38: the card had neither), for a phone that cannot scan: the public address, not loopback."""

import pytest
from django.urls import reverse

from tests.scoring.documents.printing.print_helpers import fetch_pdf
from tests.scoring.documents.printing.test_print_qr_destinations import (  # noqa: F401 (fixture)
    PUBLIC,
    phones,
)

pytestmark = pytest.mark.django_db


def test_each_card_prints_the_address_of_its_players_page(arbiter_client, phones):  # noqa: F811
    url = reverse("print-itineraries", args=[phones.tournament.pk])
    _reader, pages = fetch_pdf(arbiter_client, url)
    text = "".join("".join(page.split()) for page in pages)  # a long address wraps
    assert "Mapage(prochainetableetplace,classement)" in text
    for registration in (r for r in phones.registrations if r.status == "active"):
        own = PUBLIC + reverse("public-player", args=[phones.tournament.pk, registration.pk])
        assert own in text, own
    assert "127.0.0.1" not in text
