"""The arbiter's statistics over the club's season: every tournament of the season the arbiter
may see, players joined across tournaments by their roster entry."""

import datetime

import pytest
from django.urls import reverse

from tests.scoring.season.championship_helpers import evening, people
from tournament.models import Tournament

pytestmark = pytest.mark.django_db


def season_rows(html: str) -> list[str]:
    body = html.split('<table class="stats-table stats-players">', 1)[1].split("</tbody>", 1)[0]
    return [row for row in body.split("<tr>")[2:]]


def test_the_season_adds_every_visible_tournament_of_the_club_and_nothing_else(
    arbiter, arbiter_client, django_user_model
):
    p = people("ANNE", "BRUNO", "CÔTÉ", "DAVID")
    a, b, c, d = p["ANNE"], p["BRUNO"], p["CÔTÉ"], p["DAVID"]
    first = evening("Soirée 1", 5, [{a: 60, b: -20, c: -20, d: -20}], owner=arbiter)
    evening("Soirée 2", 12, [{a: -30, b: 90, c: -30, d: -30}], owner=arbiter)
    # Another season, and another arbiter's evening: neither counts.
    later = evening("Saison suivante", 19, [{a: 400, b: -400, c: 0, d: 0}], owner=arbiter)
    Tournament.objects.filter(pk=later.pk).update(date=datetime.date(2026, 9, 19))
    other = django_user_model.objects.create_user("autre", password="x")
    evening("Chez un autre", 26, [{a: 1000, b: -1000, c: 0, d: 0}], owner=other)

    html = arbiter_client.get(
        reverse("tournament-statistics", args=[first.pk]) + "?saison=1"
    ).content.decode()
    assert "Statistiques de la saison 2025-2026" in html
    assert "2 tournois" in html
    assert "Soirée 1" in html and "Soirée 2" in html
    assert "Saison suivante" not in html and "Chez un autre" not in html
    rows = season_rows(html)
    # Deal points over the season: BRUNO 70, ANNE 30, then CÔTÉ and DAVID at −50 in French order.
    names = [next(n for n in ("ANNE", "BRUNO", "CÔTÉ", "DAVID") if n in row) for row in rows]
    assert names == ["BRUNO", "ANNE", "CÔTÉ", "DAVID"]
    # Each played one deal per evening: two deals each.
    for row in rows:
        assert '<td class="num">2</td>' in row


def test_the_season_page_is_for_those_who_may_view_the_tournament(client, arbiter):
    p = people("ANNE", "BRUNO", "CÔTÉ", "DAVID")
    tournament = evening(
        "Soirée", 5, [dict(zip(p.values(), (30, -10, -10, -10), strict=True))], owner=arbiter
    )
    response = client.get(reverse("tournament-statistics", args=[tournament.pk]) + "?saison=1")
    assert response.status_code in (302, 403)


def test_the_season_page_costs_the_same_queries_for_one_or_three_evenings(
    arbiter, arbiter_client, django_assert_max_num_queries
):
    p = people("ANNE", "BRUNO", "CÔTÉ", "DAVID")
    bilans = dict(zip(p.values(), (30, -10, -10, -10), strict=True))
    first = evening("Soirée 1", 5, [bilans], owner=arbiter)
    url = reverse("tournament-statistics", args=[first.pk]) + "?saison=1"
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as one:
        assert arbiter_client.get(url).status_code == 200
    evening("Soirée 2", 12, [bilans], owner=arbiter)
    evening("Soirée 3", 19, [bilans, bilans], owner=arbiter)
    with django_assert_max_num_queries(len(one.captured_queries)):
        assert arbiter_client.get(url).status_code == 200


def two_clubs_one_visitor(arbiter, django_user_model):
    """Club A's public evening and club B's, both with the "club organisateur" line left blank,
    the same four roster players at both (B's arbiter invited A's as a scorer)."""
    from tests.club_helpers import join_club
    from tournament.models import TournamentRole

    p = people("ANNE", "BRUNO", "CÔTÉ", "DAVID")
    bilans = dict(zip(p.values(), (30, -10, -10, -10), strict=True))
    ours = evening("Soirée du club A", 5, [bilans], owner=arbiter)
    neighbour = django_user_model.objects.create_user("voisin", password="x")
    theirs = evening("Open du club B", 12, [bilans], owner=neighbour)
    club_a = arbiter.club_memberships.get().club
    club_b = join_club(neighbour, "Club B", "admin")
    Tournament.objects.filter(pk=ours.pk).update(host_club=club_a, club="", is_public=True)
    Tournament.objects.filter(pk=theirs.pk).update(host_club=club_b, club="", is_public=True)
    TournamentRole.objects.create(tournament=theirs, user=arbiter, role="scorer")
    return ours, p["ANNE"]


def test_a_players_public_season_counts_only_the_clubs_tournaments(
    client, arbiter, django_user_model
):
    """Both clubs leave the free "club organisateur" line blank: the season is still the host
    club's (issue 27: a player's page across the club's season, its tournaments only)."""
    ours, anne = two_clubs_one_visitor(arbiter, django_user_model)
    entry = ours.registrations.get(player=anne)
    html = client.get(
        reverse("public-player-statistics", args=[ours.pk, entry.pk])
    ).content.decode()
    assert "Soirée du club A" in html
    assert "Open du club B" not in html


def test_the_arbiters_season_counts_only_the_clubs_tournaments(
    arbiter, arbiter_client, django_user_model
):
    """An arbiter of club A who also scores club B's evening: A's season is A's tournaments."""
    ours, _anne = two_clubs_one_visitor(arbiter, django_user_model)
    html = arbiter_client.get(
        reverse("tournament-statistics", args=[ours.pk]) + "?saison=1"
    ).content.decode()
    assert "Soirée du club A" in html and "1 tournoi" in html
    assert "Open du club B" not in html
    # One deal each over the season, not two.
    for row in season_rows(html):
        assert '<td class="num">1</td>' in row


def test_the_season_is_the_host_clubs_not_the_printed_organisers(arbiter, arbiter_client):
    """An arbiter running evenings of two clubs that print the same organiser text: each
    club's season holds its own evenings only."""
    from tournament.models import Club

    p = people("ANNE", "BRUNO", "CÔTÉ", "DAVID")
    bilans = dict(zip(p.values(), (30, -10, -10, -10), strict=True))
    ours = evening("Soirée du club A", 5, [bilans], owner=arbiter)
    theirs = evening("Soirée du club B", 12, [bilans], owner=arbiter)
    Tournament.objects.filter(pk__in=[ours.pk, theirs.pk]).update(club="Comité de l'Anjou")
    Tournament.objects.filter(pk=ours.pk).update(host_club=Club.objects.create(name="Club A"))
    Tournament.objects.filter(pk=theirs.pk).update(host_club=Club.objects.create(name="Club B"))
    html = arbiter_client.get(
        reverse("tournament-statistics", args=[ours.pk]) + "?saison=1"
    ).content.decode()
    assert "Soirée du club A" in html and "Soirée du club B" not in html
