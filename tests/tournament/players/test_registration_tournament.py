"""Creating and editing a tournament through the arbiter's real views."""

import pytest
from django.urls import reverse

from tournament.models import Club, Position, Tournament
from tournament.tournaments.forms import TournamentForm

pytestmark = pytest.mark.django_db

SETTINGS = {
    "name": "Open de Chalon",
    "date": "2026-11-21",
    "venue": "Salle des fêtes",
    "club": "Tarot Club Chalonnais",
    "format": "duo",
    "positions_count": "5",
    "deals_per_table_4": "5",
    "deals_per_table_5": "5",
    "deals_per_table_3": "6",
    "remainder": "three",
    "rule_set": "booklet",
}


def test_create_form_autofocuses_the_name_and_offers_both_rule_sets_and_public_standings(
    arbiter_client,
):
    page = arbiter_client.get(reverse("tournament-create")).text
    assert 'name="name"' in page and "autofocus" in page
    assert "FFT officiel" in page and "Variante livret (×3/×4)" in page
    assert 'name="is_public"' in page and "Classement public" in page


def test_the_tie_breaks_are_offered_in_the_language_chosen(arbiter_client):
    french = arbiter_client.get(reverse("tournament-create")).text
    assert "Meilleur bilan sur une position" in french
    arbiter_client.post(reverse("set_language"), {"language": "en"})
    english = arbiter_client.get(reverse("tournament-create")).text
    for label in ("Best balance in a round", "Fewer penalty points", "More tables won"):
        assert label in english
    assert "Meilleur bilan sur une position" not in english
    assert "Plus de tables gagnées" not in english


def test_arbiter_creates_a_tournament_with_every_setting(arbiter_client, arbiter):
    response = arbiter_client.post(reverse("tournament-create"), SETTINGS)
    tournament = Tournament.objects.get()
    assert response.status_code == 302
    assert response.url == reverse("tournament-detail", args=[tournament.pk])
    assert tournament.name == "Open de Chalon"
    assert str(tournament.date) == "2026-11-21"
    assert (tournament.venue, tournament.club) == ("Salle des fêtes", "Tarot Club Chalonnais")
    assert (tournament.format, tournament.positions_count) == ("duo", 5)
    assert (tournament.remainder, tournament.rule_set) == ("three", "booklet")
    assert tournament.deals_per_table_3 == 6
    assert tournament.owner == arbiter
    assert "Open de Chalon" in arbiter_client.get(response.url).text


def test_arbiter_edits_a_tournament(arbiter_client):
    tournament = Tournament.objects.create(name="Open", date="2026-11-21")
    response = arbiter_client.post(
        reverse("tournament-edit", args=[tournament.pk]),
        SETTINGS | {"name": "Open d'hiver", "positions_count": "6", "rule_set": "fft"},
    )
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert (tournament.name, tournament.positions_count, tournament.rule_set) == (
        "Open d'hiver",
        6,
        "fft",
    )


def test_unknown_rule_set_is_refused_and_nothing_changes(arbiter_client):
    response = arbiter_client.post(reverse("tournament-create"), SETTINGS | {"rule_set": "x"})
    assert response.status_code == 200
    assert not Tournament.objects.exists()


def test_positions_count_cannot_fall_below_the_published_positions(arbiter_client):
    tournament = Tournament.objects.create(name="Open", date="2026-11-21", positions_count=4)
    for number in (1, 2, 3):
        Position.objects.create(
            tournament=tournament, number=number, status=Position.Status.PUBLISHED
        )
    response = arbiter_client.post(
        reverse("tournament-edit", args=[tournament.pk]),
        SETTINGS | {"format": "individual", "positions_count": "2"},
    )
    assert response.status_code == 200
    assert "3 positions sont déjà publiées" in response.text
    tournament.refresh_from_db()
    assert tournament.positions_count == 4
    assert tournament.name == "Open"


def test_tournament_list_links_to_each_tournament(arbiter_client):
    tournament = Tournament.objects.create(name="Open de Mâcon", date="2026-11-21")
    page = arbiter_client.get(reverse("tournament-list")).text
    assert "Open de Mâcon" in page
    assert reverse("tournament-detail", args=[tournament.pk]) in page


def test_tournament_pages_share_the_tab_bar(arbiter_client):
    tournament = Tournament.objects.create(name="Open", date="2026-11-21", format="team4")
    page = arbiter_client.get(reverse("tournament-detail", args=[tournament.pk])).text
    assert '<nav class="tabs"' in page
    for label in ("Tableau de bord", "Joueurs", "Équipes", "Positions"):
        assert label in page


def test_the_settings_page_shows_every_field_once_in_its_section(arbiter_client):
    placed = [name for _legend, names in TournamentForm.SECTIONS for name in names]
    # The club is a field of a new tournament only (chosen among the creator's clubs).
    assert sorted(placed) == sorted(TournamentForm(clubs=Club.objects.all()).fields)
    page = arbiter_client.get(reverse("tournament-create")).text
    legends = ["Le tournoi", "Déroulement", "Saisie des donnes", "Classement public", "Classement"]
    assert [page.index(f"<legend>{legend}</legend>") for legend in legends] == sorted(
        page.index(f"<legend>{legend}</legend>") for legend in legends
    )
    for name in placed:
        assert page.count(f'name="{name}"') >= 1, name


def test_a_table_plays_at_least_one_deal_and_the_form_keeps_what_was_typed(arbiter_client):
    response = arbiter_client.post(
        reverse("tournament-create"), SETTINGS | {"deals_per_table_4": "0"}
    )
    assert response.status_code == 200 and not Tournament.objects.exists()
    page = response.text
    assert "supérieure ou égale à 1" in page
    assert 'value="Open de Chalon"' in page
    response = arbiter_client.post(
        reverse("tournament-create"), SETTINGS | {"deals_per_table_3": "31"}
    )
    assert "inférieure ou égale à 30" in response.text and not Tournament.objects.exists()
    arbiter_client.post(reverse("tournament-create"), SETTINGS)
    tournament = Tournament.objects.get()
    edit = reverse("tournament-edit", args=[tournament.pk])
    page = arbiter_client.post(edit, SETTINGS | {"deals_per_table_5": "0"}).text
    assert "supérieure ou égale à 1" in page
    tournament.refresh_from_db()
    assert tournament.deals_per_table_5 == 5
