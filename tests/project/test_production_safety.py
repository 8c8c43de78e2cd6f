"""Production refuses unsafe settings at start-up; login throttling sees clients behind a proxy."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from axes.helpers import get_client_ip_address
from django.core.exceptions import ImproperlyConfigured
from django.test import RequestFactory, override_settings
from django.urls import reverse

from tournament.settings import DEVELOPMENT_SECRET_KEY, env_bool, env_int

ROOT = Path(__file__).resolve().parents[2]
PRODUCTION_KEY = "k" * 10 + "-a-production-secret-key-long-and-random-enough-0123456789"


def manage_check(*command: str, **variables: str) -> subprocess.CompletedProcess:
    """`manage.py check` (or `command`) in a fresh process with exactly these settings
    variables."""
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in {"DEBUG", "SECRET_KEY", "DJANGO_ALLOW_ASYNC_UNSAFE", "TRUSTED_PROXY_COUNT"}
    }
    env.update(variables)
    return subprocess.run(
        [sys.executable, "manage.py", *(command or ["check"])],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )


# --- SECRET_KEY -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "key",
    [None, "", "   ", DEVELOPMENT_SECRET_KEY],
    ids=["unset", "empty", "blank", "development-key"],
)
def test_production_refuses_to_start_without_its_own_secret_key(key):
    variables = {"DEBUG": "false"}
    if key is not None:
        variables["SECRET_KEY"] = key
    result = manage_check(**variables)
    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr
    assert "SECRET_KEY must be set when DEBUG is false" in result.stderr


def test_production_starts_with_a_secret_key():
    result = manage_check(DEBUG="false", SECRET_KEY=PRODUCTION_KEY)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_laptop_starts_without_a_secret_key():
    result = manage_check()
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.parametrize(
    ("variables", "kept"),
    [({}, 0), ({"DEBUG": "false", "SECRET_KEY": PRODUCTION_KEY}, 60)],
    ids=["laptop", "served"],
)
def test_a_served_site_keeps_its_database_connections_and_coalesces_its_standings(variables, kept):
    """Served (DEBUG false, as `make club` and production), a thread reuses its connection;
    the public standings are coalesced in both (scoring.live.shared)."""
    code = (
        "from django.conf import settings; "
        "print(settings.DATABASES['default']['CONN_MAX_AGE'], settings.LIVE_STANDINGS_COALESCE)"
    )
    result = manage_check("shell", "-c", code, **variables)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().splitlines()[-1].split() == [str(kept), "10"]


# --- yes/no and number variables ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("true", True),
        ("TRUE", True),
        (" True ", True),
        ("1", True),
        ("yes", True),
        ("On", True),
        ("false", False),
        ("False", False),
        ("0", False),
        ("no", False),
        ("OFF", False),
    ],
)
def test_env_bool_accepts_the_usual_spellings(monkeypatch, text, expected):
    monkeypatch.setenv("TAROT_TEST_FLAG", text)
    assert env_bool("TAROT_TEST_FLAG", not expected) is expected


@pytest.mark.parametrize("default", [True, False])
def test_env_bool_unset_or_empty_is_the_default(monkeypatch, default):
    monkeypatch.delenv("TAROT_TEST_FLAG", raising=False)
    assert env_bool("TAROT_TEST_FLAG", default) is default
    monkeypatch.setenv("TAROT_TEST_FLAG", "")
    assert env_bool("TAROT_TEST_FLAG", default) is default


@pytest.mark.parametrize("text", ["ture", "flase", "2", "y", "enabled"])
def test_env_bool_typo_is_an_error_naming_the_variable(monkeypatch, text):
    monkeypatch.setenv("TAROT_TEST_FLAG", text)
    with pytest.raises(ImproperlyConfigured, match="TAROT_TEST_FLAG"):
        env_bool("TAROT_TEST_FLAG", False)


def test_env_int_garbage_is_an_error_naming_the_variable(monkeypatch):
    monkeypatch.setenv("TAROT_TEST_NUMBER", "one")
    with pytest.raises(ImproperlyConfigured, match="TAROT_TEST_NUMBER"):
        env_int("TAROT_TEST_NUMBER", 0)
    monkeypatch.setenv("TAROT_TEST_NUMBER", " 3 ")
    assert env_int("TAROT_TEST_NUMBER", 0) == 3


def test_debug_typo_stops_start_up():
    result = manage_check(DEBUG="ture", SECRET_KEY=PRODUCTION_KEY)
    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr
    assert "DEBUG='ture'" in result.stderr


def test_ssl_redirect_typo_stops_a_production_start_up():
    result = manage_check(DEBUG="false", SECRET_KEY=PRODUCTION_KEY, SECURE_SSL_REDIRECT="ture")
    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr
    assert "SECURE_SSL_REDIRECT='ture' is not a yes/no value" in result.stderr


# --- client address behind a reverse proxy ------------------------------------------------------


def client_ip(remote_addr: str, forwarded_for: str | None = None) -> str | None:
    meta = {"REMOTE_ADDR": remote_addr}
    if forwarded_for is not None:
        meta["HTTP_X_FORWARDED_FOR"] = forwarded_for
    return get_client_ip_address(RequestFactory().post("/connexion/", **meta))


def test_default_ignores_x_forwarded_for():
    assert client_ip("127.0.0.1", "203.0.113.9") == "127.0.0.1"


@override_settings(TRUSTED_PROXY_COUNT=1)
def test_one_proxy_reads_the_address_it_appended():
    assert client_ip("127.0.0.1", "203.0.113.9") == "203.0.113.9"
    # The client may send its own header; the proxy appends the real address on the right.
    assert client_ip("127.0.0.1", "198.51.100.7, 203.0.113.9") == "203.0.113.9"
    assert client_ip("127.0.0.1", "  2001:db8::1 ") == "2001:db8::1"


@override_settings(TRUSTED_PROXY_COUNT=2)
def test_two_proxies_read_the_second_entry_from_the_right():
    assert client_ip("10.0.0.2", "198.51.100.7, 203.0.113.9, 10.0.0.1") == "203.0.113.9"


@override_settings(TRUSTED_PROXY_COUNT=1)
def test_missing_or_broken_header_falls_back_to_the_socket_address():
    assert client_ip("127.0.0.1") == "127.0.0.1"
    assert client_ip("127.0.0.1", "") == "127.0.0.1"
    assert client_ip("127.0.0.1", "unknown") == "127.0.0.1"


def test_a_negative_proxy_count_stops_start_up():
    result = manage_check(TRUSTED_PROXY_COUNT="-1")
    assert result.returncode != 0
    assert "TRUSTED_PROXY_COUNT must be 0 or more" in result.stderr


# --- the login view, as the arbiter sees it ---------------------------------------------------


def login(client, password: str, forwarded_for: str):
    return client.post(
        reverse("login"),
        {"username": "arbitre-test", "password": password},
        headers={"x-forwarded-for": forwarded_for},
    )


def fail_five_times(client, forwarded_for: str) -> None:
    for _attempt in range(5):
        login(client, "wrong", forwarded_for)
    # The fifth failure locks that (username, address) pair: even the right password is refused.
    assert login(client, "pw-arbitre-1", forwarded_for).status_code == 429


@pytest.mark.django_db
@override_settings(TRUSTED_PROXY_COUNT=1)
def test_behind_a_proxy_an_attacker_does_not_lock_the_arbiter_out(
    client, arbiter, django_user_model
):
    assert reverse("login") == "/connexion/"
    fail_five_times(client, "203.0.113.9")

    response = login(client, "pw-arbitre-1", "198.51.100.7")
    assert response.status_code == 302
    assert client.get("/").context["user"] == arbiter

    # The attacker's address stays locked for that username.
    client.logout()
    assert login(client, "pw-arbitre-1", "203.0.113.9").status_code == 429


@pytest.mark.django_db
@override_settings(TRUSTED_PROXY_COUNT=1)
def test_behind_a_proxy_a_forged_header_does_not_dodge_the_lock(client, arbiter):
    fail_five_times(client, "203.0.113.9")
    # The attacker prepends a made-up address; the proxy still appends their real one.
    assert login(client, "pw-arbitre-1", "198.51.100.7, 203.0.113.9").status_code == 429


@pytest.mark.django_db
def test_without_proxy_count_every_proxied_client_shares_the_proxy_address(client, arbiter):
    """TRUSTED_PROXY_COUNT=0 behind a proxy: all requests come from 127.0.0.1, so failures
    from one client lock the username for everybody (why the README says to set it to 1)."""
    fail_five_times(client, "203.0.113.9")
    assert login(client, "pw-arbitre-1", "198.51.100.7").status_code == 429
    assert not client.get("/").context["user"].is_authenticated
