"""The event's rankings as XLSX, CSV and PDF, per session (every bracket) and per bracket, in
the session's order or the cumulative one: read back, each names the carry-over and the cut,
and its figures are the hand-computed ones (half of session 1 carried, plus session 2)."""

import csv
import io

import pytest
from django.urls import reverse
from openpyxl import load_workbook

from scoring.events.cuts import cut_preview
from scoring.events.wording import cut_text
from tests.scoring.documents.printing.print_helpers import fetch_pdf
from tests.scoring.events.event_helpers import new_event, play, seat
from tests.scoring.events.venue_helpers import TOTALS_1, cut_event, session_2_scores
from tournament.models import Cut

pytestmark = pytest.mark.django_db

CARRY = "Report : 50 % du cumul des séances précédentes"
CUT = "Qualifiés : les 4 premiers (coupe après la séance 1)"


@pytest.fixture
def played(arbiter, client):
    result = cut_event(arbiter)
    expected = session_2_scores(result)
    client.force_login(arbiter)
    return result, expected


def url(result, kind, fmt, bracket=None):
    if bracket is None:
        return reverse("event-session-document", args=[result.event.pk, 2, kind, fmt])
    return reverse("event-bracket-document", args=[result.event.pk, bracket.pk, kind, fmt])


def test_the_xlsx_has_a_sheet_per_bracket_naming_cut_and_carry_with_the_totals(played, client):
    result, expected = played
    response = client.get(url(result, "cumul", "xlsx"))
    assert response["Content-Disposition"].endswith('-seance-2-cumul.xlsx"')
    workbook = load_workbook(io.BytesIO(response.content))
    assert workbook.sheetnames == ["Tableau principal", "Consolante"]
    main = [list(row) for row in workbook["Tableau principal"].iter_rows(values_only=True)]
    title = "Championnat — 09/05/2026 — Classement cumulé après la séance 2 — Tableau principal"
    assert main[0][0] == title
    assert main[1][0] == CUT and main[2][0] == CARRY
    assert main[3][:3] == ["Rang cumulé", "Rang séance", "N°"]
    lines = {row[3]: row for row in main[4:]}
    # P5: 33 in session 1, half of it carried (16.5), 45 in session 2: 61.5, ranked first.
    assert lines["P5 Jo"][6:] == [45, 16.5, 61.5] and lines["P5 Jo"][0] == 1
    assert {name.split()[0]: row[8] for name, row in lines.items()} == {
        n: float(expected[n]) for n in ("P1", "P2", "P5", "P7")
    }
    consolante = list(workbook["Consolante"].iter_rows(values_only=True))
    assert consolante[1][0].startswith("Consolante : les non-qualifiés de la coupe après")
    totals = {row[3].split()[0]: (row[7], row[8]) for row in consolante[4:]}
    assert totals["P3"] == (TOTALS_1["P3"] / 2, float(expected["P3"]))


def test_the_csv_in_the_sessions_order_parses_with_every_bracket(played, client):
    result, expected = played
    response = client.get(url(result, "seance", "csv"))
    assert response["Content-Type"].startswith("text/csv")
    text = response.content.decode("utf-8-sig")
    rows = list(csv.reader(io.StringIO(text), delimiter=";"))
    assert rows[0] == ["Championnat — 09/05/2026 — Classement de la séance 2"]
    assert rows[1] == ["Tableau principal", CUT, CARRY]
    assert rows[2][0] == "Consolante" and rows[2][2] == CARRY
    heading = rows[4]
    assert heading[:3] == ["Tableau", "Rang séance", "Rang cumulé"]
    lines = [dict(zip(heading, row, strict=True)) for row in rows[5:]]
    assert [line["Tableau"] for line in lines] == ["Tableau principal"] * 4 + ["Consolante"] * 4
    main = [line for line in lines if line["Tableau"] == "Tableau principal"]
    # The session's order: P5 45, P1 29, P7 21, P2 −95 (session 2 alone).
    assert [line["Joueur"] for line in main] == ["P5 Jo", "P1 Jo", "P7 Jo", "P2 Jo"]
    assert [line["Rang séance"] for line in main] == ["1", "2", "3", "4"]
    p1 = main[1]
    cumul = str(float(expected["P1"])).replace(".", ",")
    # French decimal comma, as a French spreadsheet reads semicolon-separated fields.
    assert (p1["Séance"], p1["Report"], p1["Cumul"]) == ("29", "14,5", cumul)


def test_the_pdf_of_one_bracket_names_its_cut_and_carry_and_prints_the_totals(played, client):
    result, expected = played
    _reader, pages = fetch_pdf(client, url(result, "cumul", "pdf", result.main))
    text = " ".join(" ".join(page.split()) for page in pages)
    assert "Classement cumulé après la séance 2" in text
    assert CUT in text and CARRY in text
    assert "Consolante" not in text  # one bracket only
    assert expected["P5"] == 61.5
    assert "P5 Jo" in text and "61,50" in text and "16,50" in text


def test_a_stranger_and_anonymous_get_no_document(arbiter, client, django_user_model):
    result = cut_event(arbiter)
    for kind, fmt in (("cumul", "xlsx"), ("seance", "csv"), ("cumul", "pdf")):
        address = url(result, kind, fmt)
        assert client.get(address)["Location"].startswith("/connexion/")
    client.force_login(django_user_model.objects.create_user("voisin", password="pw-v-1"))
    assert client.get(url(result, "cumul", "xlsx")).status_code == 403
    client.force_login(arbiter)
    assert client.get(url(result, "autre", "xlsx")).status_code == 404
    assert client.get(url(result, "cumul", "doc")).status_code == 404
    missing = reverse("event-session-document", args=[result.event.pk, 9, "cumul", "csv"])
    assert client.get(missing).status_code == 404


def cut_of(bracket, rule, value):
    """The cut as it would be applied (its report), unsaved."""
    preview = cut_preview(source=bracket, rule=rule, value=value)
    return Cut(source=bracket, rule=rule, value=value, report=preview.report)


def test_a_tie_at_the_line_names_the_criterion_that_settled_it():
    # Table 1: P2 45 wins the table; table 2: P5 53 wins it, P6 45 does not (edge-case test).
    _event, bracket = new_event(8, tie_breaks=["tables_won"])
    seat(bracket, [[1, 2, 3, 4], [5, 6, 7, 8]])
    play(bracket, [[5, 9, 2], [13, 11, 0]])
    assert cut_text(cut_of(bracket, "top_n", 2), bracket) == (
        "Qualifiés : les 2 premiers (coupe après la séance 1), "
        "égalité à la ligne départagée par « Plus de tables gagnées »"
    )


def test_a_tie_on_every_criterion_says_all_qualify():
    # Same deals at both tables: 45, 45, 29, 29...; 30 % of 8 is 3 places, both 29s go on.
    _event, bracket = new_event(8)
    seat(bracket, [[1, 2, 3, 4], [5, 6, 7, 8]])
    play(bracket, [[5, 9, 2], [5, 9, 2]])
    assert cut_text(cut_of(bracket, "top_percent", 30), bracket) == (
        "Qualifiés : les 30 % premiers (3 joueurs) (coupe après la séance 1), "
        "égalité à la ligne sur tous les critères : tous qualifiés (1 de plus)"
    )
