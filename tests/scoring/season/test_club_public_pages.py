"""A club's public pages (issue 27): its calendar with online sign-up, its results archive and
its championships, public only; the list of clubs that publish something; a club with nothing
public answers 404. Each page costs the same queries whatever the club holds."""

import datetime

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from scoring.season.club_pages import ARCHIVE_PAGE
from tests.scoring.season.championship_helpers import championship, evening, people
from tournament.models import Club, Tournament

pytestmark = pytest.mark.django_db

TODAY = timezone.localdate()


def coming(name: str, club: Club, days: int, **fields) -> Tournament:
    fields.setdefault("is_public", True)
    return Tournament.objects.create(
        name=name, date=TODAY + datetime.timedelta(days=days), host_club=club, **fields
    )


def finished(name: str, club: Club, day: int, *, public: bool = True) -> Tournament:
    p = people(f"{name}-1", f"{name}-2", f"{name}-3", f"{name}-4")
    bilans = dict(zip(p.values(), (30, -10, -10, -10), strict=True))
    tournament = evening(name, day, [bilans])
    Tournament.objects.filter(pk=tournament.pk).update(host_club=club, is_public=public)
    tournament.refresh_from_db()
    return tournament


@pytest.fixture
def clubs():
    return Club.objects.create(name="Tarot Club Angevin"), Club.objects.create(
        name="Excuse Nantaise"
    )


def club_page(client, club, **params):
    response = client.get(reverse("public-club", args=[club.pk]), params)
    assert response.status_code == 200
    return response


def test_the_calendar_lists_coming_public_tournaments_with_sign_up_while_it_is_open(client, clubs):
    a, b = clubs
    open_ = coming("Open du dimanche", a, 7, signup_open=True)
    coming("Soirée sans inscription", a, 3)
    coming("Inscriptions closes", a, 10, signup_open=True,
           signup_closes_at=timezone.now() - datetime.timedelta(hours=1))  # fmt: skip
    coming("Interne privé", a, 5, signup_open=True, is_public=False)
    coming("Open de Nantes", b, 4, signup_open=True)
    coming("Ancien", a, -30)  # past
    response = club_page(client, a)
    calendar = [(item["tournament"].name, item["signup"]) for item in response.context["calendar"]]
    assert calendar == [
        ("Soirée sans inscription", False),
        ("Open du dimanche", True),
        ("Inscriptions closes", False),
    ]
    html = response.content.decode()
    assert html.count(reverse("signup", args=[open_.pk])) == 1
    assert "Interne privé" not in html and "Open de Nantes" not in html
    assert 'href="/inscription/' in html and html.count('href="/inscription/') == 1


def test_the_archive_lists_finished_public_tournaments_newest_first_paginated(client, clubs):
    a, b = clubs
    for day in range(1, ARCHIVE_PAGE + 3):
        finished(f"Soirée {day:02d}", a, day)
    finished("Secret du club", a, 25, public=False)
    finished("Soirée nantaise", b, 26)
    first = club_page(client, a)
    names = [t.name for t in first.context["archive"]]
    assert names == [f"Soirée {day:02d}" for day in range(ARCHIVE_PAGE + 2, 2, -1)]
    html = first.content.decode()
    newest = Tournament.objects.get(name=f"Soirée {ARCHIVE_PAGE + 2:02d}")
    assert reverse("public-tournament", args=[newest.pk]) in html
    assert 'href="?page=2"' in html
    second = club_page(client, a, page=2)
    assert [t.name for t in second.context["archive"]] == ["Soirée 02", "Soirée 01"]
    for response in (first, second):
        html = response.content.decode()
        assert "Secret du club" not in html and "Soirée nantaise" not in html


def test_the_club_lists_its_public_championships_only(client, clubs, arbiter):
    a, b = clubs
    shown = finished("Soirée", a, 1)
    ours = championship([shown], owner=arbiter, name="Challenge angevin", is_public=True)
    championship([shown], owner=arbiter, name="Challenge en préparation", is_public=False)
    theirs = championship([shown], owner=arbiter, name="Challenge nantais", is_public=True)
    type(ours).objects.filter(name__startswith="Challenge").update(host_club=a)
    type(ours).objects.filter(pk=theirs.pk).update(host_club=b)
    response = club_page(client, a)
    assert [c.name for c in response.context["championships"]] == ["Challenge angevin"]
    html = response.content.decode()
    assert reverse("public-championship", args=[ours.pk]) in html
    assert "Challenge en préparation" not in html and "Challenge nantais" not in html


def test_a_club_with_nothing_public_has_no_page_and_is_not_listed(client, clubs):
    a, b = clubs
    finished("Soirée publique", a, 1)
    finished("Interne", b, 2, public=False)
    coming("Interne à venir", b, 3, is_public=False, signup_open=True)
    assert client.get(reverse("public-club", args=[b.pk])).status_code == 404
    listing = client.get(reverse("public-clubs"))
    assert listing.status_code == 200
    assert [club.name for club in listing.context["clubs"]] == ["Tarot Club Angevin"]
    html = listing.content.decode()
    assert "Excuse Nantaise" not in html and "Interne" not in html
    assert reverse("public-club", args=[a.pk]) in html


def test_a_public_tournament_links_to_its_clubs_page(client, clubs):
    a, _b = clubs
    shown = finished("Soirée publique", a, 1)
    html = client.get(reverse("public-tournament", args=[shown.pk])).content.decode()
    assert reverse("public-club", args=[a.pk]) in html


def test_the_club_page_costs_the_same_queries_for_one_or_many_tournaments(client, clubs, arbiter):
    a, _b = clubs
    first = finished("Soirée 1", a, 1)
    coming("Open 1", a, 7, signup_open=True)
    championship([first], owner=arbiter, name="Challenge 1", is_public=True, host_club=a)
    url = reverse("public-club", args=[a.pk])
    with CaptureQueriesContext(connection) as one:
        assert client.get(url).status_code == 200
    for index in range(2, 5):
        more = finished(f"Soirée {index}", a, index)
        coming(f"Open {index}", a, 7 + index, signup_open=True)
        championship([more], owner=arbiter, name=f"Challenge {index}", is_public=True,
                     host_club=a)  # fmt: skip
    with CaptureQueriesContext(connection) as many:
        response = client.get(url)
    assert len(response.context["calendar"]) == 4 and len(response.context["championships"]) == 4
    assert len(many.captured_queries) == len(one.captured_queries)


def test_a_new_championship_belongs_to_its_creators_club(arbiter):
    from scoring.season.championships import championship_save

    shown = finished("Soirée", arbiter.club_memberships.get().club, 1)
    Tournament.objects.filter(pk=shown.pk).update(owner=arbiter)
    created = championship_save(
        user=arbiter, name="Challenge", season="2025-2026", tournaments=[shown], method="rank",
        scale=[3, 2, 1], floor=0, best_of=None, min_attendance=0, tie_breaks=[], is_public=True,
    )  # fmt: skip
    assert created.host_club == arbiter.club_memberships.get().club


def test_a_public_championship_links_to_its_clubs_page(client, clubs, arbiter):
    a, _b = clubs
    shown = finished("Soirée", a, 1)
    c = championship([shown], owner=arbiter, is_public=True, host_club=a)
    html = client.get(reverse("public-championship", args=[c.pk])).text
    assert reverse("public-club", args=[a.pk]) in html


def test_the_list_of_clubs_costs_the_same_queries_for_one_or_many_clubs(client):
    Tournament.objects.create(
        name="Open", date=TODAY, is_public=True, host_club=Club.objects.create(name="Club 1")
    )
    url = reverse("public-clubs")
    with CaptureQueriesContext(connection) as one:
        assert client.get(url).status_code == 200
    for index in range(2, 6):
        club = Club.objects.create(name=f"Club {index}")
        Tournament.objects.create(name="Open", date=TODAY, is_public=True, host_club=club)
    with CaptureQueriesContext(connection) as many:
        assert len(client.get(url).context["clubs"]) == 5
    assert len(many.captured_queries) == len(one.captured_queries)
