"""The arbiter's report as a PDF (issue 40): read back with pypdf, its figures are the desk's
records (incidents and penalties, adjusted scores, withdrawals and late arrivals, calls, the
ranking's totals and licences); for the tournament's staff only; a fixed number of queries."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.club_helpers import join_club
from tests.report_builders import build_tournament
from tests.scoring.documents.printing.print_helpers import fetch_pdf, refused_to_anonymous
from tests.scoring.documents.report_tournament import (
    ADJUSTMENT_REASON,
    FORMULA_DECISION,
    adjusted_seats,
    build_report_tournament,
    competition_ranks,
    desk_totals,
    recorded_incidents,
)
from tournament.models import Registration, TournamentRole

pytestmark = pytest.mark.django_db
# What pypdf reads after each incident's decision: its note, who recorded it and when, then
# the penalty points (the kinds' notes are "Note <kind>" in the fixture).
INCIDENT_END = re.compile(r" Note (\w+) \S+, \d\d:\d\d (\d+)")


def url(tournament) -> str:
    return reverse("print-arbiter-report", args=[tournament.pk])


def flat(text: str) -> str:
    """pypdf's text on one line, with the printed minus sign as an ASCII hyphen: a wrapped cell
    reads as one phrase."""
    return " ".join(text.replace("\N{MINUS SIGN}", "-").split())


def section(text: str, title: str, following: str) -> str:
    start = text.index(title) + len(title)
    return text[start : text.index(following, start)]


@pytest.fixture
def built(arbiter):
    return build_report_tournament(arbiter)


@pytest.fixture
def report_text(arbiter_client, built) -> str:
    _reader, pages = fetch_pdf(arbiter_client, url(built["tournament"]))
    return flat("\n".join(pages))


def test_the_header_names_the_tournament_its_club_and_its_arbiters(report_text):
    for expected in (
        "Rapport de l'arbitre",
        "Tournoi test",
        "1 mars 2025",
        "Salle Jean Moulin",
        "Club de Tarot de Chalon",
        "Formule Individuel",
        "Règlement FFT officiel",
        "Positions tirées / prévues 2 / 3",
        "arbitre-test Arbitre responsable",
        "Claude VIGNAL Co-arbitre",
        "Lise ROCHE Marqueur",
    ):
        assert expected in report_text, expected
    assert "provisoire" not in report_text  # every position closed: the ranking is final


def test_the_field_lists_every_player_with_licence_and_club(report_text, built):
    field = section(report_text, "Les joueurs", "Positions et donnes jouées")
    for registration in Registration.objects.filter(tournament=built["tournament"]):
        player = registration.player
        line = f"{registration.number} {player.full_name} {player.licence}"
        assert line in field, line
        assert player.club in field


def test_positions_deals_withdrawals_and_late_arrivals(report_text, built):
    positions = section(report_text, "Positions et donnes jouées", "À confirmer : donnes")
    # Position 1: 2 + 1 deals, one adjusted; position 2: 1 + 1, one cancelled by the petit sec.
    assert "1 Close 2 3 0 0 1 0" in positions
    assert "2 Close 2 2 0 1 0 0" in positions
    late = Registration.objects.select_related("player").get(pk=built["registrations"]["J"].pk)
    withdrawn = Registration.objects.select_related("player").get(pk=built["withdrawn"].pk)
    assert withdrawn.withdrawn_after == 2 and late.first_position == 3
    changes = section(report_text, "Forfaits et arrivées en retard", "Incidents et pénalités")
    assert (
        f"{withdrawn.number} {withdrawn.player.full_name} {withdrawn.player.licence} "
        "Forfait après la position 2"
    ) in changes
    assert f"{late.player.full_name} {late.player.licence} Dijon Arrivée à la position 3" in changes


def test_every_incident_with_its_rule_decision_and_penalty(report_text, built):
    incidents_part = report_text[report_text.index("Incidents et pénalités") :]
    text = section(incidents_part, "Décision Pénalité", "Total des points de pénalité")
    incidents = recorded_incidents(built["tournament"])
    assert len(incidents) == 12  # every kind
    ends = list(INCIDENT_END.finditer(text))
    assert [m.group(1) for m in ends] == [incident.kind for incident in incidents]
    start = 0
    for number, (incident, end) in enumerate(zip(incidents, ends, strict=True), start=1):
        row = text[start : end.start()]
        start = end.end()
        assert int(end.group(2)) == incident.penalty_points, incident.kind
        assert incident.registration.player.licence in row
        assert incident.registration.player.full_name in row
        assert incident.get_kind_display() in row
        assert incident.decision in row
        table = incident.sheet.table if incident.sheet else None
        where = f"P{table.position.number} T{table.number}" if table else "tournoi"
        assert row.strip().startswith(f"{number} {where}"), (row, where)
        share = "répartie entre les autres joueurs" if incident.shared else "à la charge du fautif"
        assert share in row or not incident.penalty_points
        rule = {
            "fausse_donne": "Règlement FFT : le même donneur redistribue",
            "renonce_defence": "Règlement FFT : le fautif ne peut pas enchérir à la donne suivante",
            "petit_sec": "Règlement FFT : la donne est annulée et redistribuée",
            "hors_tour": "Barème du tournoi : 20 points",
        }.get(incident.kind, "Code d'arbitrage FFT : montant fixé par l'arbitre")
        assert rule in row, incident.kind
    total = sum(incident.penalty_points for incident in incidents)
    assert f"Total des points de pénalité {total}" in report_text
    assert FORMULA_DECISION in text


def test_adjusted_scores_with_their_reason(report_text, built):
    text = section(report_text, "Scores arbitraux", "Appels de l'arbitre")
    seats = adjusted_seats(built["tournament"])
    assert len(seats) == 5
    for licence, computed, adjusted, reason in seats:
        printed = re.search(rf"{licence} ([+-]?\d+) ([+-]?\d+) (.+?)(?= P\d| JOUEUR|$)", text)
        assert printed, licence
        assert (int(printed.group(1)), int(printed.group(2))) == (computed, adjusted)
        assert printed.group(3).startswith(reason) and reason == ADJUSTMENT_REASON


def test_calls_for_the_arbiter(report_text, built):
    text = section(report_text, "Appels de l'arbitre", "Classement final")
    taken, waiting = built["calls"]
    assert re.search(r"P2 T1 D2 Poignée contestée \d\d:\d\d \d\d:\d\d \(arbitre-test\)", text)
    assert re.search(r"P2 T2 Question sur une renonce \d\d:\d\d non pris en charge", text)
    assert taken.taken_at is not None and waiting.taken_at is None


def test_the_ranking_totals_and_licences_are_the_desks(report_text, built):
    text = section(report_text, "Classement final", "Signatures")
    tournament = built["tournament"]
    totals = desk_totals(tournament)
    ranks = competition_ranks(totals)
    for registration in Registration.objects.filter(tournament=tournament).select_related("player"):
        licence = registration.player.licence
        printed = re.search(
            rf"(\d+)(?: ex)? {registration.number} {re.escape(registration.player.full_name)} "
            rf"{licence} .*?([+-]?\d+) ([+-]?\d+) ([+-]?\d+)(?= \d+ | ?$)",
            text,
        )
        assert printed, registration
        assert int(printed.group(1)) == ranks[registration.pk], registration
        assert int(printed.group(4)) == totals[registration.pk], registration
        # deal points and penalties add up to the total printed
        assert int(printed.group(2)) + int(printed.group(3)) == int(printed.group(4))


def test_room_for_the_signatures(report_text):
    text = report_text[report_text.index("Signatures") :]
    for expected in ("Arbitre responsable arbitre-test", "Co-arbitre Claude VIGNAL"):
        assert expected in text
    assert "Visa du comité ou de la ligue" in text
    assert "Marqueur" not in text  # a scorer does not sign the report


def test_a_tournament_with_nothing_recorded_still_has_its_report(arbiter_client, arbiter):
    from tournament.models import Tournament

    tournament = Tournament.objects.create(name="Tournoi vide", date="2026-11-28")
    _reader, pages = fetch_pdf(arbiter_client, url(tournament))
    text = flat("\n".join(pages))
    assert "Aucun incident." in text and "Aucun score arbitral." in text
    assert "Aucun appel." in text and "Aucun forfait ni retard." in text


def test_only_the_tournaments_staff_get_the_report(client, built, django_user_model):
    tournament = built["tournament"]
    csv_url = reverse("print-arbiter-report-csv", args=[tournament.pk])
    assert refused_to_anonymous(client, url(tournament))
    assert refused_to_anonymous(client, csv_url)
    other = django_user_model.objects.create_user("arbitre-autre-club")
    join_club(other, name="Autre club", role="admin")
    client.force_login(other)
    assert client.get(url(tournament)).status_code == 403
    assert client.get(csv_url).status_code == 403
    scorer = TournamentRole.objects.get(tournament=tournament, role="scorer").user
    client.force_login(scorer)
    fetch_pdf(client, url(tournament))  # a real PDF, for the staff
    assert client.get(csv_url).status_code == 200


def test_the_print_page_links_to_the_report(arbiter_client, built):
    tournament = built["tournament"]
    page = arbiter_client.get(reverse("print-index", args=[tournament.pk])).content.decode()
    assert f'href="{url(tournament)}"' in page
    assert f'href="{reverse("print-arbiter-report-csv", args=[tournament.pk])}"' in page


def queries_of(client: Client, path: str) -> int:
    with CaptureQueriesContext(connection) as captured:
        response = client.get(path)
    assert response.status_code == 200
    return len(captured)


def test_the_report_reads_a_fixed_number_of_queries(
    arbiter_client, built, django_assert_max_num_queries
):
    """The tournament with every kind of record costs the same queries as a bare one."""
    full = built["tournament"]
    bare = build_tournament(venue="Salle", club="Club de Tarot de Chalon")["tournament"]
    for name in ("print-arbiter-report", "print-arbiter-report-csv"):
        small = queries_of(arbiter_client, reverse(name, args=[bare.pk]))
        with django_assert_max_num_queries(small):
            arbiter_client.get(reverse(name, args=[full.pk]))
        assert small <= 20, small
