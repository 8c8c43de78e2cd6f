"""Load and crash benchmark: N simulated score-entry clients saving deals over HTTP on loopback.

Run with `.venv/bin/python bench/load.py --clients 50 --seconds 60 --db both [--crash]`.

For each database (a fresh SQLite file in a temporary directory, or a fresh database with a
unique name on the loopback PostgreSQL server of scripts/pg-test-server, dropped at the end) it
migrates, creates a scorer account and a tournament with one free sheet of 4 players per client
(in a separate Django process), then serves the site with gunicorn on 127.0.0.1 and starts the
clients. Each client logs in through /connexion/, then until the deadline posts random valid
deals to its own sheet through the JSON API and, every few deals, fetches the home page (the
trivial page the deal save is compared with).

With --crash the server (master and workers) is killed with SIGKILL halfway through (once a
deal was acknowledged) and restarted on the same database; clients retry on connection errors
(those requests are not acknowledged) and go on until the end, which comes no sooner than a deal
acknowledged by the restarted server, however long the restart took.

Afterwards the server is stopped and a fresh process reads the deals back: every acknowledged
deal (a 201 answer) must be in the database with the scores the client was told. The exit code
is non-zero when an acknowledged deal is missing or altered, or when any answer was a 5xx.
The last line of output is a JSON summary (for tests/load/test_load_crash.py).

All traffic goes to 127.0.0.1; every loop is bounded by the run's deadline.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections import Counter
from pathlib import Path

# Next to this file: common.py (the databases, the gunicorn server), load_run.py (the run),
# load_client.py (the clients).
from common import Server, add_server_arguments
from load_client import PASSWORD, REQUEST_TIMEOUT, USERNAME, Client
from load_run import (
    cpu_figures,
    percentile,
    phase,
    run_on_each_database,
    run_script,
    serve_and_read_back,
    summarise,
)

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

    from scoring.sheets.services import sheet_create_free
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
    cpu = server.cpu_seconds()
    crash = {"crashed_at_s": None, "downtime_s": None, "acked_after_restart": 0}
    if args.crash:
        # Midway, and not before a deal was acknowledged: a crash must have something to lose.
        time.sleep(args.seconds / 2)
        _wait_for_a_deal_acked(clients, since=start)
        crashed = time.monotonic()
        phase("crash: SIGKILL to gunicorn's master and workers, restarting")
        # The clients keep trying while the server is down, however long its restart takes:
        # the end is set once it is back.
        end, times[2] = times[2], float("inf")
        server.kill()
        server.start()
        restarted = time.monotonic()
        # At least AFTER_RESTART_MIN seconds of load on the restarted server, and a deal
        # saved by it: on a loaded machine its first answers may take seconds.
        _wait_for_a_deal_acked(clients, since=restarted)
        times[2] = max(end, restarted + AFTER_RESTART_MIN)
        crash.update(
            crashed_at_s=round(crashed - start, 1), downtime_s=round(restarted - crashed, 2)
        )
    for client in clients:
        client.join(timeout=max(0.0, times[2] - time.monotonic()) + REQUEST_TIMEOUT + 5)
    elapsed = time.monotonic() - start
    stats = [c.stats for c in clients]
    acked = [(d, s, sc) for st in stats for d, s, sc, _t in st.acked]
    # A deal's cost with its share of home pages; a crash run restarts the server (no figure).
    cpu = None if args.crash else server.cpu_seconds() - cpu
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
        **cpu_figures(cpu or 0.0, len(acked), "deal"),
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


def _wait_for_a_deal_acked(clients: list[Client], *, since: float) -> None:
    """Until a client is told a deal was saved after `since` (at most a request's timeout)."""
    deadline = time.monotonic() + REQUEST_TIMEOUT
    while time.monotonic() < deadline:
        if any(t > since for c in clients for *_rest, t in list(c.stats.acked)):
            return
        time.sleep(0.05)


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
    ("cpu_ms_per_deal", "CPU ms/deal"),
    ("deals_per_2_cores", "deals/s on 2 cores"),
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
    return summarise(
        results,
        COLUMNS + (CRASH_COLUMNS if args.crash else ()),
        {"crash": args.crash},
        ("OK", "FAILED: a missing or altered deal, a 5xx, or a run that did not work"),
    )


if __name__ == "__main__":
    run_script(
        main,
        lambda out, clients, mode: django_setup(out, int(clients), mode == "preauth"),
        django_read_deals,
    )
