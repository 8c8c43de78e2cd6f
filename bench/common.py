"""What the benchmarks share: Django set up in the script's process, the throw-away databases,
the gunicorn server on loopback, and the loop that runs a load test on each database.

The scripts of bench/ are run as files (`.venv/bin/python bench/load.py`): their folder is on
the import path, so they import this module as `common`.
"""

from __future__ import annotations

import http.client
import json
import math
import os
import random
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import NoReturn

ROOT = Path(__file__).resolve().parent.parent
HOST = "127.0.0.1"
CONTRACTS = ("prise", "garde", "garde_sans", "garde_contre")
SERVER_BOOT_LIMIT = 60.0  # seconds for gunicorn to answer after a (re)start


# --- Django in this process ------------------------------------------------------------------


def django_on_scratch_database(prefix: str = "tarot-bench-") -> tempfile.TemporaryDirectory:
    """Set Django up on a SQLite file in a new temporary folder (or on DATABASE_URL if set).

    Keep the folder returned for as long as the database is used: it is deleted with it.
    """
    tmp = tempfile.TemporaryDirectory(prefix=prefix)
    os.environ.setdefault("DATABASE_URL", f"sqlite:///{tmp.name}/bench.sqlite3")
    _setup()
    return tmp


def measure_get(client, url: str, runs: int) -> tuple[int, float, float, int]:
    """(queries, best CPU time, best wall time, response size) of GET url, tried `runs` times."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    best_cpu = best_wall = float("inf")
    queries = size = 0
    for _ in range(runs):
        with CaptureQueriesContext(connection) as captured:
            cpu, wall = time.process_time(), time.perf_counter()
            response = client.get(url)
            cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        if response.status_code != 200:
            raise SystemExit(f"{url}: HTTP {response.status_code}")
        best_cpu, best_wall = min(best_cpu, cpu), min(best_wall, wall)
        queries, size = len(captured), len(response.content)
    return queries, best_cpu, best_wall, size


def arbiter_client():
    """Migrate the scratch database and return (superuser, test client logged in as it)."""
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.test import Client
    from django.test.utils import setup_test_environment

    setup_test_environment()
    call_command("migrate", verbosity=0)
    user = get_user_model().objects.create_superuser("bench", password="bench-pw-1")
    client = Client()
    client.force_login(user)
    return user, client


def _django(url: str) -> None:
    """Set Django up on the database at `url` (the load tests' setup and read-back steps)."""
    os.environ["DATABASE_URL"] = url
    _setup()


def _setup() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournament.settings")
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()


# --- databases -------------------------------------------------------------------------------


class SqliteDatabase:
    name = "sqlite"

    def __init__(self, workdir: Path):
        self.path = workdir / "load.sqlite3"
        self.url = f"sqlite:///{self.path}"  # an absolute path: sqlite:////tmp/...

    def create(self) -> None:
        pass

    def drop(self) -> None:
        pass


class PostgresDatabase:
    name = "postgres"

    def __init__(self, workdir: Path):
        base = os.environ.get("DATABASE_URL", "")
        if not base.startswith(("postgres://", "postgresql://")):
            base = subprocess.run(
                [str(ROOT / "scripts" / "pg-test-server")],
                check=True,
                capture_output=True,
                text=True,
            ).stdout.strip()
        self.base = urllib.parse.urlsplit(base)
        if self.base.hostname not in ("127.0.0.1", "localhost", "::1"):
            raise SystemExit(f"refusing a PostgreSQL server off loopback: {self.base.hostname}")
        self.dbname = f"tarot_load_{os.getpid()}_{secrets.token_hex(3)}"
        self.url = urllib.parse.urlunsplit(self.base._replace(path=f"/{self.dbname}"))

    def _admin(self):
        import psycopg

        return psycopg.connect(
            host=self.base.hostname,
            port=self.base.port or 5432,
            user=urllib.parse.unquote(self.base.username or ""),
            password=urllib.parse.unquote(self.base.password or "") or None,
            dbname="postgres",
            autocommit=True,
            connect_timeout=10,
        )

    def create(self) -> None:
        with self._admin() as conn:
            conn.execute(f'CREATE DATABASE "{self.dbname}"')

    def drop(self) -> None:
        with self._admin() as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{self.dbname}" WITH (FORCE)')


# --- the server ------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return sock.getsockname()[1]


class Server:
    """gunicorn in its own process group, so that master and workers die together."""

    def __init__(self, env: dict[str, str], port: int, workers: int, log: Path, preload: bool):
        self.env, self.port, self.workers, self.log = env, port, workers, log
        self.preload = preload
        self.proc: subprocess.Popen | None = None

    def start(self) -> float:
        started = time.monotonic()
        with open(self.log, "ab") as log:
            self.proc = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "gunicorn",
                    "tournament.wsgi",
                    "-b",
                    f"{HOST}:{self.port}",
                    "-w",
                    str(self.workers),
                    "--threads",
                    "4",
                    "--timeout",
                    "60",
                    *(["--preload"] if self.preload else []),
                ],
                cwd=ROOT,
                env=self.env,
                stdout=log,
                stderr=log,
                start_new_session=True,
            )
        deadline = started + SERVER_BOOT_LIMIT
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"gunicorn exited with {self.proc.returncode}; see {self.log}")
            try:
                conn = http.client.HTTPConnection(HOST, self.port, timeout=5)
                conn.request("GET", "/connexion/")
                status = conn.getresponse().status
                conn.close()
                if status == 200:
                    return time.monotonic() - started
            except (OSError, http.client.HTTPException):
                pass
            time.sleep(0.1)
        self.kill()
        raise RuntimeError(f"gunicorn did not answer within {SERVER_BOOT_LIMIT} s; see {self.log}")

    def kill(self) -> None:
        """SIGKILL the master and every worker: no shutdown code runs."""
        if self.proc is None:
            return
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.proc.wait(timeout=30)
        self.proc = None

    def stop(self) -> None:
        if self.proc is None:
            return
        try:
            os.killpg(self.proc.pid, signal.SIGTERM)
            self.proc.wait(timeout=30)
        except ProcessLookupError:
            pass
        except subprocess.TimeoutExpired:
            self.kill()
        self.proc = None


def add_server_arguments(parser) -> None:
    """The options of a load test's databases and gunicorn server (--crash and the like aside)."""
    parser.add_argument("--db", choices=("sqlite", "postgres", "both"), default="both")
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--port", type=int, default=0, help="0: a free port")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--debug",
        action="store_true",
        help="serve with DEBUG=true (skips the ~20 s collectstatic of production settings)",
    )
    parser.add_argument(
        "--preload",
        action="store_true",
        help="gunicorn --preload: import the site once in the master (faster restarts)",
    )


def run_django_step(script: str, env: dict[str, str], *args: str) -> None:
    """Run `script` (a load test's own file) in a new process for one of its Django steps."""
    subprocess.run(
        [sys.executable, str(Path(script).resolve()), *args], env=env, cwd=ROOT, check=True
    )


# --- the load tests' clients -----------------------------------------------------------------


class ConnectionFailed(Exception):
    """The request got no answer (server down, connection reset, timeout): not acknowledged."""


def random_played_deal(rng: random.Random) -> dict:
    """A valid 4-player deal that is played (points integer, between 4 x oudlers and
    91 - 4 x (3 - oudlers)); now and then a petit au bout."""
    oudlers = rng.randrange(4)
    deal = {
        "taker": rng.randrange(4),
        "contract": rng.choice(CONTRACTS),
        "oudlers": oudlers,
        "points": rng.randint(4 * oudlers, 91 - 4 * (3 - oudlers)),
    }
    if rng.random() < 0.1:
        deal["petit_au_bout"] = rng.choice(("attack", "defense"))
    return deal


# --- one run on each database ---------------------------------------------------------------


def percentile(values: list[float], q: float) -> float:
    """Nearest-rank percentile; NaN when there are no values."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q * len(ordered)) - 1)]


def collect_static(workdir: Path, env: dict[str, str]) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=open(workdir / "collectstatic.log", "wb"),
    )


def server_env(args, url: str, static_root: Path) -> dict[str, str]:
    env = dict(os.environ, DATABASE_URL=url, STATIC_ROOT=str(static_root), LOG_LEVEL="WARNING")
    if args.debug:
        env.update(DEBUG="true")
    else:
        env.update(
            DEBUG="false",
            SECRET_KEY=secrets.token_urlsafe(40),
            ALLOWED_HOSTS=HOST,
            SECURE_SSL_REDIRECT="false",
            SECURE_COOKIES="false",
            SECURE_HSTS_SECONDS="0",
        )
    return env


def phase(text: str, _started: list[float] = []) -> None:  # noqa: B006 (a process clock)
    _started.append(_started[0] if _started else time.monotonic())
    print(f"  [{time.monotonic() - _started[0]:6.1f} s] {text}", flush=True)


def run_on_each_database(
    args,
    kinds: list[str],
    prefix: str,
    run_one: Callable[..., dict],
    report: Callable[[str, dict], None],
) -> list[dict] | None:
    """`run_one(args, kind, workdir, static_root)` on each database kind, in one throw-away
    folder, the static files collected once beforehand (production settings); `report(kind,
    result)` prints each result as it comes. A run that fails gives {"db", "ok": False,
    "error"}. None when collectstatic failed (its log is printed)."""
    results = []
    with tempfile.TemporaryDirectory(prefix=prefix) as tmp:
        workdir = Path(tmp)
        static_root = workdir / "static"
        static = None
        if not args.debug:
            static = collect_static(workdir, server_env(args, "sqlite://:memory:", static_root))
        for kind in kinds:
            if static is not None:
                if static.wait(timeout=300) != 0:
                    print((workdir / "collectstatic.log").read_text(), file=sys.stderr)
                    return None
                static = None
            print(f"== {kind} ==", flush=True)
            try:
                result = run_one(args, kind, workdir, static_root)
            except (RuntimeError, subprocess.CalledProcessError) as err:
                print(f"{kind}: run failed: {err}", file=sys.stderr)
                for log in workdir.glob("gunicorn-*.log"):
                    print(log.read_text()[-3000:], file=sys.stderr)
                result = {"db": kind, "ok": False, "error": str(err)}
            results.append(result)
            report(kind, result)
    return results


def serve_and_read_back(
    args, kind: str, workdir: Path, static_root: Path, script: str, setup_args: Sequence[str], load
) -> tuple[dict, dict, Path]:
    """One load run on one database kind: create the database, run `script`'s `_setup` step
    with `setup_args` (it writes a JSON with the tournament's id), serve the site with gunicorn,
    `load(server, setup)` gives the run's result, stop the server, run the `_read` step on the
    tournament, drop the database. Returns (result with boot_s, what `_read` wrote, server log)."""
    phase(f"{kind}: setting up the database")
    db = SqliteDatabase(workdir) if kind == "sqlite" else PostgresDatabase(workdir)
    db.create()
    log = workdir / f"gunicorn-{kind}.log"
    try:
        setup_out = workdir / f"setup-{kind}.json"
        env = server_env(args, db.url, static_root)
        run_django_step(script, env, "_setup", str(setup_out), *setup_args)
        setup = json.loads(setup_out.read_text())
        port = args.port or free_port()
        phase(f"{kind}: starting gunicorn on port {port}")
        server = Server(env, port, args.workers, log, args.preload)
        boot = server.start()
        try:
            result = load(server, setup)
        finally:
            phase(f"{kind}: stopping gunicorn")
            server.stop()
        result["boot_s"] = round(boot, 2)
        phase(f"{kind}: reading the deals back")
        read_out = workdir / f"deals-{kind}.json"
        run_django_step(script, env, "_read", str(read_out), str(setup["tournament"]))
        stored = json.loads(read_out.read_text())
    finally:
        db.drop()
    return result, stored, log


def print_table(columns: Sequence[tuple[str, str]], results: list[dict]) -> None:
    """The results as a table of right-aligned columns: (key in a result, title)."""
    cells = [[title for _key, title in columns]]
    cells += [[str(r.get(key)) for key, _title in columns] for r in results]
    widths = [max(len(row[i]) for row in cells) for i in range(len(columns))]
    for n, row in enumerate(cells):
        print("  ".join(cell.rjust(width) for cell, width in zip(row, widths, strict=True)))
        if n == 0:
            print("  ".join("-" * width for width in widths))


def run_script(main: Callable[[], int], setup: Callable[..., None], read) -> NoReturn:
    """A load test's entry point: one of its Django steps when run_django_step started it
    (`_setup out args...`: setup(out, *args); `_read out tournament`: read(out, tournament)),
    else its main."""
    if len(sys.argv) > 1 and sys.argv[1] in ("_setup", "_read"):
        _django(os.environ["DATABASE_URL"])
        if sys.argv[1] == "_setup":
            setup(sys.argv[2], *sys.argv[3:])
        else:
            read(sys.argv[2], int(sys.argv[3]))
        sys.exit(0)
    sys.exit(main())
