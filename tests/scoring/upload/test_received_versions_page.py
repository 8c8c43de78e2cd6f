"""On the comité's server, a received tournament's versions are listed (number, when, key,
digest) on a page its staff and the comité's administrators see, linked from the tournament;
the public does not see it (issue 40)."""

from __future__ import annotations

import hashlib
import html

import pytest
from django.test import Client
from django.urls import reverse

from scoring.upload.keys import key_authenticate, upload_key_issue
from scoring.upload.receive import results_receive
from tests.scoring.upload.test_receive_versions import corrected

pytestmark = pytest.mark.django_db


def test_the_versions_are_listed_for_the_staff_not_the_public(
    client, arbiter, django_user_model, club, finished, document
):
    row, key = upload_key_issue(club=club, user=arbiter, label="Portable du club")
    row_key = key_authenticate(f"Bearer {key}", address="192.0.2.1")
    first = results_receive(key=row_key, raw=document).version
    second_raw = corrected(finished, arbiter)
    second = results_receive(key=row_key, raw=second_raw).version
    tournament = second.tournament
    page = reverse("tournament-received-versions", args=[tournament.pk])

    client.force_login(arbiter)  # the key's issuer owns the received tournament
    detail = client.get(reverse("tournament-detail", args=[tournament.pk])).content.decode()
    assert page in detail
    listed = html.unescape(client.get(page).content.decode())
    for version, raw in ((first, document), (second, second_raw)):
        assert f'<tr data-number="{version.number}">' in listed
        assert hashlib.sha256(raw).hexdigest() in listed
    assert row.prefix in listed and "Portable du club" in listed
    assert listed.index('data-number="1"') < listed.index('data-number="2"')

    comite = django_user_model.objects.create_superuser("comite", password="x")
    client.force_login(comite)
    assert client.get(page).status_code == 200

    assert Client().get(page).status_code in (302, 403)  # the public: the login page
    stranger = django_user_model.objects.create_user("passant", password="x")
    client.force_login(stranger)
    assert client.get(page).status_code in (403, 404)
