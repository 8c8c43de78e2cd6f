"""Any tournament the site can reach backs up and restores: a desk post with a 40-digit version
(kept in the history on an older site, which then made the tournament's backup unreadable to
its own restore), and the history's values whatever their size. Run on SQLite and PostgreSQL."""

import io
import json

import pytest
from django.core.management import call_command

from scoring.documents.backup import tournament_export, tournament_export_json, tournament_import
from scoring.sheets.services import sheet_for_table
from tests.desk_helpers import deal_post
from tests.scoring.documents.backup.test_backup_restore import (
    build_tournament,
    restore_upload,
    totals,
)
from tournament.models import ChangeLog, Tournament

pytestmark = pytest.mark.django_db

HUGE = "1" * 40


def history(tournament) -> list[tuple]:
    rows = ChangeLog.objects.filter(tournament=tournament).order_by("at", "pk")
    return [(row.action, row.object_type, row.before, row.after) for row in rows]


def test_a_desk_post_with_a_40_digit_version_then_backup_and_restore(arbiter_client):
    tournament = build_tournament()
    sheet = sheet_for_table(table=tournament.positions.get().tables.get(number=1))
    response = deal_post(arbiter_client, sheet, {"taker": "T"}, version=HUGE)
    assert response.status_code == 200
    before = totals(tournament)
    backup = arbiter_client.get(f"/tournois/{tournament.pk}/sauvegarde/")
    assert backup.status_code == 200
    response = restore_upload(arbiter_client, backup.content, "backup.json")
    assert response.status_code == 302, response.content.decode()[:2000]
    restored = Tournament.objects.exclude(pk=tournament.pk).get()
    assert totals(restored) == before
    assert history(restored) == history(tournament)


def test_a_history_kept_by_an_older_site_with_a_huge_number_restores(tmp_path):
    """Rows an older site stored (a conflict's 40-digit version) are restored as they are."""
    tournament = build_tournament()
    sheet = sheet_for_table(table=tournament.positions.get().tables.get(number=1))
    ChangeLog.objects.create(
        tournament=tournament,
        object_type=ChangeLog.ObjectType.SHEET,
        object_id=sheet.pk,
        sheet=sheet,
        action=ChangeLog.Action.CONFLICT,
        before={"version": sheet.version, "deals": []},
        after={"expected_version": int(HUGE), "input": {"passed": True}},
    )
    before = totals(tournament)
    path = tmp_path / "backup.json"
    call_command("backup_tournament", tournament.pk, output=str(path), stdout=io.StringIO())
    assert HUGE in path.read_text()
    call_command("restore_tournament", str(path), stdout=io.StringIO())
    restored = Tournament.objects.exclude(pk=tournament.pk).get()
    assert totals(restored) == before
    assert history(restored) == history(tournament)
    # And the restored tournament backs up and restores again.
    again = tournament_import(tournament_export_json(restored))
    assert totals(again) == before


def test_the_restore_still_refuses_a_column_beyond_what_the_database_holds():
    """A huge number is kept in the history's free JSON, never in a column."""
    from scoring.documents.backup import BackupError

    document = tournament_export(build_tournament())
    document["sections"]["scoring.scoresheet"][0]["version"] = int(HUGE)
    with pytest.raises(BackupError, match="version"):
        tournament_import(json.dumps(document))
    document["sections"]["scoring.scoresheet"][0]["version"] = 2**31
    with pytest.raises(BackupError, match="version"):
        tournament_import(json.dumps(document))


def test_an_incident_on_a_deal_number_no_column_holds_is_refused_then_backup_restores(
    arbiter_client,
):
    """SQLite stores any 64-bit deal number, PostgreSQL and the restore only a smallint's: the
    desk's form refuses beyond it, so what the site keeps is what its restore takes back."""
    from scoring.models import Incident

    tournament = build_tournament()
    table = tournament.positions.get().tables.get(number=1)
    culprit = table.seats.first().registration
    url = f"/tournois/{tournament.pk}/incidents/nouveau/"
    data = {"table": table.pk, "kind": "renonce_defence", "registration": culprit.pk}
    response = arbiter_client.post(url, {**data, "penalty_points": 10, "deal_number": 2**40})
    assert response.status_code == 200
    assert "32767" in response.text  # the form says the bound
    assert not Incident.objects.filter(registration=culprit).exists()
    response = arbiter_client.post(url, {**data, "penalty_points": 10, "deal_number": 3})
    assert response.status_code == 302
    restored = tournament_import(tournament_export_json(tournament))
    assert Incident.objects.filter(tournament=restored, deal_number=3).exists()
