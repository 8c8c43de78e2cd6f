"""A club's administrator issues the club's upload keys in the club's pages (issue 40): the key
shown once, listed afterwards by its start with its last use, revocable; an arbiter of the club
who is not its administrator may not."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from scoring.upload.keys import key_authenticate, key_digest
from scoring.uploads import UploadKey
from tests.club_helpers import join_club

pytestmark = pytest.mark.django_db


def test_the_key_is_shown_once_then_listed_and_revoked(arbiter_client, club):
    page = reverse("club-upload-keys", args=[club.pk])
    assert (
        reverse("club-upload-keys", args=[club.pk])
        in arbiter_client.get(reverse("club-members", args=[club.pk])).content.decode()
    )
    posted = arbiter_client.post(page, {"label": "Portable du club"})
    assert posted.status_code == 302 and posted.url == page  # post/redirect/get
    issued = arbiter_client.get(page).content.decode()
    key = re.search(r"<code>(tdk_[A-Za-z0-9_-]+)</code>", issued).group(1)
    row = UploadKey.objects.get()
    assert row.club == club and row.digest == key_digest(key) and row.label == "Portable du club"
    listed = arbiter_client.get(page).content.decode()
    assert key not in listed and row.prefix in listed and "jamais" in listed
    arbiter_client.post(reverse("club-upload-key-revoke", args=[club.pk, row.pk]))
    row.refresh_from_db()
    assert row.revoked_at is not None
    assert "révoquée le" in arbiter_client.get(page).content.decode()


def test_only_the_clubs_administrator_issues_keys(client, django_user_model, club):
    member = django_user_model.objects.create_user("simple-arbitre", password="pw-1-arbitre")
    join_club(member, name=club.name, role="arbiter")
    client.force_login(member)
    response = client.post(reverse("club-upload-keys", args=[club.pk]), {"label": "x"})
    assert response.status_code in (302, 403)
    assert not UploadKey.objects.exists()


def test_another_clubs_key_cannot_be_revoked_from_this_club(arbiter_client, arbiter, club):
    other = join_club(arbiter, name="Club voisin", role="arbiter")
    from scoring.upload.keys import upload_key_issue

    row, key = upload_key_issue(club=other, user=arbiter)
    arbiter_client.post(reverse("club-upload-key-revoke", args=[club.pk, row.pk]))
    assert key_authenticate(f"Bearer {key}", address="192.0.2.1") == row  # still valid


def test_a_reload_after_issuing_issues_no_second_key(arbiter_client, club):
    page = reverse("club-upload-keys", args=[club.pk])
    shown = arbiter_client.post(page, {"label": "Portable"}, follow=True).content.decode()
    key = re.search(r"<code>(tdk_[A-Za-z0-9_-]+)</code>", shown).group(1)
    reloaded = arbiter_client.get(page).content.decode()  # the browser's reload: a GET
    assert UploadKey.objects.count() == 1
    assert key not in reloaded and 'id="issued-key"' not in reloaded  # shown once
