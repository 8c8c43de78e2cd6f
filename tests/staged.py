"""Staged tournaments shared by the tests, like TabbyCat's `after_round_4.json`.

Each stage is one small tournament brought to a known point through the site itself (the
arbiter's desk, as the tests used to do by hand), dumped to fixtures/staged/<stage>.json and
loaded by the `staged_*` fixtures of tests/conftest.py. Regenerate them all after a model or
a scoring change with

    .venv/bin/python -m tests.staged

which builds each stage from an empty database under a fixed clock, so that the same code always
writes the same files (no timestamps, PINs or user ids that vary). The test that the committed
files are today's (tests/project/test_staged_fixtures.py) builds them with the same code on the
test database, inside its transaction.

The stages (four players, DURAND, DUPONT, DUBOIS and DESPRES, two positions):
- after_position_1: position 1 published, its one table's sheet holds 004's five deals
  typed at the desk (the sheet of tests/examples_004.py);
- with_incidents: after_position_1, then Sud (DUPONT) fined 50 points for a revoke at deal 5
  and Ouest (DESPRES) 40 points for lateness (charged penalties: the culprit alone loses them);
- after_last_position: after_position_1 validated and closed, position 2 (the last) with the
  players moved round one seat (see SEATS_2) and the same five deals typed, validated, closed,
  and the tournament finished.
"""

from __future__ import annotations

import io
import json
import os
import tempfile
from datetime import UTC, datetime, timedelta
from pathlib import Path
from unittest import mock

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures" / "staged"
STAGES = ("after_position_1", "with_incidents", "after_last_position")
TOURNAMENT_NAME = "Tournoi test"
# Position 2: who sits where (DURAND moves from Nord to Est, and each player one seat on).
SEATS_2 = {"N": "DESPRES", "E": "DURAND", "S": "DUBOIS", "W": "DUPONT"}
# The incidents of with_incidents: (player, kind, deal number or None, penalty points).
INCIDENTS = [
    ("DUPONT", "renonce_taker", 5, 50),
    ("DESPRES", "lateness", None, 40),
]


def fixture_path(stage: str, folder: Path = FIXTURES) -> Path:
    return folder / f"{stage}.json"


# --- building a stage (inside a Django process with an empty database) ----------------------


def build(stage: str, client, arbiter) -> None:
    """Bring a new tournament to `stage`, acting as `arbiter`, logged in on `client`."""
    from django.urls import reverse

    from tests.desk_helpers import deal_post, incident_post, make_tournament, table_sheet
    from tests.examples_004 import NAMES, TYPED

    tournament, position = make_tournament(names=NAMES, positions_count=2, status="running")
    tournament.owner = arbiter
    tournament.save(update_fields=["owner"])
    sheet = table_sheet(client, position)
    for fields in TYPED:
        _ok(deal_post(client, sheet, fields))
    if stage == "with_incidents":
        for name, kind, deal_number, points in INCIDENTS:
            culprit = tournament.registrations.get(player__last_name=name)
            _ok(
                incident_post(
                    client,
                    tournament,
                    sheet,
                    culprit,
                    kind=kind,
                    deal_number=deal_number or "",
                    penalty_points=points,
                    decision=f"Pénalité de {points} points",
                )
            )
    if stage == "after_last_position":
        _validate_and_close(client, sheet)
        second = _seat_position_2(tournament)
        _ok(client.post(reverse("position-publish", args=[tournament.pk, 2])))
        sheet_2 = table_sheet(client, second)
        for fields in TYPED:
            _ok(deal_post(client, sheet_2, fields))
        _validate_and_close(client, sheet_2)
        _ok(client.post(reverse("tournament-finish", args=[tournament.pk])))


def _ok(response) -> None:
    assert response.status_code in (200, 302), (response.status_code, response.content[:500])
    assert b"errorlist" not in response.content, response.content[:2000]


def _validate_and_close(client, sheet) -> None:
    from django.urls import reverse

    sheet.refresh_from_db()
    url = reverse("sheet-validate", args=[sheet.pk])
    _ok(client.post(url, {"version": sheet.version, "validated": "1"}))
    position = sheet.table.position
    _ok(client.post(reverse("position-close", args=[position.tournament_id, position.number])))


def _seat_position_2(tournament):
    from tournament.models import Position, Seat, Table

    position = Position.objects.create(tournament=tournament, number=2, status="draft")
    table = Table.objects.create(position=position, number=1, game="four")
    for direction, name in SEATS_2.items():
        registration = tournament.registrations.get(player__last_name=name)
        Seat.objects.create(table=table, registration=registration, direction=direction)
    return position


def _anonymise() -> None:
    """Drop what ties the stage to the builder's account, and the random PINs and tokens."""
    from django.apps import apps
    from django.conf import settings

    from scoring.models import TableLink
    from tournament.models import Registration, TournamentRole

    TournamentRole.objects.all().delete()
    for app in ("tournament", "scoring"):
        for model in apps.get_app_config(app).get_models():
            users = [
                field.name
                for field in model._meta.get_fields()
                if field.many_to_one and field.related_model._meta.label == settings.AUTH_USER_MODEL
            ]
            if users:
                model.objects.update(**dict.fromkeys(users))
    for registration in Registration.objects.all():
        registration.pin = f"{registration.number:04d}"
        registration.save(update_fields=["pin"])
    for link in TableLink.objects.all():  # the secret links a published position hands out
        link.token = f"staged-table-link-{link.pk:014d}"
        link.code = f"STG{link.pk:03d}"
        link.save(update_fields=["token", "code"])


def _fixed_clock():
    """15 August 2008 from 14:00, one second further at each reading."""
    start = datetime(2008, 8, 15, 14, 0, tzinfo=UTC)
    ticks = iter(range(10**9))
    return lambda: start + timedelta(seconds=next(ticks))


def empty_database() -> None:
    """What a new database holds for a stage: no row of the apps, of the accounts and their
    groups, nor of the sessions, and their ids counting from 1 again (the other tables, content
    types and permissions, are what migrate made)."""
    from django.apps import apps
    from django.contrib.auth.models import Group, User
    from django.contrib.sessions.models import Session
    from django.core.management.color import no_style
    from django.db import connection

    models = [
        *apps.get_app_config("tournament").get_models(include_auto_created=True),
        *apps.get_app_config("scoring").get_models(include_auto_created=True),
        User,
        User.groups.through,
        User.user_permissions.through,
        Group,
        Group.permissions.through,
        Session,
    ]
    tables = [model._meta.db_table for model in models]
    connection.ops.execute_sql_flush(
        connection.ops.sql_flush(no_style(), tables, reset_sequences=True, allow_cascade=True)
    )


def build_stage(stage: str) -> str:
    """The fixture of `stage` (JSON text), built in this process on its database, emptied first
    (empty_database). Not inside a transaction: the writes must commit as the site's do (a
    position's table links are made when its publication commits)."""
    from django.contrib.auth.models import Group, User
    from django.core.management import call_command
    from django.test import Client, override_settings

    from tests.club_helpers import join_club
    from tournament import settings as site
    from tournament.access.roles import ARBITER

    empty_database()
    arbiter = User.objects.create_user("builder")
    arbiter.groups.add(Group.objects.get_or_create(name=ARBITER)[0])
    join_club(arbiter)  # before the clock: the fixtures' times stay as they were
    # The clock ticks at each reading, and the tests' conftest changes settings that read it
    # (no coalescing of the live pages): the site's own values, as in `python -m tests.staged`.
    own = override_settings(
        LIVE_STANDINGS_COALESCE=site.LIVE_STANDINGS_COALESCE,
        SEATING_EXACT_BUDGET=site.SEATING_EXACT_BUDGET,
    )
    with own, mock.patch("django.utils.timezone.now", _fixed_clock()):
        client = Client()
        client.force_login(arbiter)
        build(stage, client, arbiter)
    from tournament.models import Club, Event, Player, Tournament

    # The fixtures hold no account and no club: a test gives them its own.
    Tournament.objects.update(owner=None, host_club=None)
    Event.objects.update(host_club=None)
    Player.objects.update(origin_club=None)
    Club.objects.all().delete()
    _anonymise()
    dump = io.StringIO()
    # The shared standings are derived from the rest, recomputed when read: not a stage's data.
    call_command(
        "dumpdata",
        "tournament",
        "scoring",
        exclude=["scoring.LiveArtifact"],
        natural_foreign=True,
        stdout=dump,
    )
    # Rows sorted by model and id: the file does not change when models move between modules
    # (loaddata checks the references once everything is in).
    rows = sorted(json.loads(dump.getvalue()), key=lambda row: (row["model"], row["pk"]))
    return json.dumps(rows, indent=1, ensure_ascii=False) + "\n"


def main() -> None:
    """Write every stage into fixtures/staged/, built one after the other on one new SQLite
    database (migrated once, emptied before each stage)."""
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["DATABASE_URL"] = f"sqlite:///{tmp}/stage.sqlite3"
        os.environ["DJANGO_SETTINGS_MODULE"] = "tournament.settings"
        import django

        django.setup()
        from django.core.management import call_command
        from django.test.utils import setup_test_environment

        setup_test_environment()  # the test client's host
        call_command("migrate", verbosity=0)
        for stage in STAGES:
            output = fixture_path(stage)
            output.parent.mkdir(parents=True, exist_ok=True)
            output.write_text(build_stage(stage), encoding="utf-8")
            print(f"{output} written.")


if __name__ == "__main__":
    main()
