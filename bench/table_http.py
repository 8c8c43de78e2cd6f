"""The table-entry load's HTTP side: one phone's keep-alive connection with its csrftoken
cookie, and the tallies of what a table's phones were answered (bench/table_entry.py)."""

from __future__ import annotations

import http.client
import json
import time
from collections import Counter
from dataclasses import dataclass, field
from http.cookies import SimpleCookie

from common import HOST  # bench/common.py, next to this file
from load_run import ConnectionFailed

REQUEST_TIMEOUT = 30.0  # seconds, per request (above SQLite's 20 s busy timeout)
IDLE_RECONNECT = 1.5  # seconds: gunicorn drops an idle keep-alive connection after 2 s


@dataclass
class Stats:
    acked: dict[str, dict] = field(default_factory=dict)  # client id -> what the server said
    deal_posts: int = 0
    created: int = 0  # 201
    replays: int = 0  # 200 with replayed: true
    conflicts: int = 0  # 409 on the version
    conflicts_on_resend: int = 0  # of which: a resend or double tap of a stored deal
    server_errors: int = 0
    refused: int = 0  # other 4xx, or a deal given up
    connection_errors: int = 0
    different_answers: int = 0  # one client id answered with two different deals
    double_taps: int = 0
    double_tap_answers: Counter = field(default_factory=Counter)
    rivals: int = 0
    rival_answers: Counter = field(default_factory=Counter)
    rivals_both_stored: int = 0
    rival_unknown: int = 0
    lost_hangups: int = 0
    lost_dropped: int = 0
    confirmations: int = 0
    confirmed_numbers: int = 0
    confirm_refused: int = 0  # 403 where a confirmation was expected
    wrong_codes: int = 0
    wrong_codes_refused: int = 0
    throttled: int = 0
    sheets_finished: int = 0
    finish_refused: int = 0
    out_of_positions: bool = False
    save_ms: list[float] = field(default_factory=list)
    replay_ms: list[float] = field(default_factory=list)
    confirm_ms: list[float] = field(default_factory=list)
    sheet_ms: list[float] = field(default_factory=list)
    trivial_ms: list[float] = field(default_factory=list)
    samples: list[str] = field(default_factory=list)

    def note(self, text: str) -> None:
        if len(self.samples) < 5:
            self.samples.append(text[:400])


class Http:
    """One keep-alive connection with the csrftoken cookie, like a phone's browser."""

    def __init__(self, port: int, stats: Stats):
        self.port, self.stats = port, stats
        self.conn: http.client.HTTPConnection | None = None
        self.last_used = 0.0
        self.cookies: dict[str, str] = {}

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
        self.conn = None

    def headers(self, json_body: bool) -> dict[str, str]:
        headers = {}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if json_body:
            headers["Content-Type"] = "application/json"
            headers["X-CSRFToken"] = self.cookies.get("csrftoken", "")
        return headers

    def keep_cookies(self, response: http.client.HTTPResponse) -> None:
        for header in response.headers.get_all("Set-Cookie") or []:
            for name, morsel in SimpleCookie(header).items():
                self.cookies[name] = morsel.value

    def request(self, method: str, path: str, payload: dict | None = None):
        """(status, body bytes, milliseconds); ConnectionFailed when no answer came."""
        body = json.dumps(payload).encode() if payload is not None else None
        if self.conn is not None and time.monotonic() - self.last_used > IDLE_RECONNECT:
            self.close()  # the server may have dropped it: don't send into a closing socket
        try:
            if self.conn is None:
                self.conn = http.client.HTTPConnection(HOST, self.port, timeout=REQUEST_TIMEOUT)
            started = time.perf_counter()
            self.conn.request(method, path, body=body, headers=self.headers(body is not None))
            response = self.conn.getresponse()
            data = response.read()
            elapsed = (time.perf_counter() - started) * 1000
        except (OSError, http.client.HTTPException) as err:
            self.close()
            self.stats.connection_errors += 1
            self.stats.note(f"{method} {path}: no answer ({type(err).__name__}: {err})")
            raise ConnectionFailed(str(err)) from err
        self.last_used = time.monotonic()
        self.keep_cookies(response)
        if (response.getheader("Connection") or "").lower() == "close":
            self.close()
        return response.status, data, elapsed

    def send_and_hang_up(self, path: str, payload: dict) -> None:
        """Send a request on a new connection and close it before the answer: a lost answer."""
        conn = http.client.HTTPConnection(HOST, self.port, timeout=REQUEST_TIMEOUT)
        try:
            conn.request(
                "POST", path, body=json.dumps(payload).encode(), headers=self.headers(True)
            )
        except (OSError, http.client.HTTPException):
            pass
        finally:
            conn.close()
