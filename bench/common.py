"""What the benchmarks share: Django set up in the script's process, the throw-away databases
and the gunicorn server on loopback (a load test's run and report are in load_run.py).

The scripts of bench/ are run as files (`.venv/bin/python bench/load.py`): their folder is on
the import path, so they import this module as `common`; the tests import it as `bench.common`
(tests/load/parallel_site.py serves the site the same way).
"""

from __future__ import annotations

import http.client
import os
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HOST = "127.0.0.1"
SERVER_BOOT_LIMIT = 60.0  # seconds for gunicorn to answer after a (re)start


# --- Django in this process ------------------------------------------------------------------


def django_on_scratch_database(prefix: str = "tarot-bench-") -> tempfile.TemporaryDirectory:
    """Set Django up on a SQLite file in a new temporary folder (or on DATABASE_URL if set).

    Keep the folder returned for as long as the database is used: it is deleted with it.
    """
    tmp = tempfile.TemporaryDirectory(prefix=prefix)
    os.environ.setdefault("DATABASE_URL", f"sqlite:///{tmp.name}/bench.sqlite3")
    setup_django()
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


def setup_django() -> None:
    """Set Django up in this process, on the database of DATABASE_URL."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournament.settings")
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()


# --- databases -------------------------------------------------------------------------------


def _migrations_key() -> str:
    """A digest of what a migrated database depends on: every migration file of the project,
    and the installed packages' versions (Django's and the third-party apps' migrations)."""
    import hashlib
    from importlib import metadata

    digest = hashlib.blake2b(digest_size=12)
    for path in sorted(ROOT.glob("*/migrations/*.py")):
        digest.update(str(path.relative_to(ROOT)).encode())
        digest.update(path.read_bytes())
    versions = sorted(f"{d.metadata['Name']}=={d.version}" for d in metadata.distributions())
    digest.update("\n".join(versions).encode())
    digest.update(sys.version.encode())
    return digest.hexdigest()


def migrated_sqlite_template() -> Path:
    """A SQLite file migrated to the project's latest migrations, built once (by `migrate` in
    a process of its own) and kept in the temporary folder under a name made from what the
    migrations depend on: each throw-away database starts as a copy of it instead of paying a
    full `migrate` (seconds of CPU for each server a test starts). Built under a temporary name
    and renamed, so that parallel builders (pytest -n 2) never copy a half-migrated file."""
    template = Path(tempfile.gettempdir()) / f"tarot-migrated-{_migrations_key()}.sqlite3"
    if not template.exists():
        building = template.with_suffix(f".{os.getpid()}.building")
        env = dict(os.environ, DATABASE_URL=f"sqlite:///{building}", LOG_LEVEL="WARNING")
        command = [sys.executable, str(ROOT / "manage.py"), "migrate", "--verbosity", "0"]
        subprocess.run(command, env=env, cwd=ROOT, check=True)
        os.replace(building, template)
    return template


class SqliteDatabase:
    name = "sqlite"

    def __init__(self, workdir: Path):
        self.path = workdir / "load.sqlite3"
        self.url = f"sqlite:///{self.path}"  # an absolute path: sqlite:////tmp/...

    def create(self) -> None:
        """A copy of the migrated template: the Django step's own `migrate` then has nothing
        left to apply (and would apply anything newer, were the template behind)."""
        import shutil

        shutil.copyfile(migrated_sqlite_template(), self.path)

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

    def _template(self) -> str:
        """A database of this server migrated to the project's latest migrations (as
        migrated_sqlite_template), built once under a temporary name and renamed."""
        import psycopg

        template = f"tarot_migrated_{_migrations_key()}"
        with self._admin() as conn:
            found = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [template])
            if found.fetchone():
                return template
            building = f"{template}_{os.getpid()}"
            conn.execute(f'DROP DATABASE IF EXISTS "{building}"')
            conn.execute(f'CREATE DATABASE "{building}"')
        url = urllib.parse.urlunsplit(self.base._replace(path=f"/{building}"))
        env = dict(os.environ, DATABASE_URL=url, LOG_LEVEL="WARNING")
        command = [sys.executable, str(ROOT / "manage.py"), "migrate", "--verbosity", "0"]
        subprocess.run(command, env=env, cwd=ROOT, check=True)
        with self._admin() as conn:
            try:
                conn.execute(f'ALTER DATABASE "{building}" RENAME TO "{template}"')
            except psycopg.errors.DuplicateDatabase:  # a parallel builder was first
                conn.execute(f'DROP DATABASE "{building}" WITH (FORCE)')
        return template

    def create(self) -> None:
        """A copy of the migrated template database (see SqliteDatabase.create)."""
        import psycopg

        template = self._template()
        for attempt in range(20):
            try:
                with self._admin() as conn:
                    conn.execute(f'CREATE DATABASE "{self.dbname}" TEMPLATE "{template}"')
                return
            except psycopg.errors.ObjectInUse:  # another worker copying it this instant
                time.sleep(0.1 * (attempt + 1))
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

    def __init__(
        self,
        env: dict[str, str],
        port: int,
        workers: int,
        log: Path,
        preload: bool,
        command: list[str] | None = None,
    ):
        """`command`: gunicorn's whole command line instead of the load tests' own."""
        self.env, self.port, self.workers, self.log = env, port, workers, log
        self.preload = preload
        self.command = command
        self.proc: subprocess.Popen | None = None

    def start(self) -> float:
        started = time.monotonic()
        with open(self.log, "ab") as log:
            self.proc = subprocess.Popen(
                self.command
                or [
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

    def cpu_seconds(self) -> float:
        """CPU time (user + system) used so far by the master and its workers: the server's
        own cost, which a machine shared with other work does not inflate as it does the
        wall-clock rates (Linux /proc)."""
        if self.proc is None:
            return 0.0
        return server_cpu_seconds(self.proc.pid)["gunicorn"]

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


def server_env(url: str, static_root: Path, *, debug: bool) -> dict[str, str]:
    """The environment of a Django step and of the server on the database at `url`: DEBUG on
    (no collectstatic needed), or production settings for plain http on loopback."""
    env = dict(os.environ, DATABASE_URL=url, STATIC_ROOT=str(static_root), LOG_LEVEL="WARNING")
    if debug:
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


def run_django_step(script: str, env: dict[str, str], *args: str) -> None:
    """Run `script` (a load test's own file) in a new process for one of its Django steps."""
    subprocess.run(
        [sys.executable, str(Path(script).resolve()), *args], env=env, cwd=ROOT, check=True
    )


# --- the server's CPU ------------------------------------------------------------------------

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def _proc_stats() -> list[tuple[int, list[str], int]]:
    """(pid, the fields of /proc/<pid>/stat after the command's name, CPU ticks of the process
    and of its reaped children) of every process."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            text = (entry / "stat").read_text()
        except OSError:  # gone meanwhile
            continue
        rest = text.rsplit(")", 1)[1].split()  # rest[0] is field 3 (state)
        found.append((int(entry.name), rest, sum(int(rest[i]) for i in range(11, 15))))
    return found


def _postmaster(port: int) -> int | None:
    """The pid of the PostgreSQL server listening on `port` (argv: postgres ... -p PORT)."""
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            argv = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if argv[0].endswith(b"postgres") and any(
            a == b"-p" and b == str(port).encode() for a, b in zip(argv, argv[1:], strict=False)
        ):
            return int(entry.name)
    return None


def server_cpu_seconds(gunicorn_pgid: int, pg_port: int | None = None) -> dict[str, float]:
    """CPU seconds used so far by gunicorn (its process group: master and workers, and workers
    that died, through the master's reaped children) and by the PostgreSQL server on `pg_port`
    (the postmaster and its children: a backend per connection, gone after its request and
    counted then in the postmaster's reaped children). The difference of two readings is the
    server's CPU between them."""
    stats = _proc_stats()
    gunicorn = sum(ticks for _pid, rest, ticks in stats if int(rest[2]) == gunicorn_pgid)
    postgres = 0
    postmaster = _postmaster(pg_port) if pg_port else None
    if postmaster is not None:
        postgres = sum(
            ticks for pid, rest, ticks in stats if pid == postmaster or int(rest[1]) == postmaster
        )
    return {"gunicorn": gunicorn / CLOCK_TICKS, "postgres": postgres / CLOCK_TICKS}
