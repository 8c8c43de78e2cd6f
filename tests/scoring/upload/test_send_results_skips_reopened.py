"""`manage.py send_results` names each waiting tournament, skips one reopened since with its
reason, sends the others and fails only while something still waits; the comité settings page
offers no retry for a reopened tournament (issue 40)."""

from __future__ import annotations

import html
import io
import re
import urllib.request

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse

from scoring.upload.send import comite_server_save, results_send
from scoring.uploads import ReceivedVersion, ResultsSend
from tests.scoring.upload.test_send_from_laptop import SERVER, Routed, no_network
from tournament.models import Tournament

pytestmark = pytest.mark.django_db


def _two_waiting(finished, key, monkeypatch) -> tuple[Tournament, Tournament]:
    """Two finished tournaments whose sending waits; the first (by pk) reopened since."""
    comite_server_save(url=SERVER, key=key)
    second = Tournament.objects.get(pk=finished.pk)
    second.pk = None
    second.name = "Deuxième soirée"
    second.save()
    monkeypatch.setattr(urllib.request, "urlopen", no_network)
    results_send(tournament=finished)
    results_send(tournament=second)
    Tournament.objects.filter(pk=finished.pk).update(status=Tournament.Status.RUNNING)
    return finished, second


def test_a_reopened_tournament_is_skipped_and_the_others_sent(finished, key, monkeypatch):
    reopened, second = _two_waiting(finished, key, monkeypatch)
    monkeypatch.setattr(urllib.request, "urlopen", Routed())
    out = io.StringIO()
    with pytest.raises(CommandError, match="1 envoi toujours en attente"):
        call_command("send_results", stdout=out)
    said = out.getvalue()
    assert f"{reopened.name} : non envoyé. Seul un tournoi terminé" in said
    assert "terminez-le d'abord" in said
    assert f"{second.name} : Reçu par le serveur." in said
    assert ResultsSend.objects.get(tournament=second).status == ResultsSend.Status.RECEIVED
    assert ResultsSend.objects.get(tournament=reopened).status == ResultsSend.Status.WAITING
    assert ReceivedVersion.objects.count() == 1

    Tournament.objects.filter(pk=reopened.pk).update(status=Tournament.Status.FINISHED)
    call_command("send_results", stdout=io.StringIO())  # nothing waits: no error
    assert ReceivedVersion.objects.count() == 2


def test_the_settings_page_offers_no_retry_for_a_reopened_tournament(
    arbiter_client, finished, key, monkeypatch
):
    reopened, second = _two_waiting(finished, key, monkeypatch)
    page = html.unescape(arbiter_client.get(reverse("comite-settings")).content.decode())
    items = dict(re.findall(r'<li data-tournament="(\d+)">(.*?)</li>', page, re.S))
    assert "<button" not in items[str(reopened.pk)]
    assert "terminez-le d'abord" in items[str(reopened.pk)]
    assert "Réessayer l'envoi</button>" in items[str(second.pk)]
