"""Issue 35 for an event's documents: the CSV keeps numbers as numbers (the formula guard quotes
text only, never a figure the export formatted itself), and a bracket's CSV and XLSX count only
confirmed deals, stating the ones that wait."""

import csv
import io
import json

import pytest
from django.test import Client
from django.urls import reverse
from openpyxl import load_workbook

from scoring.sheets.table_entry import links_for_position
from tests.scoring.events.event_helpers import new_event, play, seat
from tests.scoring.events.venue_helpers import TOTALS_1, cut_event, session_2_scores
from tournament.access.lifecycle import tournament_reopen
from tournament.models import Position

pytestmark = pytest.mark.django_db

# P3 claims a garde contre alone worth 3 x 480 on his phone; nobody confirms it.
CLAIM = {"players": 4, "taker": 2, "contract": "garde_contre", "oudlers": 3, "points": 91}
WAITS = "Non comptée : 1 donne à confirmer ou contestée, à la table 1 (position 1) : 1."


def csv_rows(client, url) -> list[list[str]]:
    response = client.get(url)
    assert response.status_code == 200
    return list(csv.reader(io.StringIO(response.content.decode("utf-8-sig")), delimiter=";"))


def test_negative_fractions_in_the_event_csv_are_numbers_not_text(arbiter, client):
    result = cut_event(arbiter)
    session_2_scores(result)
    client.force_login(arbiter)
    url = reverse("event-session-document", args=[result.event.pk, 2, "cumul", "csv"])
    rows = csv_rows(client, url)
    heading = rows[4]
    lines = {row[heading.index("Joueur")].split()[0]: row for row in rows[5:]}
    carried = {name: row[heading.index("Report")] for name, row in lines.items()}
    # P4 and P8 carry half of −91 and −95: written as the numbers a French spreadsheet reads.
    assert TOTALS_1["P4"] == -91 and carried["P4"] == "-45,5"
    assert carried["P8"] == "-47,5"
    figures = [cell for row in rows[5:] for cell in row[1:3] + row[6:]]
    assert not [cell for cell in figures if cell.startswith("'")]


def test_a_brackets_documents_leave_out_a_waiting_deal_and_say_so(arbiter, client):
    event, bracket = new_event(8, owner=arbiter, entry_mode="phones", deals_per_table_4=4)
    seat(bracket, [[1, 2, 3, 4], [5, 6, 7, 8]])
    play(bracket, [[5, 9, 2], [7, 1, 12]])
    tournament_reopen(tournament=bracket, reason="la 4e donne", user=arbiter)
    position = bracket.positions.get(number=1)
    Position.objects.filter(pk=position.pk).update(status=Position.Status.PUBLISHED)
    link = links_for_position(position)[0]
    p3 = next(s for s in link.table.seats.all() if s.registration.player.last_name == "P3")
    body = {
        "client_id": "claim-p3-1",
        "version": link.table.sheet.version,
        "deal": CLAIM,
        "entered_by": p3.index,
        "pin": p3.registration.pin,
    }
    response = Client().post(
        reverse("table-deal-create", args=[link.token]),
        json.dumps(body),
        content_type="application/json",
    )
    assert response.status_code == 201 and response.json()["pending"]
    client.force_login(arbiter)
    args = [event.pk, bracket.pk, "seance"]
    rows = csv_rows(client, reverse("event-bracket-document", args=[*args, "csv"]))
    assert WAITS in rows[1]
    heading = rows[3]
    sessions = {row[heading.index("Joueur")].split()[0]: row[heading.index("Séance")]
                for row in rows[4:]}  # fmt: skip
    assert sessions["P3"] == str(TOTALS_1["P3"])
    workbook = load_workbook(
        io.BytesIO(client.get(reverse("event-bracket-document", args=[*args, "xlsx"])).content)
    )
    cells = [row[0] for row in workbook.worksheets[0].iter_rows(max_row=4, values_only=True)]
    assert WAITS in cells
