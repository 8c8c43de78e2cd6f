"""Club mode (`make club`): the laptop's LAN addresses and name are accepted, PUBLIC_URL is set
from them, plain http works (no https redirect, cookies without TLS), and from a fresh state the
server it starts answers a phone that names the laptop in Host."""

import http.client
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bench.common import free_port
from tournament import club

ROOT = Path(__file__).resolve().parents[2]


def test_the_address_phones_open_is_the_first_lan_address():
    assert club.public_url(["192.168.1.23"], ["clublaptop"], 8000) == "http://192.168.1.23:8000"
    assert club.public_url([], ["clublaptop"], 80) == "http://clublaptop"


def test_lan_addresses_are_never_loopback():
    for address in club.lan_addresses():
        assert not address.startswith("127.")


def test_club_environment_allows_the_lan_and_serves_plain_http(tmp_path):
    env = club.club_env(
        8000,
        addresses=["192.168.1.23"],
        names=["clublaptop", "clublaptop.local"],
        base={},
        secret_file=tmp_path / "key",
    )
    assert env["DEBUG"] == "false"
    assert env["PUBLIC_URL"] == "http://192.168.1.23:8000"
    hosts = env["ALLOWED_HOSTS"].split(",")
    assert {"192.168.1.23", "clublaptop", "clublaptop.local", "127.0.0.1"} <= set(hosts)
    assert "http://192.168.1.23:8000" in env["CSRF_TRUSTED_ORIGINS"].split(",")
    assert env["SECURE_SSL_REDIRECT"] == env["SECURE_COOKIES"] == "false"
    # The secret key is made once and kept: a restart logs nobody out.
    key = env["SECRET_KEY"]
    assert len(key) > 50 and (tmp_path / "key").read_text().strip() == key
    again = club.club_env(8000, addresses=[], names=[], base={}, secret_file=tmp_path / "key")
    assert again["SECRET_KEY"] == key
    assert (tmp_path / "key").stat().st_mode & 0o077 == 0


def test_a_given_public_url_and_secret_key_win(tmp_path):
    env = club.club_env(
        8000,
        addresses=["192.168.1.23"],
        names=[],
        base={"PUBLIC_URL": "http://tarot.lan:8000", "SECRET_KEY": "k" * 60},
        secret_file=tmp_path / "key",
    )
    assert env["PUBLIC_URL"] == "http://tarot.lan:8000"
    assert env["SECRET_KEY"] == "k" * 60 and not (tmp_path / "key").exists()


def test_the_terminal_qr_code_is_big_and_square():
    lines = club.qr_text("http://192.168.1.23:8000/table/").splitlines()
    assert len(lines) >= 29 and all(len(line) == 2 * len(lines) for line in lines)


def _get(port: int, host: str, path: str = "/table/") -> http.client.HTTPResponse:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.request("GET", path, headers={"Host": f"{host}:{port}"})
    return conn.getresponse()


@pytest.mark.slow
def test_make_club_serves_a_phone_naming_the_laptop_from_a_fresh_state(tmp_path):
    """`python -m tournament.club` (what `make club` runs) on an empty database: migrate,
    collectstatic, the arbiter's login, then gunicorn on every interface."""
    port = free_port()
    dropped = {"DEBUG", "SECRET_KEY", "ALLOWED_HOSTS", "PUBLIC_URL", "DJANGO_SETTINGS_MODULE"}
    env = {key: value for key, value in os.environ.items() if key not in dropped}
    if env.get("DATABASE_URL", "").startswith(("postgres://", "postgresql://")):
        # A fresh state is the default install's: run once, on the SQLite run of the suite.
        pytest.skip("club mode from a fresh state is tested on the SQLite run")
    env["DATABASE_URL"] = f"sqlite:///{tmp_path / 'club.sqlite3'}"
    env.update(
        STATIC_ROOT=str(tmp_path / "static"),
        CLUB_SECRET_FILE=str(tmp_path / "secret"),
        ARBITER_PASSWORD="club-pw-1",
    )
    log = tmp_path / "club.log"
    with open(log, "wb") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "tournament.club", "--port", str(port), "--workers", "1"],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        names = club.host_names() or ["localhost"]
        addresses = club.lan_addresses()
        deadline = time.monotonic() + 150
        status = None
        while time.monotonic() < deadline:
            assert proc.poll() is None, log.read_text()
            try:
                status = _get(port, names[0]).status
            except OSError:
                status = None
            if status == 200:
                break
            time.sleep(0.1)
        assert status == 200, log.read_text()
        for host in [*names, *addresses]:
            assert _get(port, host).status == 200, host
        assert _get(port, "attacker.example").status == 400  # other names are still refused
        static = _get(port, names[0], "/static/css/app.css")
        assert static.status == 200 and "max-age" in (static.getheader("Cache-Control") or "")
        printed = log.read_text()
        assert "login 'arbitre', password 'club-pw-1'" in printed
        public = f"http://{addresses[0]}:{port}" if addresses else f"http://{names[0]}:{port}"
        assert f"{public}/table/" in printed
        assert (tmp_path / "secret").exists()
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=30)


def _settings_in_fresh_process(**variables: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in {"DEBUG", "SECRET_KEY", "PUBLIC_URL"}}
    env.update(variables)
    code = (
        "import django; django.setup(); from django.conf import settings as s; "
        "print(s.SECURE_SSL_REDIRECT, s.SESSION_COOKIE_SECURE, s.SECURE_HSTS_SECONDS, "
        "s.CSRF_TRUSTED_ORIGINS)"
    )
    env["DJANGO_SETTINGS_MODULE"] = "tournament.settings"
    return subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True
    )


def test_a_plain_http_public_url_turns_off_the_https_only_defaults():
    result = _settings_in_fresh_process(
        DEBUG="false", SECRET_KEY="k" * 60, PUBLIC_URL="http://192.168.1.23:8000"
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "False False 0 ['http://192.168.1.23:8000']"
    https = _settings_in_fresh_process(
        DEBUG="false", SECRET_KEY="k" * 60, PUBLIC_URL="https://tarot.example.org"
    )
    assert https.stdout.strip() == "True True 31536000 ['https://tarot.example.org']"


def test_a_public_url_with_a_path_is_refused():
    result = _settings_in_fresh_process(PUBLIC_URL="http://192.168.1.23:8000/tarot")
    assert result.returncode != 0 and "PUBLIC_URL" in result.stderr


@pytest.mark.parametrize("content", ["", "cle-deja-la\n"])
def test_the_secret_key_file_is_owner_only_whatever_existed(tmp_path, content):
    """An existing `.club-secret-key` (empty or holding a key, 0644) ends 0600 (issue 36)."""
    path = tmp_path / "key"
    path.write_text(content)
    path.chmod(0o644)
    key = club.secret_key(path)
    assert key and path.read_text().strip() == key
    assert path.stat().st_mode & 0o777 == 0o600


@pytest.mark.django_db
def test_club_mode_serves_the_admin_to_the_laptop_only(client, settings, tmp_path):
    """`make club` serves the LAN over plain http: /admin/ answers only the loopback (issue 36)."""
    env = club.club_env(
        8000, addresses=["192.168.1.23"], names=[], base={}, secret_file=tmp_path / "k"
    )
    assert env["ADMIN_LOOPBACK_ONLY"] == "true"
    settings.ADMIN_LOOPBACK_ONLY = True
    for address in ("192.168.1.50", "10.0.0.7", "::ffff:192.168.1.9", ""):
        assert client.get("/admin/", REMOTE_ADDR=address).status_code == 404, address
        assert client.get("/admin/login/", REMOTE_ADDR=address).status_code == 404, address
    for address in ("127.0.0.1", "::1", "::ffff:127.0.0.1"):
        assert client.get("/admin/login/", REMOTE_ADDR=address).status_code == 200, address
    settings.ADMIN_LOOPBACK_ONLY = False  # `make run` and production behind a proxy: unchanged
    assert client.get("/admin/login/", REMOTE_ADDR="192.168.1.50").status_code == 200
