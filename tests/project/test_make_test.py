"""`make test` says what it runs and stops the PostgreSQL server it started, and only that one."""

import os
import shutil
import socket
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from django.conf import settings

ROOT = Path(settings.BASE_DIR)
PG_BIN = sorted(Path("/usr/lib/postgresql").glob("*/bin"))


def test_the_readme_says_what_make_test_runs_and_how_long():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("`make test` runs") :][:1200]
    for said in ("ruff", "mypy", "SQLite", "PostgreSQL", "minutes", "pg-test-server-stop"):
        assert said in section, said


def test_the_makefile_stops_the_server_even_when_tests_fail():
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    recipe = makefile[makefile.index("url=$$(scripts/pg-test-server)") :][:400]
    assert "|| status=$$?" in recipe and "scripts/pg-test-server-stop; exit $$status" in recipe


def ready(port: int) -> bool:
    return (
        subprocess.run(
            [str(PG_BIN[-1] / "pg_isready"), "-q", "-h", "127.0.0.1", "-p", str(port)],
            check=False,
        ).returncode
        == 0
    )


def free_port_below_the_ephemeral_range() -> int:
    """A loopback port free right now in 22000-22999 (outside the checkouts' 21000-21999 and
    below the kernel's ephemeral ports, which another socket may take at any moment)."""
    start = 22000 + os.getpid() % 1000
    for offset in range(1000):
        port = 22000 + (start - 22000 + offset) % 1000
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise RuntimeError("no free port in 22000-22999")


@pytest.mark.skipif(not PG_BIN or shutil.which("runuser") is None, reason="no PostgreSQL server")
def test_stop_stops_only_what_start_started():
    # Straight under /tmp: as root the server runs as 'postgres', who can't enter pytest's dirs.
    tmp_path = Path(tempfile.mkdtemp(prefix="tarot-desk-pg-stop-", dir="/tmp"))
    port = free_port_below_the_ephemeral_range()
    env = {**os.environ, "PG_TEST_PORT": str(port), "PG_TEST_DATA": str(tmp_path / "pg")}
    if os.geteuid() == 0:
        shutil.chown(tmp_path, "postgres", "postgres")
    start = [str(ROOT / "scripts/pg-test-server")]
    stop = [str(ROOT / "scripts/pg-test-server-stop")]
    try:
        subprocess.run(start, env=env, check=True, capture_output=True)
        assert ready(port)
        # Already running: a second start reuses it, and its stop is the first run's business...
        subprocess.run(start, env=env, check=True, capture_output=True)
        subprocess.run(stop, env=env, check=True)
        assert not ready(port)
        # ...while a server the script did not start is left running.
        subprocess.run(start, env=env, check=True, capture_output=True)
        (tmp_path / "pg" / "started-by-tests").unlink()
        subprocess.run(stop, env=env, check=True)
        assert ready(port)
    finally:
        (tmp_path / "pg" / "started-by-tests").touch()
        subprocess.run(stop, env=env, check=False)
        shutil.rmtree(tmp_path, ignore_errors=True)


def test_two_checkouts_get_their_own_postgresql_port(tmp_path):
    """Two clones on one machine: each derives its own port (so its own server, data folder and
    test databases) from its path, the same on every call; PG_TEST_PORT still wins."""
    ports = []
    for clone in ("one", "two"):
        scripts = tmp_path / clone / "scripts"
        scripts.mkdir(parents=True)
        shutil.copy(ROOT / "scripts" / "pg-test-port", scripts)
        env = {k: v for k, v in os.environ.items() if k != "PG_TEST_PORT"}
        said = [
            subprocess.run(
                [str(scripts / "pg-test-port")], env=env, check=True, capture_output=True, text=True
            ).stdout.strip()
            for _ in range(2)
        ]
        assert said[0] == said[1] and 21000 <= int(said[0]) < 22000
        ports.append(said[0])
    assert ports[0] != ports[1]
    chosen = subprocess.run(
        [str(ROOT / "scripts" / "pg-test-port")],
        env={**os.environ, "PG_TEST_PORT": "54999"},
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    assert chosen == "54999"


def test_the_postgresql_pass_keeps_the_engine_tests_only():
    """`--engine-only` keeps a file tests/engine.py lists and a `database`-marked server test,
    and drops a pure test, a browser test and a database test the engine can't change."""
    files = [
        "tests/scoring/core/test_notation.py",  # pure
        "tests/browser/test_browser_smoke.py",  # browser
        "tests/project/test_make_test.py",  # no database
        "tests/scoring/sheets/desk/test_desk_figures.py",  # the database, through the ORM alone
        "tests/tournament/access/test_throttle.py",  # plain SQL counters (tests/engine.py)
        "tests/load/test_parallel_limits.py",  # own servers on DATABASE_URL
    ]
    out = subprocess.run(
        [sys.executable, "-m", "pytest", "--co", "-q", "--engine-only", "-p", "no:cacheprovider"]
        + files,
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    kept = {line.split("::")[0] for line in out.splitlines() if "::" in line}
    assert kept == {
        "tests/tournament/access/test_throttle.py",
        "tests/load/test_parallel_limits.py",
    }, out
