"""Wrong passwords sent in parallel, each thread its own connection (PostgreSQL: the suite's
second run): only AXES_FAILURE_LIMIT passwords are checked, the rest get the lockout page, and
the username stays locked from that address only."""

import os

import pytest
from axes.models import AccessAttempt
from django.test import Client
from django.urls import reverse

from tests.load.test_concurrent_saves import in_threads
from tests.tournament.access.test_login_gate import LIMIT, password_checks  # noqa: F401 - a fixture
from tournament.access import login_gate, throttle

ON_POSTGRES = os.environ.get("DATABASE_URL", "").startswith(("postgres://", "postgresql://"))

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(not ON_POSTGRES, reason="SQLite's test database is one connection"),
]

ATTEMPTS = 24


def login(password: str, ip: str = "203.0.113.9") -> int:
    response = Client().post(
        reverse("login"), {"username": "arbitre-test", "password": password}, REMOTE_ADDR=ip
    )
    return response.status_code


def test_parallel_wrong_passwords_get_five_checks_and_lock_the_account(
    arbiter,
    password_checks,  # noqa: F811 - the fixture imported above
):
    statuses = in_threads(ATTEMPTS, lambda _i: login("faux"))
    assert len(password_checks) == LIMIT
    assert all(status in (200, 429) for status in statuses), statuses
    assert statuses.count(429) >= ATTEMPTS - LIMIT  # refused unchecked: the lockout page
    assert sum(a.failures_since_start for a in AccessAttempt.objects.all()) == ATTEMPTS

    # Locked for that username from that address, even with the right password.
    assert login("pw-arbitre-1") == 429
    key = login_gate.login_key("203.0.113.9", "arbitre-test")
    assert throttle.locked_until(key) > 0
    # The arbiter, elsewhere, logs in.
    assert login("pw-arbitre-1", ip="198.51.100.7") == 302
    assert len(password_checks) == LIMIT + 1
