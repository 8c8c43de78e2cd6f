"""The arbiter's report travels with the sent tournament (issue 40): the comité's server builds
the same report from what it received (field, positions, incidents, adjusted scores, ranking),
and, since a backup holds neither accounts nor table calls, prints the evening's arbiters and
calls for the arbiter as the laptop sent them: its PDF (read with pypdf) and its CSV (read with
csv) equal the desk's records of a tournament with every kind of incident."""

from __future__ import annotations

import csv
import io
import re
from dataclasses import asdict

import pytest
from django.urls import reverse
from django.utils import timezone

from scoring.documents.arbiter_report import arbiter_report
from scoring.models import TableCall
from scoring.upload.keys import key_authenticate
from scoring.upload.receive import results_receive
from tests.scoring.documents.printing.print_helpers import fetch_pdf
from tournament.models import TournamentRole

pytestmark = pytest.mark.django_db


def without(lines, *fields: str) -> list[dict]:
    return [{k: v for k, v in asdict(line).items() if k not in fields} for line in lines]


def received(key: str, document: bytes):
    return results_receive(
        key=key_authenticate(f"Bearer {key}", address="192.0.2.1"), raw=document
    ).version


def desk_staff(tournament) -> list[tuple[str, str]]:
    """The desk's records of who ran the evening: its owner, then its roles."""
    owner = tournament.owner
    staff = [(owner.get_full_name() or owner.username, "Arbitre responsable")]
    roles = TournamentRole.objects.filter(tournament=tournament)
    for role in roles.order_by("role", "pk"):  # "arbiter" before "scorer"
        staff.append((role.user.get_full_name() or role.user.username, role.get_role_display()))
    return staff


def desk_calls(tournament) -> list[TableCall]:
    return list(
        TableCall.objects.filter(table__position__tournament=tournament).order_by("created_at")
    )


def csv_blocks(client, tournament) -> dict[str, list[dict[str, str]]]:
    response = client.get(reverse("print-arbiter-report-csv", args=[tournament.pk]))
    assert response.status_code == 200
    rows = list(csv.reader(io.StringIO(response.content.decode()[1:]), delimiter=";"))
    found: dict[str, list[dict[str, str]]] = {}
    index = 0
    while index < len(rows):
        title, header = rows[index][0], rows[index + 1]
        index += 2
        found[title] = []
        while index < len(rows) and rows[index]:
            found[title].append(dict(zip(header, rows[index], strict=True)))
            index += 1
        index += 1
    return found


def test_the_server_reports_what_the_desk_recorded(key, document, finished):
    version = received(key, document)
    before, after = arbiter_report(finished), arbiter_report(version.tournament)
    assert after.field == before.field
    assert after.positions == before.positions
    assert without(after.incidents, "arbiter") == without(before.incidents, "arbiter")
    assert len(after.incidents) == 12  # every kind
    assert after.adjusted == before.adjusted
    assert after.ranking == before.ranking
    assert after.staff == before.staff and after.signatories == before.signatories
    assert after.calls == before.calls
    assert version.report["penalty_total"] == after.penalty_total == 380


def test_the_servers_csv_lists_the_desks_arbiters_and_calls(
    arbiter_client, key, document, finished
):
    copy = received(key, document).tournament
    blocks = csv_blocks(arbiter_client, copy)
    assert [(r["Nom"], r["Rôle"]) for r in blocks["Arbitrage"]] == desk_staff(finished)
    assert len(desk_staff(finished)) == 3  # the arbiter in charge, a co-arbiter, a scorer
    calls = desk_calls(finished)
    assert len(calls) == 2 and calls[0].taken_at and not calls[1].taken_at
    printed = blocks["Appels de l'arbitre"]
    assert [
        (int(r["Position"]), int(r["Table"]), r["Donne"], r["Message"], r["Pris en charge par"])
        for r in printed
    ] == [
        (
            c.table.position.number,
            c.table.number,
            str(c.deal_number or ""),
            c.note,
            c.taken_by.username if c.taken_by else "",
        )
        for c in calls
    ]
    assert printed == csv_blocks(arbiter_client, finished)["Appels de l'arbitre"]  # times too


def test_the_servers_pdf_lists_the_desks_arbiters_and_calls(
    arbiter_client, key, document, finished
):
    copy = received(key, document).tournament
    _reader, pages = fetch_pdf(arbiter_client, reverse("print-arbiter-report", args=[copy.pk]))
    text = " ".join(" ".join(pages).split())
    for name, role in desk_staff(finished):
        assert f"{name} {role}" in text, (name, role)
    calls = text[text.index("Appels de l'arbitre") : text.index("Classement final")]
    for call in desk_calls(finished):
        called = timezone.localtime(call.created_at).strftime("%H:%M")
        deal = f" D{call.deal_number}" if call.deal_number else ""
        start = f"P{call.table.position.number} T{call.table.number}{deal} {call.note} {called}"
        if call.taken_at:
            taken = timezone.localtime(call.taken_at).strftime("%H:%M")
            expected = f"{start} {taken} ({call.taken_by.username})"
        else:
            expected = f"{start} non pris en charge"
        assert expected in calls, (expected, calls)


def test_a_report_whose_calls_are_unreadable_is_refused(key, document):
    raw = re.sub(rb'"calls": \[', b'"calls": ["x", ', document, count=1)
    with pytest.raises(Exception, match="appels du rapport sont illisibles"):
        received(key, raw)
