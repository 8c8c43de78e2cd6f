"""The printed codes to a public page, read back as a phone would (issue 38: every printed QR
code leads where the README says, from the public address): the ranking's and the table plan's
corner code to the public standings, an event's and a championship's to their public pages;
a tournament that is not public prints no such code, since its public page answers 404."""

import pytest
from django.test import Client as HttpClient
from django.urls import reverse

from tests.scoring.documents.printing.print_helpers import fetch_pdf
from tests.scoring.documents.printing.print_tournament import build_print_tournament
from tests.scoring.documents.printing.qr_reading import qr_codes
from tests.scoring.events.venue_helpers import cut_event
from tests.scoring.season.championship_helpers import championship, evening, people
from tournament.models import Tournament

pytestmark = pytest.mark.django_db

PUBLIC = "http://club.lan:8000"


def codes(response, workdir) -> set[str]:
    assert response["Content-Type"] == "application/pdf"
    workdir.mkdir(exist_ok=True)
    return {code for page in qr_codes(response.content, workdir) for code in page}


def opens_for_a_phone(code: str) -> int:
    """The status a phone, logged in nowhere, gets at the code's address."""
    assert code.startswith(PUBLIC), code
    return HttpClient().get(code.removeprefix(PUBLIC)).status_code


@pytest.fixture
def printed(settings):
    settings.PUBLIC_URL = PUBLIC
    return build_print_tournament()


@pytest.mark.parametrize("public", [True, False])
def test_the_rankings_code_leads_to_the_public_standings_only_when_public(
    arbiter_client, printed, tmp_path, public
):
    tournament = printed.tournament
    Tournament.objects.filter(pk=tournament.pk).update(is_public=public)
    standings = f"{PUBLIC}{reverse('public-tournament', args=[tournament.pk])}"
    ranking = arbiter_client.get(reverse("print-ranking", args=[tournament.pk]))
    found = codes(ranking, tmp_path / "ranking")
    plan = arbiter_client.get(reverse("print-table-plan", args=[tournament.pk, 1]))
    found_on_plan = codes(plan, tmp_path / "plan")
    if public:
        assert found == {standings}
        assert standings in found_on_plan
        assert opens_for_a_phone(standings) == 200
    else:  # the public page would answer 404: no code leads there
        assert opens_for_a_phone(standings) == 404
        assert found == set()
        assert standings not in found_on_plan


def test_an_events_code_leads_to_its_public_page(arbiter_client, arbiter, settings, tmp_path):
    settings.PUBLIC_URL = PUBLIC
    result = cut_event(arbiter, players=8, public=True)
    url = reverse("event-session-document", args=[result.event.pk, 1, "cumul", "pdf"])
    found = codes(arbiter_client.get(url), tmp_path)
    page = f"{PUBLIC}{reverse('public-event', args=[result.event.pk])}"
    assert found == {page}
    assert opens_for_a_phone(page) == 200


def test_a_championships_code_leads_to_its_public_page(arbiter_client, arbiter, settings, tmp_path):
    settings.PUBLIC_URL = PUBLIC
    p = people("ANNE", "BRUNO", "CLAIRE", "DENIS")
    scores = {p["ANNE"]: 300, p["BRUNO"]: 100, p["CLAIRE"]: -100, p["DENIS"]: -300}
    night = evening("Soirée publique", 1, [scores], owner=arbiter)
    Tournament.objects.filter(pk=night.pk).update(is_public=True)
    season = championship([night], owner=arbiter, is_public=True)
    found = codes(arbiter_client.get(reverse("championship-pdf", args=[season.pk])), tmp_path)
    page = f"{PUBLIC}{reverse('public-championship', args=[season.pk])}"
    assert found == {page}
    assert opens_for_a_phone(page) == 200


@pytest.mark.parametrize("public", [True, False])
def test_the_itinerary_card_prints_the_address_its_code_leads_to(
    arbiter_client, printed, tmp_path, public
):
    """Under its code, the card prints the player's page address, for a phone without a camera;
    a tournament that is not public prints neither (the page would answer 404)."""
    tournament = printed.tournament
    Tournament.objects.filter(pk=tournament.pk).update(is_public=public)
    _reader, pages = fetch_pdf(arbiter_client, reverse("print-itineraries", args=[tournament.pk]))
    text = " ".join(pages).replace("\n", " ")
    durand = printed.by_name("DURAND")
    own = f"{PUBLIC}{reverse('public-player', args=[tournament.pk, durand.pk])}"
    said = "Ma page (prochaine table et place, classement) :"
    if public:
        assert said in text and own in text.replace(" ", "")
    else:
        assert said not in text
        response = arbiter_client.get(reverse("print-itineraries", args=[tournament.pk]))
        assert codes(response, tmp_path) == set()


LOOPBACK = "http://127.0.0.1:8000"


def asks_first(response) -> bool:
    """The loopback question instead of the PDF."""
    text = response.content.decode() if response["Content-Type"].startswith("text/") else ""
    return 'id="loopback-warning"' in text and LOOPBACK in text


def test_a_paper_tournaments_public_codes_on_loopback_ask_first(arbiter_client, printed, settings):
    """No phone enters deals, but the ranking's, the table plan's and the cards' codes lead to
    public pages: on a loopback address they would lead every phone nowhere, so the arbiter is
    asked first, as for the blank sheets; "print anyway" keeps the query."""
    settings.PUBLIC_URL = LOOPBACK
    tournament = printed.tournament
    Tournament.objects.filter(pk=tournament.pk).update(
        entry_mode=Tournament.EntryMode.PAPER, is_public=True
    )
    ranking = reverse("print-ranking", args=[tournament.pk]) + "?kind=position&position=1"
    plan = reverse("print-table-plan", args=[tournament.pk, 1])
    cards = reverse("print-itineraries", args=[tournament.pk])
    for url in (ranking, plan, cards):
        asked = arbiter_client.get(url)
        assert asks_first(asked), url
    asked = arbiter_client.get(ranking).content.decode()
    assert "kind=position&amp;position=1&amp;adresse=locale" in asked
    anyway = arbiter_client.get(ranking + "&adresse=locale")
    assert anyway["Content-Type"] == "application/pdf"


def test_a_private_paper_tournament_on_loopback_prints_at_once(arbiter_client, printed, settings):
    """Without a public page nor phones, its documents carry no code: nothing to ask."""
    settings.PUBLIC_URL = LOOPBACK
    tournament = printed.tournament
    Tournament.objects.filter(pk=tournament.pk).update(
        entry_mode=Tournament.EntryMode.PAPER, is_public=False
    )
    for url in (
        reverse("print-ranking", args=[tournament.pk]),
        reverse("print-table-plan", args=[tournament.pk, 1]),
        reverse("print-itineraries", args=[tournament.pk]),
    ):
        assert arbiter_client.get(url)["Content-Type"] == "application/pdf", url
