"""A finished tournament with every kind of incident, of the arbiter's club, and an upload key of
that club: the laptop and the comité's server share this test database (the end-to-end test,
tests/load/test_send_results_two_servers.py, runs them as two processes)."""

from __future__ import annotations

import json

import pytest

from scoring.upload.keys import upload_key_issue
from scoring.upload.send import upload_document
from tests.club_helpers import roster_club
from tests.scoring.documents.report_tournament import build_report_tournament
from tournament.models import Tournament

SOURCE = "laptop-source-0001"


@pytest.fixture
def club(arbiter):
    return roster_club()  # the arbiter administers it


@pytest.fixture
def finished(arbiter, club) -> Tournament:
    tournament = build_report_tournament(arbiter)["tournament"]
    Tournament.objects.filter(pk=tournament.pk).update(host_club=club, is_public=True)
    tournament.refresh_from_db()
    return tournament


@pytest.fixture
def key(arbiter, club) -> str:
    return upload_key_issue(club=club, user=arbiter, label="Portable")[1]


@pytest.fixture
def document(finished) -> bytes:
    return upload_document(finished, source=SOURCE)


def edited(document: bytes, change) -> bytes:
    """The document with `change(data)` applied to its JSON."""
    data = json.loads(document)
    change(data)
    return json.dumps(data, ensure_ascii=False).encode()
