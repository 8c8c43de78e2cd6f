"""Every kind of page carries the one Content-Security-Policy: the arbiter's desk, the public and
players' pages, the hall screen, the admin, the login and lockout pages, the PDFs and every error
page (those the middleware answers included)."""

import pytest
from django.contrib.auth.models import User
from django.http import HttpRequest
from django.test import Client, override_settings
from django.urls import include, path, reverse

from scoring.models import ScoreSheet
from scoring.sheets.table_entry import links_for_position
from tournament.evening import hall
from tournament.models import Tournament

POLICY = {
    "default-src": ["'self'"],
    "script-src": ["'self'"],
    "style-src": ["'self'"],
    "img-src": ["'self'", "data:"],
    "object-src": ["'none'"],
    "base-uri": ["'self'"],
    "form-action": ["'self'"],
    "frame-ancestors": ["'none'"],
}


def policy_of(response) -> dict[str, list[str]]:
    header = response.headers.get("Content-Security-Policy")
    assert header, f"no Content-Security-Policy on {response.status_code} {response}"
    directives = [part.split() for part in header.split(";") if part.strip()]
    return {name: values for name, *values in directives}


def assert_policy(response, status: int = 200) -> None:
    assert response.status_code == status, response.content[:300]
    assert policy_of(response) == POLICY
    assert "Content-Security-Policy-Report-Only" not in response.headers


@pytest.fixture
def evening(after_position_1):
    """The staged tournament, public, open to sign-ups, phones entering, with a hall link."""
    Tournament.objects.filter(pk=after_position_1.pk).update(
        is_public=True, signup_open=True, entry_mode=Tournament.EntryMode.BOTH
    )
    tournament = hall.hall_link_create(tournament=Tournament.objects.get(pk=after_position_1.pk))
    position = tournament.positions.get(number=1)
    return {
        "tournament": tournament,
        "sheet": ScoreSheet.objects.get(tournament=tournament, table__position=position),
        "link": links_for_position(position)[0],
    }


def test_the_arbiters_pages_carry_the_policy(client, arbiter, evening):
    client.force_login(arbiter)
    tournament = evening["tournament"]
    for url in (
        reverse("home"),
        reverse("tournament-detail", args=[tournament.pk]),  # the cockpit
        reverse("sheet-detail", args=[evening["sheet"].pk]),  # the desk's sheet entry
        reverse("entry-overview", args=[tournament.pk]),
        reverse("checkin", args=[tournament.pk]),
    ):
        assert_policy(client.get(url))
    # An htmx fragment and a PDF too.
    assert_policy(client.get(reverse("cockpit-live", args=[tournament.pk])))
    pdf = client.get(reverse("print-ranking", args=[tournament.pk]))
    assert_policy(pdf)
    assert pdf["Content-Type"] == "application/pdf"


def test_the_public_and_players_pages_carry_the_policy(client, evening):
    tournament, link = evening["tournament"], evening["link"]
    for url in (
        reverse("public-tournament", args=[tournament.pk]),
        reverse("hall-screen", args=[tournament.hall_token]),
        reverse("table-code"),
        reverse("table-entry", args=[link.token]),
        reverse("signup", args=[tournament.pk]),
        reverse("login"),
    ):
        assert_policy(client.get(url))


def test_the_admin_carries_the_policy(client, evening):
    assert_policy(client.get("/admin/login/"))
    client.force_login(User.objects.create_superuser("chef", password="pw-chef-12345"))
    assert_policy(client.get("/admin/"))
    assert_policy(client.get("/admin/auth/user/add/"))


def test_the_lockout_page_carries_the_policy(client, arbiter):
    for _attempt in range(5):
        client.post(reverse("login"), {"username": "arbitre-test", "password": "faux"})
    locked = client.post(reverse("login"), {"username": "arbitre-test", "password": "faux"})
    assert_policy(locked, status=429)


def test_error_pages_carry_the_policy(client, django_user_model, evening):
    assert_policy(client.get("/pas-de-page-ici/"), status=404)
    assert_policy(client.get("/", headers={"host": "evil.example"}), status=400)
    # A tournament of somebody else's: 403.
    stranger = django_user_model.objects.create_user("inconnu", password="pw-inconnu-1")
    client.force_login(stranger)
    assert_policy(client.get(reverse("tournament-detail", args=[evening["tournament"].pk])), 403)
    # The CSRF refusal, answered by the middleware.
    strict = Client(enforce_csrf_checks=True)
    assert_policy(strict.post(reverse("login"), {"username": "x", "password": "y"}), status=403)


def boom(request: HttpRequest):
    raise RuntimeError("a bug")


urlpatterns = [path("boom/", boom), path("", include("tournament.urls"))]


@override_settings(ROOT_URLCONF=__name__)
def test_the_server_error_page_carries_the_policy(db):
    client = Client(raise_request_exception=False)
    response = client.get("/boom/")
    assert_policy(response, status=500)
    assert b"error.css" in response.content
