"""The laptop's side of sending results (issue 40): the comité server's settings (the key never
shown again), "Envoyer au serveur du comité" on a finished tournament, the server's answer shown
in French, and a sending that waits without network, tried again from the page or with
`manage.py send_results`. The server's side runs in the same test process (its endpoint through
Django's test client); tests/load/test_send_results_two_servers.py runs two real servers."""

from __future__ import annotations

import html
import io
import urllib.error
import urllib.request
from email.message import Message
from urllib.parse import urlsplit

import pytest
from django.core.management import CommandError, call_command
from django.test import Client
from django.urls import reverse

from scoring.upload.keys import upload_key_revoke
from scoring.upload.send import comite_server, comite_server_save
from scoring.uploads import ReceivedVersion, ResultsSend, UploadKey

pytestmark = pytest.mark.django_db

SERVER = "https://comite.example.org"


class Routed:
    """urlopen for the laptop: the request goes to this test's server (Django's test client)."""

    def __init__(self):
        self.client = Client()
        self.sent: list[bytes] = []

    def __call__(self, request: urllib.request.Request, timeout: float = 0, **_tls):
        assert request.full_url.startswith(SERVER)
        body = request.data
        assert isinstance(body, bytes)
        self.sent.append(body)
        response = self.client.generic(
            "POST",
            urlsplit(request.full_url).path,
            body,
            content_type="application/json",
            HTTP_AUTHORIZATION=request.get_header("Authorization"),
            HTTP_IDEMPOTENCY_KEY=request.get_header("Idempotency-key"),
        )
        if response.status_code >= 400:
            raise urllib.error.HTTPError(
                request.full_url, response.status_code, "", Message(), io.BytesIO(response.content)
            )
        answer = io.BytesIO(response.content)
        answer.status = response.status_code  # type: ignore[attr-defined]
        return answer


def text(response) -> str:
    return html.unescape(response.content.decode())


def no_network(request, timeout=0, **_tls):
    raise urllib.error.URLError(OSError(101, "Network is unreachable"))


@pytest.fixture
def routed(monkeypatch) -> Routed:
    opener = Routed()
    monkeypatch.setattr(urllib.request, "urlopen", opener)
    return opener


def test_the_settings_keep_the_key_and_never_show_it(arbiter_client, key):
    url = reverse("comite-settings")
    response = arbiter_client.post(url, {"url": SERVER + "/", "key": key})
    assert response.status_code == 302
    assert (comite_server().url, comite_server().key) == (SERVER, key)
    page = text(arbiter_client.get(url))
    assert key not in page and SERVER in page and "Une clé est enregistrée" in page
    arbiter_client.post(url, {"url": SERVER, "key": ""})  # blank: the key is kept
    assert comite_server().key == key


def test_the_settings_need_a_key_the_first_time(arbiter_client):
    response = arbiter_client.post(reverse("comite-settings"), {"url": SERVER, "key": ""})
    assert response.status_code == 200
    assert "Indiquez la clé d'envoi" in text(response)


def test_a_finished_tournament_offers_the_sending(arbiter_client, finished):
    page = text(arbiter_client.get(reverse("tournament-detail", args=[finished.pk])))
    assert "Envoyer au serveur du comité" in page
    assert reverse("tournament-send", args=[finished.pk]) in page


def test_without_network_the_sending_waits_then_the_command_sends_it(
    arbiter_client, finished, key, monkeypatch
):
    comite_server_save(url=SERVER, key=key)
    monkeypatch.setattr(urllib.request, "urlopen", no_network)
    send_page = reverse("tournament-send", args=[finished.pk])
    arbiter_client.post(send_page)
    sending = ResultsSend.objects.get(tournament=finished)
    assert sending.status == ResultsSend.Status.WAITING and sending.attempts == 1
    assert "injoignable" in text(arbiter_client.get(send_page))
    with pytest.raises(CommandError, match="toujours en attente"):
        call_command("send_results", stdout=io.StringIO())
    assert not ReceivedVersion.objects.exists()

    routed = Routed()
    monkeypatch.setattr(urllib.request, "urlopen", routed)
    out = io.StringIO()
    call_command("send_results", stdout=out)
    sending.refresh_from_db()
    assert sending.status == ResultsSend.Status.RECEIVED and sending.version == 1
    version = ReceivedVersion.objects.get()
    assert sending.link.endswith(f"/public/{version.tournament_id}/")
    assert "Reçu : version 1" in out.getvalue()
    page = text(arbiter_client.get(send_page))
    assert "Reçu : version 1" in page and sending.link in page


def test_a_double_click_stores_once(arbiter_client, finished, key, routed):
    comite_server_save(url=SERVER, key=key)
    send_page = reverse("tournament-send", args=[finished.pk])
    arbiter_client.post(send_page)
    arbiter_client.post(send_page)
    assert routed.sent[0] == routed.sent[1]  # the same document, the same digest
    assert ReceivedVersion.objects.count() == 1
    sending = ResultsSend.objects.get(tournament=finished)
    assert sending.version == 1 and "Déjà reçu : version 1" in sending.message


def test_a_refusal_is_shown_with_its_reason(arbiter_client, finished, key, club, routed):
    comite_server_save(url=SERVER, key=key)
    upload_key_revoke(club=club, key_id=UploadKey.objects.get().pk)
    send_page = reverse("tournament-send", args=[finished.pk])
    arbiter_client.post(send_page)
    sending = ResultsSend.objects.get(tournament=finished)
    assert sending.status == ResultsSend.Status.REFUSED
    assert "Clé d'envoi révoquée" in text(arbiter_client.get(send_page))


def test_an_unfinished_tournament_is_not_sent(arbiter_client, finished, key, routed):
    comite_server_save(url=SERVER, key=key)
    finished.status = finished.Status.RUNNING
    finished.save(update_fields=["status"])
    response = arbiter_client.post(reverse("tournament-send", args=[finished.pk]), follow=True)
    assert "Seul un tournoi terminé" in text(response)
    assert not routed.sent
