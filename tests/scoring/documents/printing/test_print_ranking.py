"""Printed rankings: individual, team and per position, checked against the scores in the DB."""

import re
from collections import defaultdict

import pytest
from django.db.models import Sum
from django.urls import reverse

from scoring.documents.printing import ranking_pdf
from scoring.models import DealScore, Incident
from tests.scoring.documents.printing.print_helpers import fetch_pdf, refused_to_anonymous
from tests.scoring.documents.printing.print_tournament import build_print_tournament
from tournament.models import Registration, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def data():
    return build_print_tournament()


def url(data, query=""):
    return reverse("print-ranking", args=[data.tournament.pk]) + query


def plain(text: str) -> str:
    return text.replace("\N{MINUS SIGN}", "-")


def db_totals(data, position=None) -> dict[int, int]:
    """Registration pk → deal points plus (negative) penalties, straight from the tables."""
    scores = DealScore.objects.filter(deal__sheet__tournament=data.tournament)
    incidents = Incident.objects.filter(tournament=data.tournament)
    if position is not None:
        scores = scores.filter(deal__sheet__table__position__number=position)
        incidents = incidents.filter(sheet__table__position__number=position)
    totals = defaultdict(int)
    for row in scores.values("registration").annotate(points=Sum("points")):
        totals[row["registration"]] += row["points"]
    for incident in incidents:
        totals[incident.registration_id] -= incident.penalty_points
    return totals


def competition_ranks(totals: dict) -> dict:
    """1, 2, 2, 4: equal totals share a rank."""
    ordered = sorted(totals.values(), reverse=True)
    return {key: ordered.index(total) + 1 for key, total in totals.items()}


def printed_line(text: str, name: str) -> tuple[int, int]:
    """The rank and the total printed on the line of `name`."""
    line = next(line for line in text.splitlines() if name in line)
    rank = int(re.match(r"(\d+)", line).group(1))
    total = int(line.split()[-1])
    return rank, total


def test_individual_ranking_matches_the_database(arbiter_client, data):
    reader, pages = fetch_pdf(arbiter_client, url(data))
    text = plain("\n".join(pages))
    assert "Classement individuel" in text and "Open de Chalon" in text
    assert re.search(r"Page 1 / \d+", text) and "Imprimé le" in text
    registrations = Registration.objects.filter(tournament=data.tournament).select_related("player")
    totals = {r.pk: db_totals(data).get(r.pk, 0) for r in registrations}
    ranks = competition_ranks(totals)
    for registration in registrations:
        printed = printed_line(text, registration.player.full_name)
        assert printed == (ranks[registration.pk], totals[registration.pk]), registration
    assert printed_line(text, "DUPONT Jacques") == (1, 1346)
    # Listed in rank order (players sharing a rank in any order).
    by_place = sorted(registrations, key=lambda r: text.index(r.player.full_name))
    assert [ranks[r.pk] for r in by_place] == sorted(ranks.values())


def test_team_ranking_sums_the_members(arbiter_client, data):
    _reader, pages = fetch_pdf(arbiter_client, url(data, "?kind=team"))
    text = plain("\n".join(pages))
    assert "Classement par équipes" in text
    totals = db_totals(data)
    teams = defaultdict(int)
    for registration in Registration.objects.filter(
        tournament=data.tournament, team__isnull=False
    ).select_related("team"):
        teams[registration.team.name] += totals.get(registration.pk, 0)
    ranks = competition_ranks(teams)
    for team, total in teams.items():
        line = next(line for line in text.splitlines() if re.match(rf"\d+ {team}\b", line))
        assert int(line.split()[0]) == ranks[team]
        assert int(line.split()[-1]) == total


def test_position_ranking_shows_each_bilan_at_that_position(arbiter_client, data):
    _reader, pages = fetch_pdf(arbiter_client, url(data, "?kind=position&position=1"))
    text = plain("\n".join(pages))
    assert "Résultats de la position 1" in text
    totals = db_totals(data, position=1)
    seated = {
        r.pk: r
        for r in Registration.objects.filter(scores__deal__sheet__table__position__number=1)
        .distinct()
        .select_related("player")
    }
    ranks = competition_ranks({pk: totals.get(pk, 0) for pk in seated})
    for pk, registration in seated.items():
        assert printed_line(text, registration.player.full_name) == (ranks[pk], totals[pk])
    assert printed_line(text, data.penalised.player.full_name)[1] == totals[data.penalised.pk]
    assert "ROBERT Jean" not in text  # table 3 has no sheet at position 1


def test_the_qr_code_leads_to_the_public_standings(arbiter_client, data, monkeypatch):
    # Only a public tournament has public standings to lead to (test_print_standings_qr.py).
    Tournament.objects.filter(pk=data.tournament.pk).update(is_public=True)
    encoded = []
    monkeypatch.setattr(ranking_pdf, "qr_svg", lambda url: encoded.append(url) or "<svg></svg>")
    fetch_pdf(arbiter_client, url(data))
    assert encoded == [
        "http://testserver" + reverse("public-tournament", args=[data.tournament.pk])
    ]


@pytest.mark.parametrize("query", ["?kind=club", "?kind=position", "?kind=position&position=9"])
def test_bad_queries_are_a_404(arbiter_client, data, query):
    assert arbiter_client.get(url(data, query)).status_code == 404


def test_rankings_are_not_printed_for_anonymous_visitors(client, data):
    assert refused_to_anonymous(client, url(data))
