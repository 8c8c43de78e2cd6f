"""The arbiter's report's figures as CSV (issue 40): read back, each block equals the desk's
records; numbers stay numbers, text never becomes a formula."""

from __future__ import annotations

import csv
import io

import pytest
from django.urls import reverse

from tests.scoring.documents.report_tournament import (
    ADJUSTMENT_REASON,
    FORMULA_CLUB,
    FORMULA_DECISION,
    adjusted_seats,
    build_report_tournament,
    competition_ranks,
    desk_totals,
    recorded_incidents,
)
from tournament.models import Registration

pytestmark = pytest.mark.django_db


def number(field: str) -> int | None:
    """A numeric field as a spreadsheet reads it: a plain integer, never quoted text."""
    return None if field == "" else int(field)


@pytest.fixture
def built(arbiter):
    return build_report_tournament(arbiter)


@pytest.fixture
def blocks(arbiter_client, built) -> dict[str, list[dict[str, str]]]:
    """Each block of the CSV by its title: its rows as dicts keyed by the column headings."""
    response = arbiter_client.get(
        reverse("print-arbiter-report-csv", args=[built["tournament"].pk])
    )
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    assert response["Content-Disposition"].endswith('.csv"')
    text = response.content.decode("utf-8")
    assert text.startswith("\ufeff")
    rows = list(csv.reader(io.StringIO(text[1:]), delimiter=";"))
    found: dict[str, list[dict[str, str]]] = {}
    index = 0
    while index < len(rows):
        title, header = rows[index][0], rows[index + 1]
        index += 2
        found[title] = []
        while index < len(rows) and rows[index]:
            found[title].append(dict(zip(header, rows[index], strict=True)))
            index += 1
        index += 1  # the empty line between blocks
    return found


def test_the_blocks_of_the_report(blocks):
    assert list(blocks) == [
        "Tournoi",
        "Arbitrage",
        "Joueurs",
        "Positions et donnes jouées",
        "Incidents et pénalités",
        "Scores arbitraux",
        "Appels de l'arbitre",
        "Classement final",
    ]
    identity = {row["Rubrique"]: row["Valeur"] for row in blocks["Tournoi"]}
    assert identity["Date"] == "01/03/2025" and identity["Lieu"] == "Salle Jean Moulin"
    assert identity["Club organisateur"] == "Club de Tarot de Chalon"
    assert identity["Règlement"] == "FFT officiel" and identity["Classement"] == "définitif"
    assert [(row["Nom"], row["Rôle"]) for row in blocks["Arbitrage"]] == [
        ("arbitre-test", "Arbitre responsable"),
        ("Claude VIGNAL", "Co-arbitre"),
        ("Lise ROCHE", "Marqueur"),
    ]


def test_the_field_with_licences_withdrawals_and_late_arrivals(blocks, built):
    registrations = Registration.objects.filter(tournament=built["tournament"]).select_related(
        "player"
    )
    printed = {number(row["N°"]): row for row in blocks["Joueurs"]}
    assert set(printed) == {r.number for r in registrations}
    for registration in registrations:
        row = printed[registration.number]
        assert row["Nom Prénom"] == registration.player.full_name
        assert row["Licence"] == registration.player.licence
        assert number(row["Arrivé à la position"]) == registration.first_position
        assert number(row["Forfait après la position"]) == registration.withdrawn_after
    # The formula in a club's name is kept inert: a leading quote, the text unchanged after it.
    assert printed[4]["Club"] == "'" + FORMULA_CLUB
    assert number(printed[7]["Forfait après la position"]) == 2  # G withdrew
    assert number(printed[10]["Arrivé à la position"]) == 3  # J came late


def test_positions_and_deals(blocks):
    assert [{k: v for k, v in row.items() if k != "État"} for row in blocks[
        "Positions et donnes jouées"
    ]] == [
        {"Position": "1", "Tables": "2", "Donnes": "3", "Passes": "0", "Annulées": "0",
         "Scores arbitraux": "1", "À confirmer": "0"},
        {"Position": "2", "Tables": "2", "Donnes": "2", "Passes": "0", "Annulées": "1",
         "Scores arbitraux": "0", "À confirmer": "0"},
    ]  # fmt: skip


def test_every_incident_equals_the_desks_record(blocks, built):
    incidents = recorded_incidents(built["tournament"])
    printed = blocks["Incidents et pénalités"]
    assert len(printed) == len(incidents) == 12
    for row, incident in zip(printed, incidents, strict=True):
        table = incident.sheet.table if incident.sheet else None
        assert number(row["Position"]) == (table.position.number if table else None)
        assert number(row["Table"]) == (table.number if table else None)
        assert number(row["Donne"]) == incident.deal_number
        assert row["Licence"] == incident.registration.player.licence
        assert row["Joueur"] == incident.registration.player.full_name
        assert row["Faute"] == incident.get_kind_display()
        assert number(row["Pénalité"]) == incident.penalty_points
        assert row["Répartie"] == ("oui" if incident.shared else "non")
        assert row["Note"] == incident.note
        decision = incident.decision
        assert row["Décision"] == ("'" + decision if decision == FORMULA_DECISION else decision)
        assert row["Règle appliquée"]
    rules = {row["Faute"]: row["Règle appliquée"] for row in printed}
    assert rules["Jeu hors tour"].startswith("Barème du tournoi : 20 points")
    assert rules["Petit sec"] == "Règlement FFT : la donne est annulée et redistribuée"
    assert rules["Carte exposée"].endswith("répartie entre les autres joueurs de la table")


def test_adjusted_scores_with_their_reason(blocks, built):
    printed = [
        (row["Licence"], number(row["Calculé"]), number(row["Arbitral"]), row["Motif"])
        for row in blocks["Scores arbitraux"]
    ]
    assert printed == adjusted_seats(built["tournament"])
    assert {row[3] for row in printed} == {ADJUSTMENT_REASON}
    assert any(row[1] < 0 for row in printed)  # negative scores stay numbers


def test_calls_for_the_arbiter(blocks, built):
    taken, waiting = built["calls"]
    rows = blocks["Appels de l'arbitre"]
    assert [(number(r["Position"]), number(r["Table"]), number(r["Donne"]), r["Message"])
            for r in rows] == [
        (2, taken.table.number, 2, "Poignée contestée"),
        (2, waiting.table.number, None, "Question sur une renonce"),
    ]  # fmt: skip
    assert rows[0]["Pris en charge par"] == "arbitre-test" and rows[0]["Pris en charge le"]
    assert rows[1]["Pris en charge le"] == ""


def test_the_ranking_equals_the_desks_totals_with_licences(blocks, built):
    tournament = built["tournament"]
    totals = desk_totals(tournament)
    ranks = competition_ranks(totals)
    by_number = {
        r.number: r
        for r in Registration.objects.filter(tournament=tournament).select_related("player")
    }
    rows = blocks["Classement final"]
    assert len(rows) == len(by_number)
    for row in rows:
        registration = by_number[number(row["N°"])]
        assert row["Licence"] == registration.player.licence
        assert number(row["Total"]) == totals[registration.pk]
        assert number(row["Rang"]) == ranks[registration.pk]
        assert (
            number(row["Points des donnes"]) + number(row["Pénalités"]) == totals[registration.pk]
        )
    assert [number(row["Total"]) for row in rows] == sorted(totals.values(), reverse=True)
