"""The statistics pages: a player's (public, published and confirmed deals only, the season's
public tournaments of the same club) and the arbiter's for a whole tournament."""

import datetime
import xml.etree.ElementTree as ET

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring.models import Deal, DealScore
from scoring.sheets.generate import GenerateOptions, tournament_generate
from tournament.models import Player, Position, Registration, Tournament

pytestmark = pytest.mark.django_db


def generate(name: str, day: datetime.date, *, players: int = 13, public: bool = True, **kw):
    tournament = tournament_generate(
        options=GenerateOptions(
            players=players, positions=3, deals=4, name=name, public=public, **kw
        )
    )
    Tournament.objects.filter(pk=tournament.pk).update(date=day)
    tournament.refresh_from_db()
    return tournament


def same_person_plays(tournament: Tournament, player: Player) -> Registration:
    """The roster player takes number 1's place in another tournament."""
    registration = Registration.objects.get(tournament=tournament, number=1)
    registration.player = player
    registration.save()
    return registration


def page(tournament: Tournament, registration: Registration) -> str:
    return reverse("public-player-statistics", args=[tournament.pk, registration.pk])


def first(tournament: Tournament) -> Registration:
    return Registration.objects.select_related("player").get(tournament=tournament, number=1)


def season_names(response) -> list[str]:
    return [row["tournament"].name for row in response.context["rows"]]


def test_the_players_page_shows_their_game_in_french_with_charts(client):
    tournament = generate("Open de mars", datetime.date(2025, 3, 15))
    entry = first(tournament)
    response = client.get(page(tournament, entry))
    assert response.status_code == 200
    html = response.content.decode()
    for text in (
        "Statistiques",
        "Prises par donne",
        "Contrats réussis",
        "Garde contre",
        "Associé (à 5)",
        "Petits au bout (menés / perdus)",
        "Saison 2024-2025",
        "Points par position",
    ):
        assert text in html, text
    played = DealScore.objects.filter(registration=entry, deal__cancelled=False).count()
    assert response.context["here"]["stats"].deals == played > 0
    assert response.context["season"]["stats"].deals == played
    charts = [part.split("</svg>")[0] + "</svg>" for part in html.split("<svg")[1:] if part.strip()]
    assert len(charts) == 4
    for chart in charts:
        root = ET.fromstring("<svg" + chart)
        assert root.get("role") == "img" and entry.player.full_name in root.get("aria-label")


def test_pending_phone_deals_and_unpublished_positions_never_count(client):
    tournament = generate("Open en cours", datetime.date(2025, 3, 15), finished=False)
    entry = first(tournament)
    Position.objects.filter(tournament=tournament, number=3).update(status=Position.Status.DRAFT)
    pending = Deal.objects.filter(
        sheet__table__position__number=1, sheet__players__registration=entry
    ).first()
    pending.pending = True
    pending.save()
    counted = sum(
        1
        for score in DealScore.objects.filter(registration=entry).select_related(
            "deal__sheet__table__position"
        )
        if not score.deal.pending and score.deal.sheet.table.position.number != 3
    )
    response = client.get(page(tournament, entry))
    assert response.context["here"]["stats"].deals == counted
    assert counted < DealScore.objects.filter(registration=entry).count()


def test_a_private_tournaments_player_is_not_found_by_anonymous_visitors(client, arbiter):
    hidden = generate("Tournoi privé", datetime.date(2025, 2, 1), public=False)
    entry = first(hidden)
    assert client.get(page(hidden, entry)).status_code == 404
    client.force_login(arbiter)
    assert client.get(page(hidden, entry)).status_code == 200


def test_a_registration_of_another_tournament_is_not_found(client):
    one = generate("Un", datetime.date(2025, 3, 1))
    two = generate("Deux", datetime.date(2025, 3, 8))
    assert client.get(page(one, first(two))).status_code == 404


def test_the_season_holds_the_same_persons_public_tournaments(client, arbiter):
    march = generate("Open de mars", datetime.date(2025, 3, 15))
    entry = first(march)
    person = entry.player
    january = generate("Interne de janvier", datetime.date(2025, 1, 10), public=False)
    same_person_plays(january, person)
    september = generate("Rentrée", datetime.date(2024, 9, 1))
    same_person_plays(september, person)
    next_season = generate("Open de septembre", datetime.date(2025, 9, 1))
    same_person_plays(next_season, person)
    generate("Sans lui", datetime.date(2025, 4, 1))

    response = client.get(page(march, entry))
    assert season_names(response) == ["Rentrée", "Open de mars"]
    html = response.content.decode()
    assert "Interne de janvier" not in html and "Open de septembre" not in html
    deals = DealScore.objects.filter(registration__player=person, deal__cancelled=False)
    assert (
        response.context["season"]["stats"].deals
        == deals.filter(registration__tournament__in=[march, september]).count()
    )
    # Ranks come with each tournament.
    assert all(row["ranked"] is not None for row in response.context["rows"])

    client.force_login(arbiter)  # owns every generated tournament: a public page still hides
    response = client.get(page(march, entry))  # the private one (the arbiter's season has it)
    assert season_names(response) == ["Rentrée", "Open de mars"]


def test_the_players_page_asks_as_many_queries_over_one_or_four_tournaments(client):
    march = generate("Open de mars", datetime.date(2025, 3, 15))
    entry = first(march)
    with CaptureQueriesContext(connection) as one:
        assert client.get(page(march, entry)).status_code == 200
    for index, day in enumerate((datetime.date(2024, 10, 5), datetime.date(2025, 5, 3))):
        other = generate(f"Autre {index}", day, players=22)
        same_person_plays(other, entry.player)
    with CaptureQueriesContext(connection) as three:
        response = client.get(page(march, entry))
    assert len(response.context["rows"]) == 3
    assert len(three) == len(one)


def test_the_arbiter_sees_every_players_figures_and_the_totals(arbiter_client):
    tournament = generate("Open de mars", datetime.date(2025, 3, 15))
    response = arbiter_client.get(reverse("tournament-statistics", args=[tournament.pk]))
    assert response.status_code == 200
    html = response.content.decode()
    for text in ("Statistiques du tournoi", "Par joueur", "Par club", "Total", "Prises par donne"):
        assert text in html, text
    players = response.context["players"]
    assert len(players) == 13
    total = response.context["total"]["stats"]
    assert (
        total.deals
        == DealScore.objects.filter(
            registration__tournament=tournament, deal__cancelled=False
        ).count()
        - Deal.objects.filter(sheet__tournament=tournament, dead__isnull=False).count()
    )
    assert (
        total.takes
        == Deal.objects.filter(
            sheet__tournament=tournament, taker__isnull=False, passed=False
        ).count()
    )
    assert sum(p["stats"].takes for p in players) == total.takes
    assert total.points == 0  # zero-sum game
    assert (
        reverse("public-player-statistics", args=[tournament.pk, players[0]["registration"]])
        in html
    )


def test_the_tournament_page_asks_as_many_queries_at_13_and_40_players(
    arbiter_client, django_assert_max_num_queries
):
    small = generate("Petit", datetime.date(2025, 3, 15))
    with CaptureQueriesContext(connection) as captured:
        assert (
            arbiter_client.get(reverse("tournament-statistics", args=[small.pk])).status_code == 200
        )
    large = generate("Grand", datetime.date(2025, 3, 22), players=40)
    with django_assert_max_num_queries(len(captured)):
        response = arbiter_client.get(reverse("tournament-statistics", args=[large.pk]))
    assert len(response.context["players"]) == 40


def test_the_tournament_page_is_for_its_arbiters_only(client, django_user_model):
    tournament = generate("Open de mars", datetime.date(2025, 3, 15))
    url = reverse("tournament-statistics", args=[tournament.pk])
    response = client.get(url)
    assert response.status_code == 302 and response["Location"].startswith("/connexion/")
    client.force_login(django_user_model.objects.create_user("curieux", password="pw-curieux-1"))
    assert client.get(url).status_code == 403


def test_the_public_player_page_and_the_arbiters_ranking_link_to_the_statistics(arbiter_client):
    tournament = generate("Open de mars", datetime.date(2025, 3, 15))
    entry = first(tournament)
    public = arbiter_client.get(reverse("public-player", args=[tournament.pk, entry.pk]))
    assert page(tournament, entry) in public.content.decode()
    ranking = arbiter_client.get(reverse("ranking", args=[tournament.pk]))
    assert reverse("tournament-statistics", args=[tournament.pk]) in ranking.content.decode()
    player = arbiter_client.get(reverse("ranking-player", args=[tournament.pk, entry.pk]))
    assert page(tournament, entry) in player.content.decode()
