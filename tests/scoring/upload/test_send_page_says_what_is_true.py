"""The laptop's send page says what is true of the server's copy (issue 40): after the
tournament was reopened and corrected, the server still has version N and this laptop's
tournament changed since (send again); while the new send waits, the server has version N and
the next one waits."""

from __future__ import annotations

import html
import re
import urllib.request

import pytest
from django.urls import reverse

from scoring.sheets.services import incident_record
from scoring.upload.send import comite_server_save
from tests.scoring.upload.test_send_from_laptop import SERVER, Routed, no_network
from tournament.access.lifecycle import tournament_finish, tournament_reopen

pytestmark = pytest.mark.django_db


def said(client, tournament) -> str:
    page = client.get(reverse("tournament-send", args=[tournament.pk])).content.decode()
    found = re.search(r'<section id="sending"[^>]*>(.*?)</section>', html.unescape(page), re.S)
    return " ".join(re.sub(r"<[^>]+>", " ", found.group(1)).split()) if found else ""


def test_the_page_says_the_servers_copy_is_out_of_date(
    arbiter_client, finished, key, arbiter, monkeypatch
):
    comite_server_save(url=SERVER, key=key)
    monkeypatch.setattr(urllib.request, "urlopen", Routed())
    send_page = reverse("tournament-send", args=[finished.pk])
    arbiter_client.post(send_page)
    assert "Reçu par le serveur — version 1" in said(arbiter_client, finished)
    assert "changé depuis" not in said(arbiter_client, finished)

    finished = tournament_reopen(tournament=finished, reason="Pénalité oubliée", user=arbiter)
    assert "a changé depuis" in said(arbiter_client, finished)
    incident_record(
        tournament=finished,
        kind="ethics",
        registration=finished.registrations.order_by("number").first(),
        decision="Avertissement",
        penalty_points=25,
        user=arbiter,
    )
    finished = tournament_finish(tournament=finished, user=arbiter)
    text = said(arbiter_client, finished)
    assert "Reçu par le serveur" not in text
    assert "Le serveur du comité a la version 1 de ce tournoi" in text
    assert "a changé depuis sur ce portable" in text and "envoyez-le à nouveau" in text
    page = html.unescape(arbiter_client.get(send_page).content.decode())
    assert "Envoyer la nouvelle version" in page

    monkeypatch.setattr(urllib.request, "urlopen", no_network)
    arbiter_client.post(send_page)
    text = said(arbiter_client, finished)
    assert "En attente d'envoi — le serveur du comité a la version 1" in text
    assert "version suivante attend d'être envoyée" in text

    monkeypatch.setattr(urllib.request, "urlopen", Routed())
    arbiter_client.post(send_page)
    text = said(arbiter_client, finished)
    assert "Reçu par le serveur — version 2" in text and "changé depuis" not in text
