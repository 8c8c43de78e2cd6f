"""The load test's clients (bench/load.py): one thread per free sheet logs in through
/connexion/ (or starts with a session opened by the setup) and posts random deals to its sheet
through the JSON API until the deadline, re-reading the version after a conflict or a crash."""

from __future__ import annotations

import http.client
import json
import random
import threading
import time
import urllib.parse
import urllib.request
from dataclasses import dataclass, field
from http.cookiejar import Cookie, CookieJar

from common import HOST  # bench/common.py, next to this file
from load_run import ConnectionFailed, random_played_deal

USERNAME = "bench-marqueur"
PASSWORD = "bench-" + "load-password-42"
HOME_EVERY = 5  # a client fetches the home page before every 5th deal
REQUEST_TIMEOUT = 30.0  # seconds, per request (above SQLite's 20 s busy timeout)
LOGIN_TIMEOUT = 120.0  # seconds for a login POST: the password hash is slow on purpose
# Logins in flight at once: more only queue up in the server, time out and start again. Fewer
# than the site's AXES_FAILURE_LIMIT (5): every login of the one account from 127.0.0.1 reserves
# a check of that key before the (slow) password hash (tournament.access.login_gate), and the
# 5th reservation in flight locks the key until one of them succeeds; with 8 at once, on a busy
# machine, the 6th to 8th were refused (429) and those clients never logged in.
LOGIN_GATE = threading.BoundedSemaphore(4)
CONNECT_RETRY_PAUSE = 0.1  # seconds between attempts while the server is down


def _cookie(name: str, value: str) -> Cookie:
    """A host-only cookie for the loopback server, as if it had set it."""
    return Cookie(
        0,
        name,
        value,
        None,
        False,
        HOST,
        False,
        False,
        "/",
        True,
        False,
        None,
        True,
        None,
        None,
        {},
    )


@dataclass
class ClientStats:
    acked: list[tuple[int, int, list[int], float]] = field(default_factory=list)
    deal_ms: list[float] = field(default_factory=list)
    home_ms: list[float] = field(default_factory=list)
    server_errors: int = 0
    conflicts: int = 0
    refused: int = 0  # 4xx other than 409: the generator or the session is wrong
    connection_errors: int = 0
    connection_error_kinds: dict[str, int] = field(default_factory=dict)
    samples: list[str] = field(default_factory=list)

    def note(self, text: str) -> None:
        if len(self.samples) < 3:
            self.samples.append(text[:300])


class Client(threading.Thread):
    def __init__(
        self, index: int, port: int, sheet: int, seed: int, stop_at: list[float], session: str
    ):
        super().__init__(name=f"client-{index}", daemon=True)
        self.port, self.sheet = port, sheet
        self.session = session  # a session opened by the setup step (--preauth), used once
        self.rng = random.Random(seed)
        self.jar = CookieJar()
        self.conn: http.client.HTTPConnection | None = None
        self.stats = ClientStats()
        self.stop_at = stop_at  # [login deadline, run start, run end], shared and set by main
        self.logged_in = threading.Event()
        self.go = threading.Event()

    # HTTP with keep-alive and a cookie jar
    def request(
        self,
        method: str,
        path: str,
        body: bytes | None = None,
        headers=None,
        timeout: float = REQUEST_TIMEOUT,
    ):
        req = urllib.request.Request(f"http://{HOST}:{self.port}{path}", method=method)
        self.jar.add_cookie_header(req)
        send = dict(headers or {})
        if req.get_header("Cookie"):
            send["Cookie"] = req.get_header("Cookie")
        try:
            if self.conn is None:
                self.conn = http.client.HTTPConnection(HOST, self.port, timeout=timeout)
            elif self.conn.sock is not None:
                self.conn.sock.settimeout(timeout)
            started = time.perf_counter()
            self.conn.request(method, path, body=body, headers=send)
            response = self.conn.getresponse()
            data = response.read()
            elapsed = (time.perf_counter() - started) * 1000
        except (OSError, http.client.HTTPException) as err:
            if self.conn is not None:
                self.conn.close()
            self.conn = None
            kinds = self.stats.connection_error_kinds
            kinds[type(err).__name__] = kinds.get(type(err).__name__, 0) + 1
            raise ConnectionFailed(str(err)) from err
        self.jar.extract_cookies(response, req)
        if response.getheader("Connection", "").lower() == "close":
            self.conn.close()
            self.conn = None
        return response.status, data, elapsed

    def cookie(self, name: str) -> str:
        return next((c.value for c in self.jar if c.name == name), "")

    def login(self, deadline: float) -> bool:
        preauth, self.session = self.session, ""
        if preauth:
            self.jar.set_cookie(_cookie("sessionid", preauth))
        while time.monotonic() < deadline:
            try:
                self.request("GET", "/connexion/")  # sets the csrftoken cookie
                if preauth:
                    return True
                form = urllib.parse.urlencode(
                    {
                        "username": USERNAME,
                        "password": PASSWORD,
                        "csrfmiddlewaretoken": self.cookie("csrftoken"),
                    }
                ).encode()
                if not LOGIN_GATE.acquire(timeout=max(0.0, deadline - time.monotonic())):
                    return False
                try:
                    status, data, _ms = self.request(
                        "POST",
                        "/connexion/",
                        form,
                        {"Content-Type": "application/x-www-form-urlencoded"},
                        timeout=LOGIN_TIMEOUT,
                    )
                finally:
                    LOGIN_GATE.release()
                if status == 302 and self.cookie("sessionid"):
                    return True
                self.stats.note(f"login answered {status}: {data[:200]!r}")
                if status >= 500:
                    self.stats.server_errors += 1
                return False
            except ConnectionFailed:
                self.stats.connection_errors += 1
                time.sleep(CONNECT_RETRY_PAUSE)
        return False

    def read_version(self) -> int | None:
        status, data, _ms = self.request("GET", f"/api/feuilles/{self.sheet}/")
        if status == 200:
            return json.loads(data)["version"]
        if status >= 500:
            self.stats.server_errors += 1
        self.stats.note(f"GET sheet answered {status}")
        return None

    def run(self) -> None:
        login_deadline, _start, _end = self.stop_at
        ok = self.login(login_deadline)
        self.logged_in.set()
        if not ok:
            return
        # The wait for the other clients outlasts gunicorn's keep-alive (2 s): start afresh.
        if self.conn is not None:
            self.conn.close()
            self.conn = None
        self.go.wait(timeout=max(0.0, login_deadline - time.monotonic()) + 5)
        stats = self.stats
        version: int | None = None
        relogin = False
        iteration = 0
        # stop_at[2] is read on every turn: a crash run may push the end back (see drive).
        while time.monotonic() < self.stop_at[2]:
            try:
                if relogin:
                    relogin = not self.login(self.stop_at[2])
                    continue
                if version is None:
                    version = self.read_version()
                    if version is None:
                        relogin = True
                        continue
                iteration += 1
                if iteration % HOME_EVERY == 0:
                    status, _data, ms = self.request("GET", "/")
                    if status == 200:
                        stats.home_ms.append(ms)
                    elif status >= 500:
                        stats.server_errors += 1
                deal = random_played_deal(self.rng)
                body = json.dumps({"version": version, "deal": deal}).encode()
                status, data, ms = self.request(
                    "POST",
                    f"/api/feuilles/{self.sheet}/donnes/",
                    body,
                    {"Content-Type": "application/json", "X-CSRFToken": self.cookie("csrftoken")},
                )
                if status == 201:
                    answer = json.loads(data)
                    stats.acked.append(
                        (answer["deal"], self.sheet, answer["scores"], time.monotonic())
                    )
                    stats.deal_ms.append(ms)
                    version = answer["version"]
                elif status == 409:
                    stats.conflicts += 1
                    version = json.loads(data).get("version")
                elif status >= 500:
                    stats.server_errors += 1
                    stats.note(f"POST answered {status}")
                    version = None
                else:
                    stats.refused += 1
                    stats.note(f"POST answered {status}: {data[:200]!r}")
                    version = None
                    relogin = status in (302, 401, 403)  # 401: the API says the session is gone
            except ConnectionFailed:
                # No answer: the deal may or may not be stored; it is not acknowledged. Re-read
                # the version once the server is back (a stored deal moved it).
                stats.connection_errors += 1
                version = None
                time.sleep(CONNECT_RETRY_PAUSE)
        if self.conn is not None:
            self.conn.close()
