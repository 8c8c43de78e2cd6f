"""The arbiter's report travels with the sent tournament (issue 40): the comité's server builds
the same report from what it received (field, positions, incidents, adjusted scores, ranking),
and keeps the laptop's staff (accounts are not sent) with the version."""

from __future__ import annotations

from dataclasses import asdict

import pytest

from scoring.documents.arbiter_report import arbiter_report
from scoring.upload.keys import key_authenticate
from scoring.upload.receive import results_receive

pytestmark = pytest.mark.django_db


def without(lines, *fields: str) -> list[dict]:
    return [{k: v for k, v in asdict(line).items() if k not in fields} for line in lines]


def test_the_server_reports_what_the_desk_recorded(key, document, finished):
    version = results_receive(
        key=key_authenticate(f"Bearer {key}", address="192.0.2.1"), raw=document
    ).version
    before, after = arbiter_report(finished), arbiter_report(version.tournament)
    assert after.field == before.field
    assert after.positions == before.positions
    assert without(after.incidents, "arbiter") == without(before.incidents, "arbiter")
    assert len(after.incidents) == 12  # every kind
    assert after.adjusted == before.adjusted
    assert after.ranking == before.ranking
    assert version.report["staff"] == [{"name": s.name, "role": s.role} for s in before.staff]
    assert version.report["penalty_total"] == after.penalty_total == 380
