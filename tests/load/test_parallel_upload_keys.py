"""Wrong upload keys sent all at once to a multi-process server (issue 40): gunicorn with two
workers on a throw-away database (a SQLite file on the suite's SQLite run, PostgreSQL on its
PostgreSQL run), threads released together by one barrier (tests/load/parallel_site.py). Each
wrong key is one atomic statement of the site's attempt counter (tournament.access.throttle),
so exactly WRONG_KEY_ALLOWANCE of them are checked and the others get the lock's French
message, however they are spread over the processes; the club's valid key, sent from that
locked address, is still taken.
"""

from __future__ import annotations

import http.client
import json
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from bench.common import HOST, ROOT
from scoring.upload.keys import WRONG_KEY_ALLOWANCE
from tests.load.engines import ON_POSTGRES
from tests.load.parallel_site import Answer, ServedSite, all_at_once, served_site, tally

GUESSES = 80
ENDPOINT = "/api/comite/resultats/"
LOCKED = "Trop de clés d'envoi erronées depuis cette adresse"
UNKNOWN = "Clé d'envoi inconnue"
# A Django step on the served database: one club and its upload key, printed.
ISSUE_KEY = """
from bench.common import setup_django
setup_django()
from scoring.upload.keys import upload_key_issue
from tournament.models import Club
print(upload_key_issue(club=Club.objects.create(name="Club de Chalon"), user=None)[1])
"""

pytestmark = [pytest.mark.slow, pytest.mark.database]


@pytest.fixture(scope="module")
def site() -> Iterator[tuple[ServedSite, str]]:
    with tempfile.TemporaryDirectory(prefix="tarot-upload-keys-") as tmp:
        kind = "postgres" if ON_POSTGRES else "sqlite"
        with served_site(kind, Path(tmp), workers=2) as served:
            issued = subprocess.run(
                [sys.executable, "-c", ISSUE_KEY],
                env=served.env,
                cwd=ROOT,
                check=True,
                capture_output=True,
                text=True,
            )
            yield served, issued.stdout.strip().splitlines()[-1]


def post(port: int, key: str) -> Answer:
    conn = http.client.HTTPConnection(HOST, port, timeout=60)
    try:
        headers = {"Authorization": f"Bearer {key}", "Content-Type": "application/json"}
        conn.request("POST", ENDPOINT, body=b"{}", headers=headers)
        response = conn.getresponse()
        text = response.read().decode()
    finally:
        conn.close()
    return Answer(response.status, "", json.loads(text)["message"], {})


def test_parallel_wrong_keys_check_exactly_the_allowance_and_spare_the_valid_key(site):
    served, key = site
    answers = all_at_once(GUESSES, lambda i: post(served.port, f"tdk_guess-{i:04d}"))
    counts = tally(
        answers,
        checked=lambda a: a.status == 401 and UNKNOWN in a.text,
        locked=lambda a: a.status == 429 and LOCKED in a.text,
    )
    assert (counts["checked"], counts["locked"]) == (
        WRONG_KEY_ALLOWANCE,
        GUESSES - WRONG_KEY_ALLOWANCE,
    ), counts
    assert served.read_back()["counters"]["upload-key:127.0.0.1"] == WRONG_KEY_ALLOWANCE
    # The club's key from the locked address: taken (its empty document is what is refused).
    valid = post(served.port, key)
    assert valid.status == 400 and "Rien n'a été enregistré" in valid.text, valid
    assert post(served.port, "tdk_guess-after").status == 429
    for log in served.logs:
        text = log.read_text()
        assert "Traceback" not in text and "Internal Server Error" not in text, text[-3000:]
