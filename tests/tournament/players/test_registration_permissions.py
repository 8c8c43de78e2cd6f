"""The public sees none of the desk; scorers read plans and lists but change nothing."""

import pytest
from django.urls import reverse

from tournament.models import Player, Position, Registration, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def tournament():
    tournament = Tournament.objects.create(name="Open", date="2026-11-21", format="duo")
    tournament.registrations.create(player=Player.objects.create(last_name="Martin"), number=1)
    Position.objects.create(tournament=tournament, number=1)
    return tournament


def read_urls(t):
    entry = t.registrations.get()
    return [
        reverse("tournament-list"),
        reverse("tournament-detail", args=[t.pk]),
        reverse("player-list", args=[t.pk]),
        reverse("team-list", args=[t.pk]),
        reverse("position-list", args=[t.pk]),
        reverse("position-detail", args=[t.pk, 1]),
        reverse("position-who-sits-where", args=[t.pk, 1]),
        reverse("player-itinerary", args=[t.pk, entry.pk]),
    ]


def write_requests(t):
    entry = t.registrations.get()
    return [
        ("get", reverse("tournament-create"), {}),
        ("post", reverse("tournament-create"), {"name": "X", "date": "2026-01-01"}),
        ("post", reverse("tournament-edit", args=[t.pk]), {"name": "X"}),
        ("post", reverse("player-register", args=[t.pk]), {"last_name": "Intrus"}),
        ("get", reverse("player-search") + "?q=mar", {}),
        ("post", reverse("player-import", args=[t.pk]), {"confirm": "1"}),
        ("post", reverse("registration-withdraw", args=[t.pk, entry.pk]), {}),
        ("post", reverse("team-assign", args=[t.pk]), {"name": "T", "members": [entry.pk]}),
    ]


def assert_unchanged(t):
    t.refresh_from_db()
    assert t.name == "Open"
    assert Tournament.objects.count() == 1
    assert Player.objects.count() == 1
    assert t.registrations.get().status == Registration.Status.ACTIVE
    assert not t.teams.exists()


def test_anonymous_users_are_sent_to_the_login_page(client, tournament):
    for url in read_urls(tournament):
        response = client.get(url)
        assert response.status_code == 302 and "/connexion/" in response.url, url
    for method, url, data in write_requests(tournament):
        response = getattr(client, method)(url, data)
        assert response.status_code == 302 and "/connexion/" in response.url, url
    assert_unchanged(tournament)


def test_scorers_read_the_plans_but_change_nothing(client, scorer, tournament):
    client.force_login(scorer)
    for url in read_urls(tournament):
        assert client.get(url).status_code == 200, url
    for method, url, data in write_requests(tournament):
        assert getattr(client, method)(url, data).status_code == 403, url
    assert_unchanged(tournament)
    assert "Forfait" not in client.get(reverse("player-list", args=[tournament.pk])).text
