"""A club's laptop sends a finished tournament to its comité's server over HTTP (issue 40): two
servers, each its own gunicorn process on its own database (the laptop on SQLite, the comité's
on PostgreSQL), as at the end of a club evening.

- with a wrong key, then a revoked one, the laptop shows the server's refusal and its reason;
- another club's key, a document naming another club, and one whose deal's score was changed
  are each refused with their reason; a request cut halfway stores nothing;
- a request cut after its body was sent, then the laptop's send: stored once (version 1),
  the laptop shows it with the public page's link, which opens; a double click and two
  identical sends at the same instant store nothing more;
- reopened, corrected and sent again: version 2 replaces version 1's content in the same
  tournament (its id and public link stay), version 1's document kept in the history; no
  player copied again; the comité's circuit counts the tournament once;
- backed up and restored onto another laptop, sent from there: version 3 of the same
  tournament, still counted once;
- neither server logged an error.

PostgreSQL only (`make test`'s PostgreSQL pass, which sets DATABASE_URL). Run it alone with
`DATABASE_URL=$(scripts/pg-test-server) .venv/bin/pytest -s` and this file's path (about 2
minutes on two cores).
"""

from __future__ import annotations

import http.client
import json
import re
import socket
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from bench.common import (
    HOST,
    ROOT,
    PostgresDatabase,
    Server,
    SqliteDatabase,
    free_port,
    server_env,
)
from tests.load.comite_sites import ARBITER, ARBITER_PASSWORD, OTHER_CLUB
from tests.load.engines import postgres_servers
from tests.load.parallel_site import Answer, all_at_once, form_page, request

pytestmark = postgres_servers("the comité's server runs on PostgreSQL")

ENDPOINT = "/api/comite/resultats/"


@dataclass
class Site:
    port: int
    env: dict[str, str]
    workdir: Path
    seeded: dict
    log: Path

    def step(self, name: str, *args: str) -> dict:
        out = self.workdir / f"{name}.json"
        subprocess.run(
            [sys.executable, "-m", "tests.load.comite_sites", name, str(out), *args],
            env=self.env,
            cwd=ROOT,
            check=True,
        )
        return json.loads(out.read_text()) if name != "document" else {"raw": out.read_bytes()}


@pytest.fixture(scope="module")
def sites() -> Iterator[tuple[Site, Site]]:
    with tempfile.TemporaryDirectory(prefix="tarot-comite-") as tmp:
        laptop_dir, comite_dir = Path(tmp, "laptop"), Path(tmp, "comite")
        laptop_dir.mkdir()
        comite_dir.mkdir()
        databases = [SqliteDatabase(laptop_dir), PostgresDatabase(comite_dir)]
        servers: list[Server] = []
        try:
            made = []
            for db, workdir, seed in zip(
                databases, (laptop_dir, comite_dir), ("seed-laptop", "seed-comite"), strict=True
            ):
                db.create()
                env = server_env(db.url, workdir / "static", debug=True)
                port = free_port()
                site = Site(port, env, workdir, {}, workdir / "gunicorn.log")
                site.seeded = site.step(seed)
                servers.append(Server(env, port, 2, site.log, preload=True))
                servers[-1].start()
                made.append(site)
            yield made[0], made[1]
        finally:
            for server in servers:
                server.stop()
            for db in databases:
                db.drop()


def post_document(port: int, raw: bytes, key: str) -> Answer:
    headers = {"Authorization": f"Bearer {key}", "Content-Type": "application/json"}
    conn = http.client.HTTPConnection(HOST, port, timeout=120)
    try:
        conn.request("POST", ENDPOINT, body=raw, headers=headers)
        response = conn.getresponse()
        text = response.read().decode()
    finally:
        conn.close()
    return Answer(response.status, "", text, {})


def cut_request(port: int, raw: bytes, key: str, *, send: int) -> None:
    """Send the headers and the first `send` bytes of the body, then cut the connection
    without reading any answer (the laptop's Wi-Fi dropped)."""
    head = (
        f"POST {ENDPOINT} HTTP/1.1\r\nHost: {HOST}:{port}\r\nAuthorization: Bearer {key}\r\n"
        f"Content-Type: application/json\r\nContent-Length: {len(raw)}\r\n\r\n"
    ).encode()
    with socket.create_connection((HOST, port), timeout=30) as sock:
        sock.sendall(head + raw[:send])


def laptop_login(laptop: Site) -> dict[str, str]:
    cookies, hidden = form_page(laptop.port, "/connexion/")
    form = {**hidden, "username": ARBITER, "password": ARBITER_PASSWORD}
    answer = request(laptop.port, "POST", "/connexion/", form=form, cookies=cookies)
    assert answer.status == 302, (answer.status, answer.text[:300])
    return cookies | answer.cookies


def laptop_send(laptop: Site, cookies: dict[str, str]) -> str:
    """Click "Envoyer au serveur du comité" on the laptop; the page it shows afterwards."""
    page = f"/tournois/{laptop.seeded['tournament']}/envoi-au-comite/"
    token = {"csrfmiddlewaretoken": cookies["csrftoken"]}
    sent = request(laptop.port, "POST", page, form=token, cookies=cookies)
    assert sent.status == 302, (sent.status, sent.text[:500])
    shown = request(laptop.port, "GET", page, cookies=cookies)
    assert shown.status == 200
    return shown.text


def answer_of(page: str) -> str:
    found = re.search(r'<p id="server-answer" role="status">(.*?)</p>', page, re.S)
    assert found, page[-2000:]
    return found.group(1)


def stored(comite: Site) -> tuple:
    held = comite.step("read-comite", str(comite.seeded["circuit"]))
    return (len(held["versions"]), len(held["tournaments"]), held["players"])


@pytest.mark.slow
def test_a_club_evening_reaches_the_comite(sites):
    laptop, comite = sites
    keys = comite.seeded["keys"]
    comite_url = f"http://{HOST}:{comite.port}"
    cookies = laptop_login(laptop)
    nothing = stored(comite)
    assert nothing[0] == 0

    # A wrong key, then a revoked one: the laptop shows why, the comité stores nothing.
    laptop.step("configure", comite_url, "tdk_" + "faux" * 10)
    assert "Clé d'envoi inconnue" in answer_of(laptop_send(laptop, cookies))
    laptop.step("configure", comite_url, keys["revoked"])
    assert "Clé d'envoi révoquée" in answer_of(laptop_send(laptop, cookies))
    assert stored(comite) == nothing
    laptop.step("configure", comite_url, keys["good"])
    raw = laptop.step("document")["raw"]

    # Refused by the comité, each with its reason, nothing stored.
    other = post_document(comite.port, raw, keys["other_club"])
    assert other.status == 403 and OTHER_CLUB in json.loads(other.text)["message"]
    data = json.loads(raw)
    data["club"] = {"name": OTHER_CLUB, "code": None}
    naming = post_document(comite.port, json.dumps(data).encode(), keys["good"])
    assert naming.status == 403 and f"« {OTHER_CLUB} »" in json.loads(naming.text)["message"]
    data = json.loads(raw)
    deal = next(row for row in data["sections"]["scoring.deal"] if not row["adjusted"])
    deal["scores"] = [deal["scores"][0] + 20, *deal["scores"][1:]]
    changed = post_document(comite.port, json.dumps(data).encode(), keys["good"])
    assert changed.status == 400 and "donne" in json.loads(changed.text)["message"]
    for answer in (other, naming, changed):
        assert "Rien n'a été enregistré" in json.loads(answer.text)["message"]
    cut_request(comite.port, raw, keys["good"], send=len(raw) // 2)
    assert stored(comite) == nothing

    # Cut after the whole document went: the laptop's send stores it once.
    cut_request(comite.port, raw, keys["good"], send=len(raw))
    page = laptop_send(laptop, cookies)
    assert re.search(r"(Reçu|Déjà reçu) : version 1", answer_of(page))
    link = re.search(r'<a href="([^"]+)" id="public-link">', page).group(1)
    assert link.startswith(comite_url + "/public/")
    public = request(comite.port, "GET", link.removeprefix(comite_url))
    assert public.status == 200 and "Tournoi test" in public.text
    # A double click, and the same document twice at the same instant: nothing more.
    assert "Déjà reçu : version 1" in answer_of(laptop_send(laptop, cookies))
    twice = all_at_once(2, lambda _i: post_document(comite.port, raw, keys["good"]))
    assert all(isinstance(a, Answer) and a.status == 200 for a in twice), twice
    held = comite.step("read-comite", str(comite.seeded["circuit"]))
    assert [v["number"] for v in held["versions"]] == [1]
    first_copy = held["versions"][0]["tournament_id"]
    players_at_version_1 = held["players"]
    assert held["circuit_finished"] == [first_copy] and held["circuit_ranked"] >= 8

    # Reopened, corrected, sent again: version 2 replaces version 1; the history keeps both.
    laptop.step("correct")
    assert "Reçu : version 2" in answer_of(laptop_send(laptop, cookies))
    held = comite.step("read-comite", str(comite.seeded["circuit"]))
    assert [v["number"] for v in held["versions"]] == [1, 2]
    assert len({v["digest"] for v in held["versions"]}) == 2
    # The same tournament, its content replaced: the link sent with version 1 still opens it.
    assert [v["tournament_id"] for v in held["versions"]] == [first_copy, first_copy]
    assert [t["pk"] for t in held["tournaments"]] == [first_copy]
    assert held["incidents"][str(first_copy)] == 13
    assert held["players"] == players_at_version_1  # the same people, none copied again
    assert held["circuit_finished"] == [first_copy]
    assert link in laptop_send(laptop, cookies)  # a double click: the same link
    assert request(comite.port, "GET", link.removeprefix(comite_url)).status == 200
    assert len(held["keys_used"]) == 1  # the good key only

    # Backed up, restored onto another laptop, sent from there: version 3 of the same
    # tournament (its source travels in the backup), not a second one counted twice.
    laptop.seeded["tournament"] = laptop.step("move-laptop")["tournament"]
    assert "Reçu : version 3" in answer_of(laptop_send(laptop, cookies))
    held = comite.step("read-comite", str(comite.seeded["circuit"]))
    assert [v["number"] for v in held["versions"]] == [1, 2, 3]
    assert [t["pk"] for t in held["tournaments"]] == [first_copy]
    assert held["players"] == players_at_version_1
    assert held["circuit_finished"] == [first_copy]

    for site in (laptop, comite):
        log = site.log.read_text()
        assert "Traceback" not in log and "Internal Server Error" not in log, log[-3000:]
