"""A tournament backed up to JSON and restored into an empty database ranks identically."""

import io
import json
import sqlite3
import sys
import threading
import time
from contextlib import contextmanager

import openpyxl
import pytest
from django.core.management import call_command
from django.db import connection, connections
from django.db.models import Sum

from scoring.documents.backup import (
    BackupError,
    tournament_export,
    tournament_export_json,
    tournament_import,
)
from scoring.documents.backup import restore as backup_restore
from scoring.documents.exports import deals_xlsx, ranking_xlsx
from scoring.live.standings import standings_for
from scoring.models import Deal, DealScore, Incident, ScoreSheet
from scoring.sheets.generate import GenerateOptions, tournament_generate
from scoring.sheets.services import deal_adjust, deal_record, sheet_for_table
from tests import report_builders
from tournament.evening.positions import position_tables_store
from tournament.models import (
    ChangeLog,
    Player,
    Position,
    Registration,
    Team,
    Tournament,
)

pytestmark = pytest.mark.django_db


def build_tournament(user=None) -> Tournament:
    tournament = Tournament.objects.create(
        name="Open du Chalonnais", date="2026-11-21", format="duo", owner=user
    )
    teams = [Team.objects.create(tournament=tournament, name=f"Duo {i}") for i in range(4)]
    registrations = [
        Registration.objects.create(
            tournament=tournament,
            player=Player.objects.create(
                last_name=f"Joueur{i}",
                first_name="A",
                licence=f"{41000 + i:07d}" if i % 2 else None,
            ),
            team=teams[i // 2],
            number=i + 1,
        )
        for i in range(8)
    ]
    position = Position.objects.create(tournament=tournament, number=1, status="published")
    seated = [[r.pk for r in registrations[0::2]], [r.pk for r in registrations[1::2]]]
    for table in position_tables_store(position=position, tables=seated):
        sheet = sheet_for_table(table=table)
        for taker, points in ((0, 49), (1, 30), (2, 60)):
            deal_record(
                sheet=sheet,
                data={"players": 4, "taker": taker, "contract": "garde", "oudlers": 2,
                      "points": points, "dealer": taker},
                user=user,
            )  # fmt: skip
    deal = Deal.objects.filter(sheet__table__number=2).first()
    deal_adjust(deal=deal, scores=[-60, 20, 20, 20], reason="Renonce du preneur", user=user)
    Incident.objects.create(
        tournament=tournament,
        sheet=deal.sheet,
        deal=deal,
        registration=registrations[1],
        kind="renonce_taker",
        penalty_points=20,
        created_by=user,
    )
    return tournament


def totals(tournament) -> dict[str, int]:
    rows = (
        DealScore.objects.filter(deal__sheet__tournament=tournament)
        .values("registration__player__last_name")
        .annotate(total=Sum("points"))
    )
    result = {r["registration__player__last_name"]: r["total"] for r in rows}
    for incident in Incident.objects.filter(tournament=tournament):
        name = incident.registration.player.last_name
        result[name] = result.get(name, 0) - incident.penalty_points
    return result


def wipe_database():
    Tournament.objects.all().delete()
    Player.objects.all().delete()


def test_backup_restored_into_an_empty_database_gives_identical_rankings(arbiter):
    tournament = build_tournament(arbiter)
    before = totals(tournament)
    document = json.dumps(tournament_export(tournament))
    wipe_database()
    restored = tournament_import(document)
    assert totals(restored) == before
    assert restored.teams.count() == 4
    assert ScoreSheet.objects.filter(tournament=restored).count() == 2
    adjusted = Deal.objects.get(sheet__tournament=restored, adjusted=True)
    assert adjusted.adjustment_reason == "Renonce du preneur"
    # Who did what is kept as text in the history; no account is credited from a file.
    assert adjusted.created_by is None
    history = ChangeLog.objects.filter(tournament=restored)
    assert history.count() == ChangeLog.objects.count()
    assert set(history.values_list("username", flat=True)) == {"arbitre-test"}
    assert not history.filter(user__isnull=False).exists()
    assert tournament_export(restored)["sections"]["scoring.deal"][0]["scores"] is not None


def test_restore_next_to_existing_tournaments_reuses_players_by_licence():
    tournament = build_tournament()
    document = json.dumps(tournament_export(tournament))
    restored = tournament_import(document)
    assert restored.pk != tournament.pk
    assert totals(restored) == totals(tournament)
    # Players with a licence are matched to the roster; the others are new rows.
    assert Player.objects.count() == 8 + 4


@pytest.mark.parametrize(
    "raw",
    [
        b"not json at all",
        json.dumps({"format": "something-else"}),
        json.dumps({"format": "tarot-desk-backup", "version": 99, "sections": {}}),
        json.dumps({"format": "tarot-desk-backup", "version": 1, "sections": {"x": []}}),
    ],
)
def test_bad_or_foreign_files_are_refused_and_change_nothing(raw):
    build_tournament()
    counts = (Tournament.objects.count(), Player.objects.count(), Deal.objects.count())
    with pytest.raises(BackupError):
        tournament_import(raw)
    assert (Tournament.objects.count(), Player.objects.count(), Deal.objects.count()) == counts


def test_damaged_backup_is_refused_without_half_import():
    document = tournament_export(build_tournament())
    document["sections"]["scoring.deal"][0]["sheet"] = 999_999  # points to no sheet
    counts = (Tournament.objects.count(), Deal.objects.count())
    with pytest.raises(BackupError):
        tournament_import(json.dumps(document))
    assert (Tournament.objects.count(), Deal.objects.count()) == counts


def test_commands_write_and_restore_a_backup(tmp_path):
    tournament = build_tournament()
    before = totals(tournament)
    path = tmp_path / "backup.json"
    call_command("backup_tournament", tournament.pk, output=str(path), stdout=io.StringIO())
    wipe_database()
    call_command("restore_tournament", str(path), stdout=io.StringIO())
    assert totals(Tournament.objects.get()) == before


def restore_upload(client, content: bytes, name: str = "sauvegarde.json", **data):
    """POST `content` as an uploaded file to the restore page."""
    upload = io.BytesIO(content)
    upload.name = name
    return client.post("/tournois/restaurer/", {**data, "file": upload})


def test_interface_download_and_restore(arbiter_client):
    tournament = build_tournament()
    before = totals(tournament)
    response = arbiter_client.get(f"/tournois/{tournament.pk}/sauvegarde/")
    assert response.status_code == 200
    assert response["Content-Disposition"].startswith("attachment")
    wipe_database()
    response = restore_upload(arbiter_client, response.content, "backup.json")
    assert response.status_code == 302
    restored = Tournament.objects.get()
    assert totals(restored) == before
    assert restored.owner.get_username() == "arbitre-test"  # whoever restores it owns it


def test_interface_refuses_a_foreign_file_with_a_message(arbiter_client):
    response = restore_upload(arbiter_client, b'{"hello": "world"}', "other.json")
    assert response.status_code == 200
    assert "pas une sauvegarde" in response.text
    assert Tournament.objects.count() == 0


def test_backup_is_for_arbiters_only(client, scorer):
    tournament = build_tournament()
    assert client.get(f"/tournois/{tournament.pk}/sauvegarde/").status_code == 302
    client.force_login(scorer)
    assert client.get(f"/tournois/{tournament.pk}/sauvegarde/").status_code == 403


def test_the_backup_names_the_author_of_every_history_record(arbiter):
    tournament = build_tournament(arbiter)
    changes = tournament_export(tournament)["sections"]["tournament.changelog"]
    assert changes and all(change["username"] == "arbitre-test" for change in changes)


# --- rankings and deal log identical, cell for cell ------------------------------------------


def workbook_cells(data: bytes) -> dict[str, list[tuple]]:
    workbook = openpyxl.load_workbook(io.BytesIO(data), read_only=True)
    return {sheet.title: list(sheet.iter_rows(values_only=True)) for sheet in workbook.worksheets}


def assert_same_workbooks(original: Tournament, restored: Tournament) -> None:
    for build in (
        lambda tournament: ranking_xlsx.build(standings_for(tournament)),
        deals_xlsx.build,
    ):
        before, after = workbook_cells(build(original)), workbook_cells(build(restored))
        assert list(before) == list(after)
        for title, rows in before.items():
            assert len(rows) > 2, title
            # The title line names the tournament: the same name and date, so the same too.
            assert original.name == restored.name and rows == after[title], title


def test_the_restored_demo_gives_the_same_rankings_and_deal_log(django_user_model):
    call_command("load_demo", verbosity=0)
    original = Tournament.objects.get()
    restorer = django_user_model.objects.create_user("restaurateur", password="pw-rest-1")
    restored = tournament_import(tournament_export_json(original).encode(), user=restorer)
    assert restored.pk != original.pk and restored.owner == restorer
    assert Deal.objects.filter(sheet__tournament=restored, adjusted=True).count() == 1
    assert Incident.objects.filter(tournament=restored, penalty_points__gt=0).count() >= 2
    assert_same_workbooks(original, restored)


def test_teams_shared_penalties_and_normalised_tables_survive_a_restore(arbiter):
    built = report_builders.build_tournament(
        normalise_tables=True, tie_breaks=["best_position", "fewest_penalties"]
    )
    original = built["tournament"]
    report_builders.add_penalty(built, "H", 30, shared=True)
    report_builders.adjust_and_report(
        built, arbiter, deal=2, scores=[30, -90, 30, 30], reason="Décision de l'arbitre",
        kind="lateness", letter="B", points=15,
    )  # fmt: skip
    restored = tournament_import(tournament_export_json(original))
    assert_same_workbooks(original, restored)


# --- a big restore and a concurrent deal save ------------------------------------------------

MB = 1024 * 1024


@contextmanager
def database_in_a_file(path):
    """The SQLite test database lives in memory with a shared cache: there a writer makes the
    other connections fail at once ("database table is locked") where the real database, a
    file in WAL mode with a busy timeout, makes them wait. Copy it to a file and point this
    thread's connection, and those the other threads open, at it. PostgreSQL is left as is."""
    if connection.vendor != "sqlite" or not connection.is_in_memory_db():
        yield
        return
    connection.ensure_connection()
    target = sqlite3.connect(path)
    connection.connection.backup(target)
    target.close()
    memory = connections["default"]
    settings = memory.settings_dict  # shared with the connections threads open
    name = settings["NAME"]
    settings["NAME"] = str(path)
    in_file = connections.create_connection("default")
    connections["default"] = in_file
    try:
        yield
    finally:
        in_file.close()
        connections["default"] = memory
        settings["NAME"] = name


def running_sheet() -> ScoreSheet:
    """An empty sheet of a tournament in progress, where a scorer records deals."""
    tournament = Tournament.objects.create(
        name="Tournoi du soir", date="2026-11-22", status=Tournament.Status.RUNNING
    )
    position = Position.objects.create(
        tournament=tournament, number=1, status=Position.Status.PUBLISHED
    )
    registrations = [
        Registration.objects.create(
            tournament=tournament,
            player=Player.objects.create(last_name=f"Soir{number}"),
            number=number,
        )
        for number in range(1, 5)
    ]
    [table] = position_tables_store(position=position, tables=[[r.pk for r in registrations]])
    return sheet_for_table(table=table)


def waits_at_begin(ident: int) -> bool:
    """Whether the thread `ident` is inside SQLite's BEGIN IMMEDIATE, that is waiting for the
    write lock another connection holds (the busy timeout), not failing."""
    frame = sys._current_frames().get(ident)
    while frame is not None:
        if frame.f_code.co_name == "_start_transaction_under_autocommit":
            return True
        frame = frame.f_back
    return False


@pytest.mark.django_db(transaction=True)
def test_a_restore_never_makes_a_concurrent_deal_save_fail(tmp_path, monkeypatch):
    # The restore holds its write transaction (and SQLite's lock) until the deal save started
    # beside it waits for that lock (SQLite) or is done (PostgreSQL, no lock between them): the
    # save runs inside the write, whatever the size of the backup or the speed of the machine.
    # How long a big restore's write takes against the busy timeout is a figure of the machine:
    # bench/restore.py.
    source = tournament_generate(
        options=GenerateOptions(players=40, positions=3, deals=4, seed=7, name="Grand open")
    )
    raw = tournament_export_json(source).encode()
    deals = Deal.objects.filter(sheet__tournament=source).count()
    sheet = running_sheet()
    saver = threading.get_ident()
    writing, saved = threading.Event(), threading.Event()
    held: list[str] = []
    real_insert = backup_restore._insert

    def insert(rows, new_keys, connection):
        real_insert(rows, new_keys, connection)
        if writing.is_set():
            return
        writing.set()  # the restore holds the write transaction from now
        deadline = time.monotonic() + 120  # a bound against a hang, not a speed
        while time.monotonic() < deadline:
            if waits_at_begin(saver):
                held.append("the save waits")
                return
            if saved.is_set():
                held.append("the save is done")
                return
            time.sleep(0.01)

    monkeypatch.setattr(backup_restore, "_insert", insert)
    outcome: dict[str, object] = {}

    def restore():
        try:
            outcome["restored"] = tournament_import(raw).pk
        except BaseException as error:  # reported by the main thread
            outcome["error"] = error
        finally:
            writing.set()
            connections.close_all()

    with database_in_a_file(tmp_path / "db.sqlite3"):
        thread = threading.Thread(target=restore)
        thread.start()
        assert writing.wait(timeout=300)
        deal = deal_record(
            sheet=sheet,
            data={"taker": 0, "contract": "garde", "oudlers": 2, "points": 49, "dealer": 0},
        )
        saved.set()
        thread.join(timeout=300)
        assert "error" not in outcome, outcome.get("error")
        assert held == ["the save waits" if connection.vendor == "sqlite" else "the save is done"]
        assert Deal.objects.get(pk=deal.pk).scores == deal.scores == [198, -66, -66, -66]
        restored = Tournament.objects.get(pk=outcome["restored"])
        assert Deal.objects.filter(sheet__tournament=restored).count() == deals
