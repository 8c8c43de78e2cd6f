"""Login throttling holds for attempts in flight together: axes' lock, each password check reserved
first (tournament.access.login_gate), so that only AXES_FAILURE_LIMIT passwords are ever checked
before the lock, however many attempts arrive before the first failure is counted."""

import threading

import pytest
from axes.backends import AxesStandaloneBackend
from axes.exceptions import AxesBackendPermissionDenied
from axes.models import AccessAttempt
from django.contrib.auth.backends import ModelBackend
from django.core.management import call_command
from django.test import RequestFactory
from django.urls import reverse

from tournament.access import login_gate, throttle
from tournament.models.limits import Counter

pytestmark = pytest.mark.django_db

LIMIT = 5
COOL_OFF = 15 * 60


def attempt_starts(username: str = "arbitre-test", ip: str = "203.0.113.9") -> bool:
    """One login attempt's first step (axes' backend, before the password is checked): True
    when its password will be checked, False when it is refused as locked out."""
    request = RequestFactory().post("/connexion/", REMOTE_ADDR=ip)
    try:
        AxesStandaloneBackend().authenticate(request, username=username, password="faux")
    except AxesBackendPermissionDenied:
        assert request.axes_locked_out  # axes' middleware answers with the lockout page
        return False
    return True


def login(client, password: str, ip: str = "203.0.113.9"):
    return client.post(
        reverse("login"), {"username": "arbitre-test", "password": password}, REMOTE_ADDR=ip
    )


@pytest.fixture
def password_checks(monkeypatch) -> list[str]:
    """The usernames whose password Django checked, in order (thread-safe)."""
    checks: list[str] = []
    lock = threading.Lock()
    check = ModelBackend.authenticate

    def counted(self, request, username=None, password=None, **kwargs):
        with lock:
            checks.append(username)
        return check(self, request, username=username, password=password, **kwargs)

    monkeypatch.setattr(ModelBackend, "authenticate", counted)
    return checks


def test_eight_attempts_in_flight_before_any_failure_get_five_password_checks(arbiter):
    """What parallel requests do: each reaches the check before the others' failures are
    counted. Axes alone lets all eight through."""
    assert [attempt_starts() for _ in range(8)] == [True] * LIMIT + [False] * 3
    # Another address, or another username, has its own allowance.
    assert attempt_starts(ip="198.51.100.7")
    assert attempt_starts(username="quelquun")


def test_the_lock_lasts_the_cool_off_then_a_quiet_key_starts_afresh(arbiter, monkeypatch):
    start = 1_000_000.0
    monkeypatch.setattr(login_gate.time, "time", lambda: start)
    assert [attempt_starts() for _ in range(6)] == [True] * LIMIT + [False]
    key = login_gate.login_key("203.0.113.9", "arbitre-test")
    assert throttle.locked_until(key) == start + COOL_OFF

    monkeypatch.setattr(login_gate.time, "time", lambda: start + COOL_OFF - 1)
    assert not attempt_starts()
    monkeypatch.setattr(login_gate.time, "time", lambda: start + COOL_OFF)
    assert [attempt_starts() for _ in range(6)] == [True] * LIMIT + [False]


def test_wrong_passwords_one_after_another_are_each_checked_then_locked(
    client, arbiter, password_checks
):
    for _attempt in range(LIMIT - 1):
        assert login(client, "faux").status_code == 200  # the form again, with its error
    assert login(client, "faux").status_code == 429  # the fifth failure locks
    assert login(client, "pw-arbitre-1").status_code == 429
    assert len(password_checks) == LIMIT
    assert AccessAttempt.objects.get().failures_since_start == LIMIT + 1


def test_a_success_frees_the_key(client, arbiter, password_checks):
    for _attempt in range(LIMIT - 1):
        login(client, "faux")
    assert login(client, "pw-arbitre-1").status_code == 302
    assert not Counter.objects.filter(key__startswith=login_gate.PREFIX).exists()
    client.logout()
    for _attempt in range(LIMIT - 1):
        assert login(client, "faux").status_code == 200
    assert len(password_checks) == 2 * LIMIT - 1


@pytest.mark.parametrize(
    ("command", "arguments", "kept"),
    [
        ("axes_reset", [], []),
        ("axes_reset_username", ["arbitre-test"], ["203.0.113.9|autre"]),
        ("axes_reset_ip", ["203.0.113.9"], ["198.51.100.7|arbitre-test"]),
        (
            "axes_reset_ip_username",
            ["203.0.113.9", "arbitre-test"],
            ["198.51.100.7|arbitre-test", "203.0.113.9|autre"],
        ),
    ],
)
def test_the_axes_reset_commands_unlock_the_gate_too(arbiter, command, arguments, kept):
    for ip, username in (
        ("203.0.113.9", "arbitre-test"),
        ("198.51.100.7", "arbitre-test"),
        ("203.0.113.9", "autre"),
    ):
        assert [attempt_starts(username=username, ip=ip) for _ in range(LIMIT + 1)][-1] is False
    other = Counter.objects.create(key="table-code|203.0.113.9", hits=3)
    call_command(command, *arguments, verbosity=0)
    left = Counter.objects.filter(key__startswith=login_gate.PREFIX)
    assert sorted(key.removeprefix("login|") for key in left.values_list("key", flat=True)) == (
        sorted(kept)
    )
    assert Counter.objects.filter(pk=other.pk).exists()  # other counters are not axes'
    if command == "axes_reset":
        assert attempt_starts()


def test_a_long_username_keeps_the_key_within_its_column():
    key = login_gate.login_key("2001:db8:85a3:1234:5678:8a2e:370:7334", "x" * 150)
    assert len(key) <= Counter._meta.get_field("key").max_length
    assert key != login_gate.login_key("2001:db8:85a3:1234:5678:8a2e:370:7334", "x" * 149)
