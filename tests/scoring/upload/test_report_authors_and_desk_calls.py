"""The arbiter's report names who recorded each incident on the comité's server too, and lists
the deals the desk marked "Arbitre appelé" beside the phones' calls, on the laptop and on the
server, in the PDF and the CSV (issue 40)."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import timezone

from scoring.documents.arbiter_report import arbiter_report
from scoring.models import Deal
from scoring.upload.send import upload_document
from tests.scoring.documents.printing.print_helpers import fetch_pdf
from tests.scoring.upload.conftest import SOURCE
from tests.scoring.upload.test_report_travels_to_the_comite import csv_blocks, received

pytestmark = pytest.mark.django_db


def test_the_servers_report_names_who_recorded_each_incident(arbiter_client, key, finished):
    copy = received(key, upload_document(finished, source=SOURCE)).tournament
    before, after = arbiter_report(finished), arbiter_report(copy)
    assert all(line.arbiter for line in before.incidents)
    assert after.incidents == before.incidents  # the arbiter and the time included
    column = [r["Arbitre"] for r in csv_blocks(arbiter_client, copy)["Incidents et pénalités"]]
    assert column == [line.arbiter for line in before.incidents]
    _reader, pages = fetch_pdf(arbiter_client, reverse("print-arbiter-report", args=[copy.pk]))
    text = " ".join(" ".join(pages).split())
    first = before.incidents[0]
    assert f"{first.arbiter}, {timezone.localtime(first.recorded_at):%H:%M}" in text


def _marked(finished) -> Deal:
    deal = Deal.objects.filter(sheet__tournament=finished, sheet__table__isnull=False).latest("pk")
    Deal.objects.filter(pk=deal.pk).update(arbiter_called=True)
    return deal


def _listed(client, tournament) -> list[tuple[str, str, str]]:
    rows = csv_blocks(client, tournament)["Appels de l'arbitre"]
    return [(r["Position"], r["Table"], r["Donne"]) for r in rows]


def test_deals_marked_arbiter_called_are_listed_with_the_calls(arbiter_client, key, finished):
    deal = _marked(finished)
    table = deal.sheet.table
    marked = (str(table.position.number), str(table.number), str(deal.number))
    laptop = arbiter_report(finished)
    assert len(laptop.calls) == 3  # the two phones' calls and the desk's mark
    assert [line for line in laptop.calls if line.desk][0].deal == deal.number
    assert marked in _listed(arbiter_client, finished)

    copy = received(key, upload_document(finished, source=SOURCE)).tournament
    assert arbiter_report(copy).calls == laptop.calls
    assert marked in _listed(arbiter_client, copy)
    for tournament in (finished, copy):
        url = reverse("print-arbiter-report", args=[tournament.pk])
        _reader, pages = fetch_pdf(arbiter_client, url)
        text = " ".join(" ".join(pages).split())
        calls = text[text.index("Appels de l'arbitre") : text.index("Classement final")]
        start = f"P{marked[0]} T{marked[1]} D{marked[2]} Donne marquée « Arbitre appelé »"
        assert start in calls, calls
