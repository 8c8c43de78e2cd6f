"""Pages go out gzipped; htmx and the stylesheets go out compressed and cached, on a laptop
(`make run`, DEBUG) as in production (WhiteNoise's compressed, hashed copies)."""

import gzip
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.http import HttpResponse
from django.test import RequestFactory
from django.urls import reverse

from tests.report_builders import build_tournament
from tournament.middleware import GZipMiddleware
from tournament.models import Tournament

ROOT = Path(__file__).resolve().parents[2]
HTMX = (ROOT / "static" / "js" / "htmx.min.js").read_bytes()

# Run in a fresh process: the static files storage and WhiteNoise read DEBUG at start-up. The
# collection leaves out the admin's and django-htmx's own files (nine tenths of the bytes to hash
# and compress; nothing here reads them): collecting everything from a fresh state is `make
# club`'s test (tests/project/test_club_mode.py).
STATIC_PROBE = """
import json, sys
import django
django.setup()
from django.core.management import call_command
from django.templatetags.static import static
from django.test import Client
from django.test.utils import setup_test_environment
setup_test_environment()
if sys.argv[1] == "collect":
    call_command("collectstatic", interactive=False, verbosity=0,
                 ignore_patterns=["admin", "django_htmx"])
url = static("js/htmx.min.js")
client = Client()
response = client.get(url, HTTP_ACCEPT_ENCODING="gzip")
body = b"".join(response.streaming_content) if response.streaming else response.content
again = client.get(url, HTTP_IF_NONE_MATCH=response.get("ETag", ""),
                   HTTP_IF_MODIFIED_SINCE=response.get("Last-Modified", ""))
print(json.dumps({
    "url": url,
    "status": response.status_code,
    "encoding": response.get("Content-Encoding", ""),
    "cache": response.get("Cache-Control", ""),
    "revalidated": again.status_code,
    "size": len(body),
    "body": body.hex(),
}))
"""


def probe_static(tmp_path, **variables) -> dict:
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in {"DEBUG", "SECRET_KEY", "DJANGO_ALLOW_ASYNC_UNSAFE", "STATIC_ROOT"}
    }
    env.update(
        DJANGO_SETTINGS_MODULE="tournament.settings",
        STATIC_ROOT=str(tmp_path / "staticfiles"),
        ALLOWED_HOSTS="testserver",
        DATABASE_URL=f"sqlite:///{tmp_path / 'probe.sqlite3'}",
        **variables,
    )
    mode = "collect" if variables.get("DEBUG") == "false" else "finders"
    result = subprocess.run(
        [sys.executable, "-c", STATIC_PROBE, mode],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    answer = json.loads(result.stdout.strip().splitlines()[-1])
    answer["body"] = bytes.fromhex(answer["body"])
    return answer


@pytest.mark.django_db
def test_public_pages_go_out_gzipped(client):
    built = build_tournament(is_public=True, status=Tournament.Status.RUNNING)
    url = reverse("public-tournament", args=[built["tournament"].pk])
    plain = client.get(url)
    zipped = client.get(url, HTTP_ACCEPT_ENCODING="gzip, deflate, br")
    assert zipped["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in zipped["Vary"]
    assert len(zipped.content) < len(plain.content) / 2
    assert b"JOUEURA A" in gzip.decompress(zipped.content)
    # Without Accept-Encoding, plain HTML.
    assert not plain.has_header("Content-Encoding")


@pytest.mark.django_db
def test_a_shared_render_is_compressed_once_and_a_personal_page_every_time(client):
    """The standings every phone gets alike go out as the same compressed bytes (compressed
    once per process); a page that is not shared keeps its random padding per answer."""
    built = build_tournament(is_public=True, status=Tournament.Status.RUNNING)
    pk = built["tournament"].pk
    partial = reverse("public-standings-partial", args=[pk])
    client.get(partial)  # rendered and stored
    first, second = (client.get(partial, HTTP_ACCEPT_ENCODING="gzip") for _ in range(2))
    assert first["Content-Encoding"] == second["Content-Encoding"] == "gzip"
    assert first.content == second.content
    assert gzip.decompress(first.content) == client.get(partial).content
    assert first["ETag"].startswith('W/"') and "Accept-Encoding" in first["Vary"]
    # Sent back weak, it is still the version: a 304.
    assert client.get(partial, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    page = reverse("public-tournament", args=[pk])
    pages = {client.get(page, HTTP_ACCEPT_ENCODING="gzip").content for _ in range(4)}
    assert len(pages) > 1  # "Heal the Breach" padding: every answer differs


def test_a_byte_range_is_sent_as_those_bytes():
    request = RequestFactory().get("/static/js/htmx.min.js", HTTP_ACCEPT_ENCODING="gzip")
    partial = HttpResponse(HTMX[:4096], status=206)
    answer = GZipMiddleware(lambda request: partial)(request)
    assert not answer.has_header("Content-Encoding") and answer.content == HTMX[:4096]


@pytest.mark.slow
def test_make_run_sends_htmx_gzipped_and_revalidates_it(tmp_path):
    """DEBUG, no collectstatic (as `make run` and the tests): WhiteNoise finds the file, gzip
    compresses it, and a second visit gets a 304."""
    answer = probe_static(tmp_path, DEBUG="true")
    assert answer["status"] == 200
    assert answer["encoding"] == "gzip"
    assert gzip.decompress(answer["body"]) == HTMX
    assert answer["size"] < len(HTMX) / 2
    assert answer["revalidated"] == 304


@pytest.mark.slow
def test_production_serves_htmx_precompressed_under_a_hashed_name_cached_for_a_year(tmp_path):
    answer = probe_static(
        tmp_path,
        DEBUG="false",
        SECRET_KEY="p" * 12 + "-a-production-secret-key-long-and-random-enough-0123456789",
        SECURE_SSL_REDIRECT="false",
    )
    assert answer["status"] == 200
    assert answer["url"] != "/static/js/htmx.min.js"  # hashed: a new htmx gets a new name
    assert answer["encoding"] == "gzip"  # WhiteNoise's copy, made by collectstatic
    assert gzip.decompress(answer["body"]) == HTMX
    assert "immutable" in answer["cache"]
    max_age = int(answer["cache"].split("max-age=")[1].split(",")[0])
    assert max_age >= 365 * 24 * 3600
