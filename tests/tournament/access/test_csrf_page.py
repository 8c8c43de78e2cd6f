"""A form posted without its security token is refused in French (not Django's "Forbidden")."""

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation


@pytest.mark.django_db
def test_a_post_without_its_token_gets_the_french_refusal(arbiter):
    client = Client(enforce_csrf_checks=True)
    client.force_login(arbiter)
    response = client.post(reverse("tournament-create"), {"name": "Open"})
    assert response.status_code == 403
    page = response.content.decode()
    assert "<title>Formulaire expiré — Tarot Desk</title>" in page
    assert "Forbidden" not in page and "CSRF" not in page


@pytest.mark.django_db
def test_the_refusal_reads_in_english_for_an_english_reader(arbiter, english_catalogue):
    client = Client(enforce_csrf_checks=True, headers={"accept-language": "en"})
    client.force_login(arbiter)
    with translation.override("en"):
        response = client.post(reverse("tournament-create"), {"name": "Open"})
    assert response.status_code == 403
    page = response.content.decode()
    assert "<title>Form expired — Tarot Desk</title>" in page and "Formulaire" not in page
