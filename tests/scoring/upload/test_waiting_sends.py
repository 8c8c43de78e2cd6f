"""A sending the network failed waits on the laptop (issue 40): the comité settings page lists
it with its last error in French and a button to try again; trying again after the server had
stored the document but its answer was lost stores nothing more (the document's digest is the
idempotency key, and the server checks the body against it)."""

from __future__ import annotations

import hashlib
import html
import re
import urllib.error
import urllib.request

import pytest
from django.test import Client
from django.urls import reverse

from scoring.upload.send import comite_server_save
from scoring.uploads import ReceivedVersion, ResultsSend
from tests.scoring.upload.test_send_from_laptop import SERVER, Routed

pytestmark = pytest.mark.django_db


class AnswerLost(Routed):
    """The server receives and stores the document; the connection drops before its answer."""

    def __call__(self, request, timeout=0, **_tls):
        super().__call__(request, timeout)
        raise urllib.error.URLError(ConnectionResetError(104, "Connection reset by peer"))


def test_a_lost_answer_waits_is_listed_and_its_retry_stores_once(
    arbiter_client, finished, key, monkeypatch
):
    comite_server_save(url=SERVER, key=key)
    lost = AnswerLost()
    monkeypatch.setattr(urllib.request, "urlopen", lost)
    arbiter_client.post(reverse("tournament-send", args=[finished.pk]))
    sending = ResultsSend.objects.get(tournament=finished)
    assert sending.status == ResultsSend.Status.WAITING
    assert ReceivedVersion.objects.count() == 1  # the server did store it

    page = html.unescape(arbiter_client.get(reverse("comite-settings")).content.decode())
    listed = re.search(r'<section id="waiting-sends">(.*?)</section>', page, re.S).group(1)
    assert finished.name in listed
    assert "Serveur du comité injoignable : connexion coupée en cours d'envoi" in listed
    assert "Réessayer l'envoi" in listed
    retry = re.search(r'<form method="post" action="([^"]+)"', listed).group(1)

    routed = Routed()
    monkeypatch.setattr(urllib.request, "urlopen", routed)
    arbiter_client.post(retry)
    sending.refresh_from_db()
    assert sending.status == ResultsSend.Status.RECEIVED and sending.attempts == 2
    assert "Déjà reçu : version 1" in sending.message
    assert routed.sent == lost.sent  # the same document, under the same idempotency key
    assert ReceivedVersion.objects.count() == 1
    page = html.unescape(arbiter_client.get(reverse("comite-settings")).content.decode())
    assert 'id="waiting-sends"' not in page


def test_a_body_that_is_not_the_one_its_key_names_is_refused(key, document):
    response = Client().post(
        reverse("results-upload"),
        data=document.replace(b"Tournoi test", b"Tournoi TEST"),
        content_type="application/json",
        headers={
            "Authorization": f"Bearer {key}",
            "Idempotency-Key": hashlib.sha256(document).hexdigest(),
        },
    )
    assert response.status_code == 400
    assert "altéré en route" in response.json()["message"]
    assert not ReceivedVersion.objects.exists()
