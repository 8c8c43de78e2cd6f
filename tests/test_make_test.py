"""`make test` says what it runs and stops the PostgreSQL server it started, and only that one."""

import os
import shutil
import subprocess
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


@pytest.mark.skipif(not PG_BIN or shutil.which("runuser") is None, reason="no PostgreSQL server")
def test_stop_stops_only_what_start_started():
    # Straight under /tmp: as root the server runs as 'postgres', who can't enter pytest's dirs.
    tmp_path = Path(tempfile.mkdtemp(prefix="tarot-desk-pg-stop-", dir="/tmp"))
    port = 54000 + os.getpid() % 900
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
