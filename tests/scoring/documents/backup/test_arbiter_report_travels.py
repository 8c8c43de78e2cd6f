"""The arbiter's report builds from any tournament: restored from its backup (the format
unchanged), a tournament's report says what the original's said of its records."""

from __future__ import annotations

from dataclasses import asdict

import pytest

from scoring.documents.arbiter_report import arbiter_report
from scoring.documents.backup import tournament_export_json, tournament_import
from tests.scoring.documents.report_tournament import build_report_tournament

pytestmark = pytest.mark.django_db


def without(lines, *fields: str) -> list[dict]:
    return [{k: v for k, v in asdict(line).items() if k not in fields} for line in lines]


def test_a_restored_tournament_reports_the_same_records(arbiter):
    original = build_report_tournament(arbiter)["tournament"]
    restored = tournament_import(tournament_export_json(original), user=arbiter)
    before, after = arbiter_report(original), arbiter_report(restored)
    assert after.tournament.pk != before.tournament.pk
    assert (after.club, after.format, after.rule_set) == (
        before.club,
        before.format,
        before.rule_set,
    )
    assert after.field == before.field
    assert after.withdrawals and after.late_arrivals
    assert after.positions == before.positions
    # Who recorded an incident is not taken from a file (the backup credits nobody).
    assert without(after.incidents, "arbiter") == without(before.incidents, "arbiter")
    assert after.adjusted == before.adjusted
    assert after.ranking == before.ranking
    assert after.penalty_total == before.penalty_total == 380
