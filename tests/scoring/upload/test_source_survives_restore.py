"""A tournament's identity on the comité's server survives a backup and a restore (issue 40):
the same evening restored onto another laptop and sent again is version N+1 of the same
tournament on the server, counted once; an explicit copy (`restore_tournament --copy`) is a new
tournament there."""

from __future__ import annotations

import io
import urllib.request

import pytest
from django.core.management import call_command

from scoring.upload.send import comite_server_save, results_send
from scoring.uploads import ReceivedVersion, ResultsSend
from tests.scoring.upload.test_send_from_laptop import SERVER, Routed
from tournament.models import Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def routed(monkeypatch) -> Routed:
    opener = Routed()
    monkeypatch.setattr(urllib.request, "urlopen", opener)
    return opener


def _sent_then_moved(finished, key, tmp_path, arbiter, *, copy: bool = False) -> Tournament:
    """Send from the first laptop, back it up, lose that laptop, restore onto another."""
    comite_server_save(url=SERVER, key=key)
    first = results_send(tournament=finished)
    assert first.version == 1
    path = tmp_path / "soiree.json"
    call_command("backup_tournament", finished.pk, output=str(path), stdout=io.StringIO())
    finished.delete()  # the first laptop's tournament and its sending are gone
    before = set(Tournament.objects.values_list("pk", flat=True))
    call_command(
        "restore_tournament", str(path), owner=arbiter.username, copy=copy, stdout=io.StringIO()
    )
    return Tournament.objects.exclude(pk__in=before).get()


def test_the_same_evening_restored_elsewhere_is_the_next_version(
    finished, key, routed, tmp_path, arbiter
):
    source = ResultsSend.objects.get_or_create(
        tournament=finished, defaults={"source": "evening-source-01"}
    )[0].source
    restored = _sent_then_moved(finished, key, tmp_path, arbiter)
    assert ResultsSend.objects.get(tournament=restored).source == source
    on_server = ReceivedVersion.objects.get().tournament_id
    tournaments = Tournament.objects.count()

    again = results_send(tournament=restored)
    assert again.status == ResultsSend.Status.RECEIVED and again.version == 2
    versions = ReceivedVersion.objects.order_by("number")
    assert [(v.source, v.number, v.tournament_id) for v in versions] == [
        (source, 1, on_server),
        (source, 2, on_server),
    ]
    assert Tournament.objects.count() == tournaments  # no second tournament on the server


def test_an_explicit_copy_is_a_new_tournament_on_the_server(
    finished, key, routed, tmp_path, arbiter
):
    restored = _sent_then_moved(finished, key, tmp_path, arbiter, copy=True)
    assert not ResultsSend.objects.filter(tournament=restored).exists()
    copy = results_send(tournament=restored)
    assert copy.version == 1
    assert ReceivedVersion.objects.values("source").distinct().count() == 2


def test_a_restore_beside_the_original_is_a_copy(finished, key, routed, tmp_path, arbiter):
    comite_server_save(url=SERVER, key=key)
    original = results_send(tournament=finished)
    path = tmp_path / "soiree.json"
    call_command("backup_tournament", finished.pk, output=str(path), stdout=io.StringIO())
    call_command("restore_tournament", str(path), owner=arbiter.username, stdout=io.StringIO())
    assert list(ResultsSend.objects.values_list("source", flat=True)) == [original.source]
