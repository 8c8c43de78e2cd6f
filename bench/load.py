"""Load and crash benchmark: N simulated score-entry clients saving deals over HTTP on loopback.

Run with `.venv/bin/python bench/load.py --clients 50 --seconds 60 --db both [--crash]`.

For each database (a fresh SQLite file in a temporary directory, or a fresh database with a
unique name on the loopback PostgreSQL server of scripts/pg-test-server, dropped at the end) it
migrates, creates a scorer account and a tournament with one free sheet of 4 players per client
(in a separate Django process), then serves the site with gunicorn on 127.0.0.1 and starts the
clients. Each client logs in through /connexion/, then until the deadline posts random valid
deals to its own sheet through the JSON API and, every few deals, fetches the home page (the
trivial page the deal save is compared with).

With --crash the server (master and workers) is killed with SIGKILL halfway through and
restarted on the same database; clients retry on connection errors (those requests are not
acknowledged) and go on until the end.

Afterwards the server is stopped and a fresh process reads the deals back: every acknowledged
deal (a 201 answer) must be in the database with the scores the client was told. The exit code
is non-zero when an acknowledged deal is missing or altered, or when any answer was a 5xx.
The last line of output is a JSON summary (for tests/test_load_crash.py).

All traffic goes to 127.0.0.1; every loop is bounded by the run's deadline.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import sys
import threading
import time
import urllib.parse
import urllib.request
from collections import Counter
from dataclasses import dataclass, field
from http.cookiejar import Cookie, CookieJar
from pathlib import Path

# bench/common.py, next to this file: Django, the databases, the gunicorn server and the loop.
from common import (
    HOST,
    ConnectionFailed,
    Server,
    add_server_arguments,
    percentile,
    phase,
    print_table,
    random_played_deal,
    run_on_each_database,
    run_script,
    serve_and_read_back,
)

USERNAME = "bench-marqueur"
PASSWORD = "bench-" + "load-password-42"
HOME_EVERY = 5  # a client fetches the home page before every 5th deal
REQUEST_TIMEOUT = 30.0  # seconds, per request (above SQLite's 20 s busy timeout)
LOGIN_TIMEOUT = 120.0  # seconds for a login POST: the password hash is slow on purpose
# Logins in flight at once: more only queue up in the server, time out and start again.
LOGIN_GATE = threading.BoundedSemaphore(8)
CONNECT_RETRY_PAUSE = 0.1  # seconds between attempts while the server is down
AFTER_RESTART_MIN = 3.0  # seconds of load at least after a crash restart (the run may stretch)


# --- the Django side, run in separate processes ----------------------------------------------


def django_setup(out: str, clients: int, preauth: bool) -> None:
    """Migrate, create the scorer and one free sheet per client; write the sheet ids to `out`.

    With `preauth`, also open one logged-in session per client (what a login through the form
    leaves), so that a short run does not spend its time in the deliberately slow password hash.
    """
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    with open(os.devnull, "w") as quiet:
        call_command("ensure_arbiter", username=USERNAME, password=PASSWORD, stdout=quiet)

    from scoring.services import sheet_create_free
    from tournament.models import Player, Registration, Tournament

    tournament = Tournament.objects.create(name="Banc d'essai en charge", date="2026-11-21")
    players = Player.objects.bulk_create(
        Player(last_name=f"CHARGE{n:04d}", first_name="Prénom") for n in range(clients * 4)
    )
    registrations = Registration.objects.bulk_create(
        Registration(tournament=tournament, player=player, number=n + 1)
        for n, player in enumerate(players)
    )
    sheets = [
        sheet_create_free(
            tournament=tournament,
            registrations=registrations[i * 4 : i * 4 + 4],
            title=f"Client {i + 1}",
        ).pk
        for i in range(clients)
    ]
    sessions = []
    if preauth:
        from importlib import import_module

        from django.conf import settings
        from django.contrib.auth import (
            BACKEND_SESSION_KEY,
            HASH_SESSION_KEY,
            SESSION_KEY,
            get_user_model,
        )

        user = get_user_model().objects.get(username=USERNAME)
        for _client in range(clients):
            session = import_module(settings.SESSION_ENGINE).SessionStore()
            session[SESSION_KEY] = str(user.pk)
            session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
            session[HASH_SESSION_KEY] = user.get_session_auth_hash()
            session.create()
            sessions.append(session.session_key)
    Path(out).write_text(
        json.dumps({"tournament": tournament.pk, "sheets": sheets, "sessions": sessions})
    )


def django_read_deals(out: str, tournament: int) -> None:
    """Write every deal of the tournament as {id: [sheet, scores]} to `out`."""
    from scoring.models import Deal

    rows = Deal.objects.filter(sheet__tournament_id=tournament).values_list(
        "pk", "sheet_id", "scores"
    )
    Path(out).write_text(json.dumps({str(pk): [sheet, scores] for pk, sheet, scores in rows}))


# --- the clients -----------------------------------------------------------------------------


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
                    relogin = status in (302, 403)
            except ConnectionFailed:
                # No answer: the deal may or may not be stored; it is not acknowledged. Re-read
                # the version once the server is back (a stored deal moved it).
                stats.connection_errors += 1
                version = None
                time.sleep(CONNECT_RETRY_PAUSE)
        if self.conn is not None:
            self.conn.close()


# --- one run ---------------------------------------------------------------------------------


def run_one(args, kind: str, workdir: Path, static_root: Path) -> dict:
    result, stored, log = serve_and_read_back(
        args,
        kind,
        workdir,
        static_root,
        __file__,
        (str(args.clients), "preauth" if args.preauth else "login"),
        lambda server, setup: drive(args, server, setup["sheets"], setup["sessions"]),
    )
    acked = result.pop("acked")
    missing = [deal for deal, _sheet, _scores in acked if str(deal) not in stored]
    altered = [
        deal
        for deal, sheet, scores in acked
        if str(deal) in stored and stored[str(deal)] != [sheet, scores]
    ]
    result.update(
        db=kind,
        acknowledged=len(acked),
        in_db=len(stored),
        missing=len(missing),
        altered=len(altered),
        unacknowledged_in_db=len(stored) - len(acked) + len(missing),
        log=str(log),
    )
    result["ok"] = bool(
        result["acknowledged"] > 0
        and not missing
        and not altered
        and result["server_errors"] == 0
        and result["clients_logged_in"] == args.clients
        and (not args.crash or result["acked_after_restart"] > 0)
    )
    return result


def drive(args, server: Server, sheets: list[int], sessions: list[str]) -> dict:
    login_limit = 60 + args.clients * 3  # PBKDF2 logins are deliberately slow
    times = [time.monotonic() + login_limit, 0.0, 0.0]
    clients = [
        Client(i, server.port, sheet, args.seed * 1000 + i, times, sessions[i] if sessions else "")
        for i, sheet in enumerate(sheets)
    ]
    for client in clients:
        client.start()
    for client in clients:
        client.logged_in.wait(timeout=max(0.0, times[0] - time.monotonic()) + 1)
    logged_in = sum(1 for c in clients if c.cookie("sessionid"))
    phase(f"{logged_in} clients logged in; load for {args.seconds:g} s")
    start = time.monotonic()
    times[1], times[2] = start, start + args.seconds
    for client in clients:
        client.go.set()
    crash = {"crashed_at_s": None, "downtime_s": None, "acked_after_restart": 0}
    if args.crash:
        time.sleep(args.seconds / 2)
        crashed = time.monotonic()
        phase("crash: SIGKILL to gunicorn's master and workers, restarting")
        server.kill()
        server.start()
        restarted = time.monotonic()
        # A slow restart must still leave time to save deals on the restarted server.
        times[2] = max(times[2], restarted + AFTER_RESTART_MIN)
        crash.update(
            crashed_at_s=round(crashed - start, 1), downtime_s=round(restarted - crashed, 2)
        )
    for client in clients:
        client.join(timeout=max(0.0, times[2] - time.monotonic()) + REQUEST_TIMEOUT + 5)
    elapsed = time.monotonic() - start
    stats = [c.stats for c in clients]
    acked = [(d, s, sc) for st in stats for d, s, sc, _t in st.acked]
    if args.crash:
        crash["acked_after_restart"] = sum(
            1 for st in stats for *_rest, t in st.acked if t > crashed + crash["downtime_s"]
        )
    deal_ms = [ms for st in stats for ms in st.deal_ms]
    home_ms = [ms for st in stats for ms in st.home_ms]
    return {
        "clients": args.clients,
        "clients_logged_in": logged_in,
        "seconds": round(elapsed, 1),
        "acked": acked,
        "server_errors": sum(st.server_errors for st in stats),
        "conflicts": sum(st.conflicts for st in stats),
        "refused": sum(st.refused for st in stats),
        "connection_errors": sum(st.connection_errors for st in stats),
        "deals_per_s": round(len(acked) / elapsed, 1),
        "deal_p50_ms": round(percentile(deal_ms, 0.50), 1),
        "deal_p95_ms": round(percentile(deal_ms, 0.95), 1),
        "home_p50_ms": round(percentile(home_ms, 0.50), 1),
        "home_p95_ms": round(percentile(home_ms, 0.95), 1),
        "home_requests": len(home_ms),
        "connection_error_kinds": dict(
            sum((Counter(st.connection_error_kinds) for st in stats), Counter())
        ),
        "samples": [s for st in stats for s in st.samples][:5],
        "load_avg_1min": round(os.getloadavg()[0], 1),
        **crash,
    }


COLUMNS = (
    ("db", "db"),
    ("clients", "clients"),
    ("seconds", "seconds"),
    ("acknowledged", "acked"),
    ("in_db", "in DB"),
    ("missing", "missing"),
    ("server_errors", "5xx"),
    ("conflicts", "409"),
    ("connection_errors", "conn err"),
    ("deals_per_s", "deals/s"),
    ("deal_p50_ms", "save p50 ms"),
    ("deal_p95_ms", "save p95 ms"),
    ("home_p50_ms", "home p50 ms"),
    ("home_p95_ms", "home p95 ms"),
)


CRASH_COLUMNS = (
    ("downtime_s", "down s"),
    ("acked_after_restart", "acked after restart"),
    ("unacknowledged_in_db", "unacked in DB"),
)


def report(kind: str, result: dict) -> None:
    """One database's run: the server log when it failed, then its figures."""
    if result.get("ok") is False and "log" in result:
        print(Path(result["log"]).read_text()[-3000:], file=sys.stderr)
    details = {
        k: result.get(k)
        for k in (
            "clients_logged_in",
            "boot_s",
            "refused",
            "altered",
            "unacknowledged_in_db",
            "home_requests",
            "crashed_at_s",
            "downtime_s",
            "acked_after_restart",
            "samples",
            "connection_error_kinds",
            "load_avg_1min",
            "ok",
        )
        if k in result
    }
    print(json.dumps(details, ensure_ascii=False), flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=60)
    add_server_arguments(parser)
    parser.add_argument("--crash", action="store_true", help="SIGKILL the server midway")
    parser.add_argument(
        "--preauth",
        action="store_true",
        help="clients start with a session opened by the setup step instead of logging in "
        "through the form (saves the slow password hash in short runs)",
    )
    args = parser.parse_args(argv)
    if not 1 <= args.clients <= 500 or not 0 < args.seconds <= 600:
        parser.error("between 1 and 500 clients, at most 600 seconds")
    kinds = ["sqlite", "postgres"] if args.db == "both" else [args.db]

    mode = (
        "DEBUG=true"
        if args.debug
        else "DEBUG=false (production settings; SECURE_SSL_REDIRECT=false, SECURE_COOKIES=false "
        "for plain http on loopback)"
    )
    print(
        f"{args.clients} clients x {args.seconds:g} s, gunicorn -w {args.workers} --threads 4"
        f"{' --preload' if args.preload else ''}, "
        f"{'sessions from setup' if args.preauth else 'login through /connexion/'}, "
        f"{mode}{', crash midway (SIGKILL)' if args.crash else ''}, {os.cpu_count()} CPUs, "
        f"load average {os.getloadavg()[0]:.1f}",
        flush=True,
    )
    results = run_on_each_database(args, kinds, "tarot-load-", run_one, report)
    if results is None:
        return 2
    print()
    columns = COLUMNS + (CRASH_COLUMNS if args.crash else ())
    print_table(columns, [r for r in results if "acknowledged" in r])
    ok = all(r.get("ok") for r in results)
    print()
    print("OK" if ok else "FAILED: a missing or altered deal, a 5xx, or a run that did not work")
    for r in results:
        r.pop("log", None)
    print(json.dumps({"ok": ok, "crash": args.crash, "runs": results}, ensure_ascii=False))
    return 0 if ok else 1


if __name__ == "__main__":
    run_script(
        main,
        lambda out, clients, mode: django_setup(out, int(clients), mode == "preauth"),
        django_read_deals,
    )
