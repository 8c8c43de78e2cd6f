"""Cross-Origin-Opener-Policy is sent where a browser applies it (https, loopback) and not over
plain http on a club's LAN, where Chromium ignores it and logs an error on every phone page."""

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db

HEADER = "Cross-Origin-Opener-Policy"


@pytest.mark.parametrize("host", ["localhost:8000", "127.0.0.1:8000", "[::1]:8000"])
def test_loopback_keeps_the_opener_policy(host, settings):
    settings.ALLOWED_HOSTS = ["*"]
    response = Client().get("/table/", HTTP_HOST=host)
    assert response.headers[HEADER] == "same-origin"


def test_https_keeps_the_opener_policy(settings):
    settings.ALLOWED_HOSTS = ["*"]
    response = Client().get("/table/", HTTP_HOST="tarot.example.org", secure=True)
    assert response.headers[HEADER] == "same-origin"


def test_plain_http_on_a_lan_sends_none(settings):
    settings.ALLOWED_HOSTS = ["*"]
    response = Client().get("/table/", HTTP_HOST="club.lan:8000")
    assert response.status_code == 200
    assert HEADER not in response.headers


def test_a_disallowed_host_is_still_a_400(settings):
    settings.ALLOWED_HOSTS = ["club.lan"]
    response = Client().get("/table/", HTTP_HOST="evil.example")
    assert response.status_code == 400
