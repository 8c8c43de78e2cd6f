"""The arbiter's roster search ignores accents, case and punctuation, on SQLite and PostgreSQL."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.club_helpers import roster_club
from tournament.core.collation import fold
from tournament.models import Player
from tournament.players.folding import Fold
from tournament.players.selectors import player_search

pytestmark = pytest.mark.django_db

ROSTER = [
    ("Côté", "François", "TC Québec"),
    ("Lefèvre", "Hélène", "Club de l'Œuf"),
    ("Lefebvre", "Noël", ""),
    ("Le Gall", "Océane", "Tarot-Club Brest"),
    ("Martin", "Léa", ""),
]


@pytest.fixture
def roster():
    return [
        Player.objects.create(
            origin_club=roster_club(), last_name=last, first_name=first, club=club
        )
        for last, first, club in ROSTER
    ]


def names(query):
    return [p.full_name for p in player_search(query=query, among=Player.objects.all())]


def test_cote_finds_cote_francois(roster):
    assert names("cote") == ["CÔTÉ François"]
    assert names("COTE fran") == ["CÔTÉ François"]


def test_lefe_finds_lefevre_and_lefebvre(roster):
    assert names("lefe") == ["LEFEBVRE Noël", "LEFÈVRE Hélène"]


@pytest.mark.parametrize(
    ("query", "found"),
    [
        ("helene", "LEFÈVRE Hélène"),
        ("noel", "LEFEBVRE Noël"),
        ("oceane", "LE GALL Océane"),
        ("legall", "LE GALL Océane"),
        ("quebec", "CÔTÉ François"),
        ("oeuf", "LEFÈVRE Hélène"),
    ],
)
def test_accentless_words_find_accented_names_and_clubs(roster, query, found):
    assert names(query) == [found]


def test_typed_accents_find_plain_names_too(roster):
    assert names("MÄRTIN") == ["MARTIN Léa"]


def test_the_search_page_answers_cote_with_one_query_whatever_the_roster(arbiter_client, roster):
    url = reverse("player-search")

    def cost():
        with CaptureQueriesContext(connection) as captured:
            response = arbiter_client.get(url, {"q": "cote"}, headers={"HX-Request": "true"})
        assert "CÔTÉ François" in response.text
        return len(captured)

    small = cost()
    Player.objects.bulk_create(
        Player(origin_club=roster_club(), last_name=f"Côtélette{i}", first_name="Jean")
        for i in range(60)
    )
    assert cost() == small


def test_long_result_lists_are_capped_and_say_so(arbiter_client):
    Player.objects.bulk_create(
        Player(origin_club=roster_club(), last_name=f"Dupont{i:02d}") for i in range(30)
    )
    response = arbiter_client.get(
        reverse("player-search"), {"q": "dupont"}, headers={"HX-Request": "true"}
    )
    assert response.text.count('class="name"') == 20
    assert "précisez" in response.text


def test_the_database_folds_names_as_python_does():
    texts = [
        "Côté-Noël",
        "ŒDIPE Ærø",
        "Straße",
        "Çelik",
        "Łukasz Żółć",
        "d'Aubigné",
        "ÀÁÂÃÄÅÈÉÊËÌÍÎÏÒÓÔÕÖÙÚÛÜÝÑŸ",
        "àáâãäåçèéêëìíîïñòóôõöùúûüýÿāăąćĉčďēĕėęěĝğģĥĩīĭįĵķĺļľńņňōŏőŕŗřśŝşšţťũūŭůűųŵŷźżž",
    ]
    Player.objects.bulk_create(Player(origin_club=roster_club(), last_name=text) for text in texts)
    folded = dict(Player.objects.annotate(f=Fold("last_name")).values_list("last_name", "f"))
    assert folded == {text: fold(text) for text in texts}
