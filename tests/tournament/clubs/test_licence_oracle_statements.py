"""Issue 36, no licence oracle by timing: registering, signing up, importing or restoring a
licence another club holds runs the very statements one nobody holds runs (same number, same
SQL but for the values); the comparison with other clubs' rosters, and the conflict it opens,
come after the response (tournament.players.checks). Counted, not timed."""

import io
import re
import time
from contextlib import contextmanager

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.signals import request_finished
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring.documents.backup import tournament_export_json
from tests.desk_helpers import register
from tests.tournament.clubs.conftest import HELD
from tests.tournament.clubs.test_no_licence_oracle import then_forgotten
from tournament.models import LicenceConflict, Player, Registration, Tournament
from tournament.players.checks import checks_after_response, licence_checks_process
from tournament.signup import services as signup

pytestmark = pytest.mark.django_db
FRESH = "0612345"  # nobody's


def shape(sql: str) -> str:
    """A statement without its values (ids, licences, times differ by construction)."""
    sql = re.sub(r"'(?:[^']|'')*'", "?", sql)
    sql = re.sub(r'"s\d+_x\d+"', "?", sql)  # savepoint names count the savepoints
    sql = re.sub(r'"_django_curs_\d+_\w+_\d+"', "?", sql)  # PostgreSQL's named cursors too
    return re.sub(r"\b\d+(?:\.\d+)?(?:e[+-]?\d+)?\b", "?", sql)


@contextmanager
def request_statements():
    """The statements a request runs until its response is sent (the after-response work of
    the test client's close left out, then run, so that the conflicts are there)."""
    request_finished.disconnect(checks_after_response, dispatch_uid="licence-checks")
    try:
        with CaptureQueriesContext(connection) as queries:
            yield queries
    finally:
        request_finished.connect(checks_after_response, dispatch_uid="licence-checks")


def both(two_clubs, attempt) -> list[list[str]]:
    """`attempt(licence)` with A's licence then a fresh one, each rolled back; the shapes of
    the statements each ran, and the conflicts the held one opened once the response is sent."""
    runs = []
    for licence in (HELD, FRESH):
        with then_forgotten():
            with request_statements() as queries:
                attempt(licence)
            runs.append([shape(query["sql"]) for query in queries.captured_queries])
            licence_checks_process()
            opened = LicenceConflict.objects.filter(existing=two_clubs["held"]).count()
            assert opened == (1 if licence == HELD else 0)
    return runs


def assert_same_work(runs: list[list[str]]) -> None:
    held, fresh = runs
    assert len(held) == len(fresh), [s for s in held if s not in fresh]
    assert held == fresh


def test_the_desk_registration_runs_the_same_statements_held_or_not(client, two_clubs):
    client.force_login(two_clubs["admin-b"])

    def attempt(licence):
        response = register(client, two_clubs["b-evening"], last_name="Voleur", licence=licence)
        assert response.status_code == 302

    assert_same_work(both(two_clubs, attempt))


def test_a_sign_up_runs_the_same_statements_held_or_not(client, two_clubs):
    evening = two_clubs["b-evening"]
    Tournament.objects.filter(pk=evening.pk).update(signup_open=True)

    def attempt(licence):
        data = {"last_name": "Voleur", "first_name": "Bob", "licence": licence, "club": "",
                "website": "", "stamp": signup.form_stamp(now=time.time() - 30)}  # fmt: skip
        response = client.post(reverse("signup", args=[evening.pk]), data)
        assert response.status_code == 302

    assert_same_work(both(two_clubs, attempt))


def test_an_import_runs_the_same_statements_held_or_not(client, two_clubs):
    client.force_login(two_clubs["admin-b"])
    url = reverse("player-import", args=[two_clubs["b-evening"].pk])

    def attempt(licence):
        rows = f"nom;prénom;licence\nVoleur;Bob;{licence}\nLibre;Un;\n"
        client.post(url, {"file": SimpleUploadedFile("j.csv", rows.encode())})
        assert client.post(url, {"confirm": "1"}).status_code == 302

    assert_same_work(both(two_clubs, attempt))


def test_a_restore_runs_the_same_statements_held_or_not(client, two_clubs):
    client.force_login(two_clubs["arbitre-b"])

    def attempt(licence):
        source = Tournament.objects.create(
            name="Copie", date="2026-11-21", owner=two_clubs["admin-b"],
            host_club=two_clubs["Club Beta"],
        )  # fmt: skip
        copied = Player.objects.create(last_name="Copie", licence=licence)
        Registration.objects.create(tournament=source, player=copied, number=1)
        document = tournament_export_json(source)
        source.delete()
        copied.delete()
        raw = SimpleUploadedFile("sauvegarde.json", document.encode())
        response = client.post(reverse("tournament-restore"), {"file": raw})
        assert response.status_code == 302

    assert_same_work(both(two_clubs, attempt))


def test_a_script_s_check_waits_for_the_command_not_for_anybodys_request(client, two_clubs):
    """Only what a request queued is looked at after it (another request's time tells
    nothing either); what a script queued is done by `manage.py licence_checks`."""
    from django.core.management import call_command

    from tournament.models import LicenceCheck
    from tournament.players.registrations import player_register

    player_register(tournament=two_clubs["b-evening"], last_name="Voleur", licence=HELD)
    client.force_login(two_clubs["admin-b"])
    assert client.get(reverse("home")).status_code == 200
    assert LicenceCheck.objects.count() == 1 and not LicenceConflict.objects.exists()
    call_command("licence_checks", stdout=io.StringIO())
    assert not LicenceCheck.objects.exists()
    assert LicenceConflict.objects.get().existing == two_clubs["held"]
