"""A licence holder's own page (issue 27): their results in every club's public tournaments,
never a private one, reached from their public results pages through one of their public
registrations (no licence in the address nor on the page)."""

import datetime

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring.season.club_pages import RESULTS_PAGE
from tests.scoring.season.championship_helpers import evening
from tournament.models import Club, Player, Registration, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def clubs():
    return Club.objects.create(name="Tarot Club Angevin"), Club.objects.create(
        name="Excuse Nantaise"
    )


def played(name: str, day: int, club: Club, lucie: Player, *, public: bool = True, score=30):
    """An evening of `club` that LUCIE played (first with `score`), with three others."""
    others = [Player.objects.create(last_name=f"{name}-{i}") for i in range(3)]
    tournament = evening(name, day, [{lucie: score, **{p: -score // 3 for p in others}}])
    Tournament.objects.filter(pk=tournament.pk).update(host_club=club, is_public=public)
    tournament.refresh_from_db()
    return tournament


def person_url(tournament: Tournament, player: Player) -> str:
    entry = Registration.objects.get(tournament=tournament, player=player)
    return reverse("public-person", args=[tournament.pk, entry.pk])


def test_the_page_lists_the_public_tournaments_of_every_club_and_no_private_one(client, clubs):
    a, b = clubs
    lucie = Player.objects.create(last_name="MARTIN", first_name="Lucie", licence="0123456")
    ours = played("Soirée angevine", 1, a, lucie, score=30)
    played("Open nantais", 8, b, lucie, score=-60)
    played("Interne nantais", 15, b, lucie, public=False)
    played("Interne angevin", 22, a, lucie, public=False)
    someone = Player.objects.create(last_name="AUTRE", licence="0999999")
    played("Soirée d'un autre", 29, a, someone)

    response = client.get(person_url(ours, lucie))
    assert response.status_code == 200
    rows = [
        (row["tournament"].name, row["tournament"].host_club.name, row["ranked"].rank)
        for row in response.context["rows"]
    ]
    assert rows == [
        ("Open nantais", "Excuse Nantaise", 4),
        ("Soirée angevine", "Tarot Club Angevin", 1),
    ]
    html = response.content.decode()
    assert "Interne" not in html and "Soirée d'un autre" not in html
    assert "0123456" not in html  # the licence is never printed
    # Each result links to the player's page of that tournament.
    nantes = Tournament.objects.get(name="Open nantais")
    entry = Registration.objects.get(tournament=nantes, player=lucie)
    assert reverse("public-player", args=[nantes.pk, entry.pk]) in html


def test_the_page_is_reached_from_the_players_results_and_statistics_pages(client, clubs):
    a, _b = clubs
    lucie = Player.objects.create(last_name="MARTIN", first_name="Lucie", licence="0123456")
    ours = played("Soirée angevine", 1, a, lucie)
    entry = Registration.objects.get(tournament=ours, player=lucie)
    target = person_url(ours, lucie)
    for name in ("public-player", "public-player-statistics"):
        html = client.get(reverse(name, args=[ours.pk, entry.pk])).content.decode()
        assert target in html, name


def test_a_private_tournaments_registration_opens_no_page(client, clubs):
    a, _b = clubs
    lucie = Player.objects.create(last_name="MARTIN", first_name="Lucie", licence="0123456")
    played("Soirée angevine", 1, a, lucie)
    hidden = played("Interne angevin", 8, a, lucie, public=False)
    assert client.get(person_url(hidden, lucie)).status_code == 404
    # Nor does a registration of another tournament under a public one's address.
    shown = Tournament.objects.get(name="Soirée angevine")
    other = Registration.objects.get(tournament=hidden, player=lucie)
    assert client.get(reverse("public-person", args=[shown.pk, other.pk])).status_code == 404


def test_without_a_licence_the_page_holds_that_roster_entry_only(client, clubs):
    a, b = clubs
    one = Player.objects.create(last_name="MARTIN", first_name="Paul")
    homonym = Player.objects.create(last_name="MARTIN", first_name="Paul")
    ours = played("Soirée angevine", 1, a, one)
    played("Open nantais", 8, b, homonym)
    response = client.get(person_url(ours, one))
    assert [row["tournament"].name for row in response.context["rows"]] == ["Soirée angevine"]


def test_the_page_is_paginated_newest_first(client, clubs):
    a, _b = clubs
    lucie = Player.objects.create(last_name="MARTIN", first_name="Lucie", licence="0123456")
    evenings = [played(f"Soirée {day:02d}", day, a, lucie) for day in range(1, RESULTS_PAGE + 2)]
    url = person_url(evenings[0], lucie)
    first = client.get(url).context["rows"]
    assert (
        len(first) == RESULTS_PAGE
        and first[0]["tournament"].name == f"Soirée {RESULTS_PAGE + 1:02d}"
    )
    assert [row["tournament"].name for row in client.get(url, {"page": 2}).context["rows"]] == [
        "Soirée 01"
    ]


def test_the_page_costs_the_same_queries_for_one_or_many_results(client, clubs):
    a, b = clubs
    lucie = Player.objects.create(last_name="MARTIN", first_name="Lucie", licence="0123456")
    ours = played("Soirée 1", 1, a, lucie)
    url = person_url(ours, lucie)
    with CaptureQueriesContext(connection) as one:
        assert client.get(url).status_code == 200
    for day in range(2, 6):
        played(f"Soirée {day}", day, b if day % 2 else a, lucie)
    with CaptureQueriesContext(connection) as many:
        response = client.get(url)
    assert len(response.context["rows"]) == 5
    assert len(many.captured_queries) == len(one.captured_queries)


def test_results_of_every_season_are_on_the_page(client, clubs):
    """Results from several seasons are on the same page: it is the person's, not a season's."""
    a, _b = clubs
    lucie = Player.objects.create(last_name="MARTIN", first_name="Lucie", licence="0123456")
    old = played("Soirée ancienne", 1, a, lucie)
    Tournament.objects.filter(pk=old.pk).update(date=datetime.date(2019, 3, 1))
    recent = played("Soirée récente", 2, a, lucie)
    names = [
        row["tournament"].name for row in client.get(person_url(recent, lucie)).context["rows"]
    ]
    assert names == ["Soirée récente", "Soirée ancienne"]


def test_a_disputed_licence_shows_only_the_entry_the_page_is_reached_by(
    client, clubs, django_user_model
):
    """Club B holds LUCIE's licence under a false name (an open licence conflict): her page
    never lists the false entry's results, until an arbiter merges the two (one person)."""
    from tournament.clubs.settlement import conflict_resolve
    from tournament.players.conflicts import conflict_flag

    a, b = clubs
    false = Player.objects.create(last_name="FAUX", first_name="Nom", licence="0123456")
    Player.objects.filter(pk=false.pk).update(origin_club=b)
    played("Open nantais", 8, b, false, score=-60)
    lucie = Player.objects.create(last_name="MARTIN", first_name="Lucie", licence="0123456")
    Player.objects.filter(pk=lucie.pk).update(origin_club=a)
    ours = played("Soirée angevine", 1, a, lucie, score=30)
    false.refresh_from_db()
    lucie.refresh_from_db()
    conflict = conflict_flag(licence="0123456", existing=false, newcomer=lucie, user=None)

    def names() -> list[str]:
        response = client.get(person_url(ours, lucie))
        return [row["tournament"].name for row in response.context["rows"]]

    assert names() == ["Soirée angevine"]
    assert "Open nantais" not in client.get(person_url(ours, lucie)).content.decode()
    referee = django_user_model.objects.create_superuser("superviseur", password="x")
    # The false entry's finished tournament would show another name: reopened first (issue 36).
    Tournament.objects.filter(name="Open nantais").update(status=Tournament.Status.RUNNING)
    conflict_resolve(conflict=conflict, resolution="merge", user=referee)  # keeps the newcomer
    assert names() == ["Open nantais", "Soirée angevine"]
