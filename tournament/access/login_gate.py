"""Login throttling that holds under parallel requests: django-axes' database handler with one
atomic reservation before each password check.

Axes reads the failures counted so far, Django then checks the password (slow on purpose), and
axes counts the failure only afterwards: wrong passwords sent at once all pass the first step
before any is counted, so every one of them is checked. Here each attempt axes lets through
first reserves its check with `tournament.access.throttle.gate`, keyed like axes' lock (address and
username): the AXES_FAILURE_LIMIT-th reservation locks the key for the cool-off, and the attempts
beyond it get axes' own lockout answer without a password check. Axes still counts the failures,
locks, logs and answers; a success, a cool-off without attempts and the `axes_reset*` commands
forget the reservations too, as they forget axes' failures.
"""

from __future__ import annotations

import hashlib
import time
from typing import Any

from axes.handlers.database import AxesDatabaseHandler
from axes.helpers import get_client_username, get_cool_off, get_failure_limit
from django.db.models import Q

from tournament.access import throttle
from tournament.models.limits import Counter

PREFIX = "login|"
LONGEST_NAME = 100  # characters of a username kept as typed in the key; longer ones are hashed


def _name_part(username: str | None) -> str:
    name = username or ""
    if len(name) <= LONGEST_NAME:
        return name
    return "#" + hashlib.sha256(name.encode()).hexdigest()


def login_key(ip_address: str | None, username: str | None) -> str:
    """The counter of login attempts for one username from one address (axes' lock)."""
    return f"{PREFIX}{ip_address or ''}|{_name_part(username)}"


def _keys(*, ip_address: str | None, username: str | None, ip_or_username: bool) -> Q:
    """The counters an axes reset with these arguments concerns."""
    by_ip = Q(key__startswith=f"{PREFIX}{ip_address}|")
    by_name = Q(key__startswith=PREFIX, key__endswith=f"|{_name_part(username)}")
    if ip_or_username:
        return (by_ip if ip_address else Q(pk__in=[])) | (by_name if username else Q(pk__in=[]))
    if ip_address and username:
        return Q(key=login_key(ip_address, username))
    if ip_address:
        return by_ip
    if username:
        return by_name
    return Q(key__startswith=PREFIX)


class GatedAxesHandler(AxesDatabaseHandler):
    """Axes' database handler (AXES_HANDLER), each password check reserved atomically first."""

    def is_allowed(self, request: Any, credentials: dict | None = None) -> bool:
        if not super().is_allowed(request, credentials):
            return False
        if credentials is None or self.is_whitelisted(request, credentials):
            return True
        key = login_key(request.axes_ip_address, get_client_username(request, credentials))
        now = time.time()
        cool_off = get_cool_off(request)
        if cool_off is None:  # axes locks for good: so does the gate
            lock = throttle.MAX_LOCK
        else:
            lock = cool_off.total_seconds()
            # As axes forgets failures older than the cool-off: a key with no lock running and no
            # attempt for that long starts afresh (one DELETE whose condition the database
            # checks, so a parallel attempt that just counted is never forgotten).
            Counter.objects.filter(key=key, locked_until__lte=now, last_at__lte=now - lock).delete()
        allowance = get_failure_limit(request, credentials)
        if throttle.gate(key, allowance=allowance, lock=lock, now=now):
            return True
        # Axes' backend refuses the login and counts a failure; the flag makes its middleware
        # answer with the lockout page (429), as for a lock axes found itself.
        request.axes_locked_out = True
        return False

    def reset_user_attempts(self, request: Any, credentials: dict | None = None) -> int:
        """A successful login (AXES_RESET_ON_SUCCESS) frees its key."""
        count = super().reset_user_attempts(request, credentials)
        username = get_client_username(request, credentials)
        throttle.clear(login_key(request.axes_ip_address, username))
        return count

    def reset_attempts(
        self,
        *,
        ip_address: str | None = None,
        username: str | None = None,
        ip_or_username: bool = False,
    ) -> int:
        """The axes_reset, axes_reset_ip, axes_reset_username and axes_reset_ip_username
        commands: the reservations go with the failures."""
        count = super().reset_attempts(
            ip_address=ip_address, username=username, ip_or_username=ip_or_username
        )
        Counter.objects.filter(
            _keys(ip_address=ip_address, username=username, ip_or_username=ip_or_username)
        ).delete()
        return count
