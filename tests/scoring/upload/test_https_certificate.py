"""The laptop sends over HTTPS and checks the comité server's certificate (issue 40): against a
self-signed certificate made here with openssl, the laptop whose CA bundle setting
(COMITE_CA_BUNDLE) holds it sends; one whose bundle holds another certificate, or the system's
authorities only, refuses the server with a French message and keeps the sending waiting; an
http:// address is refused unless the laptop's settings explicitly allow it, as its page says.
The server here is a small HTTPS server in a thread that answers as the comité's would."""

from __future__ import annotations

import html
import json
import ssl
import subprocess
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from scoring.upload.send import comite_server_save, results_send
from scoring.uploads import ResultsSend

pytestmark = pytest.mark.django_db


def certificate(folder: Path, name: str) -> tuple[Path, Path]:
    """A self-signed certificate for 127.0.0.1 and localhost: (certificate, key)."""
    cert, key = folder / f"{name}.pem", folder / f"{name}.key"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
         "-nodes", "-keyout", str(key), "-out", str(cert), "-days", "2", "-subj", f"/CN={name}",
         "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"],
        check=True,
        capture_output=True,
    )  # fmt: skip
    return cert, key


class Comite(BaseHTTPRequestHandler):
    received: list[bytes] = []

    def do_POST(self):  # noqa: N802 (http.server's name)
        body = self.rfile.read(int(self.headers["Content-Length"]))
        Comite.received.append(body)
        answer = {"status": "received", "message": "Reçu : version 1 du tournoi.", "version": 1}
        raw = json.dumps(answer).encode()
        self.send_response(201)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(raw)))
        self.end_headers()
        self.wfile.write(raw)

    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def certificates(tmp_path_factory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("certificates")
    (good, key), (other, _key) = certificate(folder, "comite"), certificate(folder, "other")
    return {"good": good, "key": key, "other": other}


@pytest.fixture
def https_server(certificates) -> Iterator[str]:
    Comite.received = []
    server = ThreadingHTTPServer(("127.0.0.1", 0), Comite)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(certificates["good"], certificates["key"])
    server.socket = context.wrap_socket(server.socket, server_side=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"https://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def test_the_servers_own_certificate_in_the_bundle_is_accepted(
    finished, key, https_server, certificates, settings
):
    settings.COMITE_CA_BUNDLE = str(certificates["good"])
    comite_server_save(url=https_server, key=key)
    sending = results_send(tournament=finished)
    assert sending.status == ResultsSend.Status.RECEIVED, sending.message
    assert sending.version == 1 and len(Comite.received) == 1


@pytest.mark.parametrize("bundle", ["other", None])
def test_a_certificate_the_laptop_does_not_trust_is_refused_in_french(
    finished, key, https_server, certificates, settings, bundle
):
    settings.COMITE_CA_BUNDLE = str(certificates[bundle]) if bundle else ""
    comite_server_save(url=https_server, key=key)
    sending = results_send(tournament=finished)
    assert sending.status == ResultsSend.Status.WAITING
    assert "certificat du serveur refusé" in sending.message
    assert ".." not in sending.message.replace("...", "")  # one stop, not two
    assert not Comite.received  # nothing went to a server the laptop does not trust


def test_plain_http_only_when_the_settings_allow_it(arbiter_client, finished, key):
    with pytest.raises(ValidationError, match="http://"):
        comite_server_save(url="http://comite.example.org", key=key)
    page = html.unescape(arbiter_client.get(reverse("comite-settings")).content.decode())
    assert "Une adresse en http:// n'est acceptée que si vous cochez" in page
    refused = arbiter_client.post(
        reverse("comite-settings"), {"url": "http://comite.example.org", "key": key}
    )
    assert "Adresse en http:// : l'envoi passe en clair" in html.unescape(refused.content.decode())
    allowed = arbiter_client.post(
        reverse("comite-settings"),
        {"url": "http://comite.example.org", "key": key, "allow_http": "on"},
        follow=True,
    )
    assert "http sans chiffrement autorisé" in html.unescape(allowed.content.decode())
    page = arbiter_client.get(reverse("tournament-send", args=[finished.pk]))
    assert "http sans chiffrement autorisé" in html.unescape(page.content.decode())
