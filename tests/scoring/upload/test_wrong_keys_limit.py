"""Wrong upload keys are bounded per source address (issue 40): the WRONG_KEY_ALLOWANCE-th
wrong key from one address locks it, with a French message saying how long; the club's valid
key is still taken from that very address; another address is not locked. Counted by the
site's one attempt counter (tournament.access.throttle); real parallel requests to several
server processes: tests/load/test_parallel_upload_keys.py."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from django.urls import reverse

from scoring.upload.keys import (
    WRONG_KEY_ALLOWANCE,
    upload_key_issue,
    upload_key_revoke,
    wrong_keys_key,
)
from scoring.uploads import ReceivedVersion, UploadKey
from tournament.access import throttle

pytestmark = pytest.mark.django_db

GUESSER = "203.0.113.7"


def post(raw: bytes, key: str, address: str = GUESSER):
    return Client(REMOTE_ADDR=address).post(
        reverse("results-upload"),
        data=raw,
        content_type="application/json",
        headers={"Authorization": f"Bearer {key}"},
    )


def message(response) -> str:
    return json.loads(response.content)["message"]


def test_wrong_keys_lock_the_address_not_the_clubs_key(key, club, document):
    answers = [post(b"{}", f"tdk_guess{i:03d}") for i in range(WRONG_KEY_ALLOWANCE)]
    assert [a.status_code for a in answers] == [401] * WRONG_KEY_ALLOWANCE
    assert all("Clé d'envoi inconnue" in message(a) for a in answers)
    assert throttle.hits(wrong_keys_key(GUESSER)) == WRONG_KEY_ALLOWANCE

    locked = post(b"{}", "tdk_guess-next")
    assert locked.status_code == 429
    assert "Trop de clés d'envoi erronées depuis cette adresse" in message(locked)
    assert "minutes" in message(locked)
    assert ReceivedVersion.objects.count() == 0

    # The club's own key, from the same address while it is locked: taken and stored.
    sent = post(document, key)
    assert sent.status_code == 201, message(sent)
    assert ReceivedVersion.objects.count() == 1
    # Another address is not concerned.
    assert post(b"{}", "tdk_other", address="198.51.100.2").status_code == 401


def test_a_revoked_key_counts_as_a_wrong_one(club):
    row, revoked = upload_key_issue(club=club, user=None)
    upload_key_revoke(club=club, key_id=row.pk)
    for _i in range(WRONG_KEY_ALLOWANCE - 1):
        assert "révoquée" in message(post(b"{}", revoked))
    assert post(b"{}", revoked).status_code == 401  # the allowance-th: refused, and it locks
    assert post(b"{}", revoked).status_code == 429


def test_a_valid_key_neither_clears_nor_suffers_the_guessers_count(key, document):
    """A valid key from the address is taken, and leaves the address's count as it was: a
    guesser on the club's network gets no fresh allowance from the club's sends."""
    for i in range(WRONG_KEY_ALLOWANCE - 1):
        assert post(b"{}", f"tdk_typo{i:03d}").status_code == 401
    assert post(document, key).status_code == 201
    assert throttle.hits(wrong_keys_key(GUESSER)) == WRONG_KEY_ALLOWANCE - 1
    assert post(b"{}", "tdk_last-allowed").status_code == 401  # the allowance-th locks
    assert post(b"{}", "tdk_one-too-many").status_code == 429
    assert post(document, key).status_code == 200  # the club's key, even from a locked address


def test_reading_the_address_answers_in_french_json():
    response = Client().get(reverse("results-upload"))
    assert response.status_code == 405 and response["Allow"] == "POST"
    assert response["Content-Type"].startswith("application/json")
    assert "portable d'un club" in message(response)


def test_a_retry_already_received_is_the_keys_last_use(key, document):
    assert post(document, key).status_code == 201
    UploadKey.objects.update(last_used_at=None)
    again = post(document, key)
    assert again.status_code == 200 and "Déjà reçu" in message(again)
    assert UploadKey.objects.get().last_used_at is not None
