"""Two application servers on one PostgreSQL database behave as one: two gunicorn instances on
two ports (as behind a proxy that spreads requests), and one client whose requests alternate
between them. Sessions, idempotency keys, attempt counters and login locks are rows of the
database (tests/project/test_shared_state.py keeps it so), so:

- the arbiter logs in on server 1 and writes on the desk of server 2 with the same cookie, and a
  logout on server 2 ends the session on server 1 too;
- a phone's deal entered on server 2 is confirmed on server 1 with an opponent's code;
- a deal resent to the other server, one after the other or at the same instant, is answered
  with the original and stored once;
- wrong personal codes and wrong passwords alternating between the servers hit the limit at the
  same total as on one server;
- afterwards the database holds every acknowledged deal once, with the scores the client was
  told, and no session left logged in; neither server logged an error.

PostgreSQL only (`make test`'s PostgreSQL pass, which sets DATABASE_URL): SQLite is one file on
one machine, never shared by servers on two. Run it alone with
`DATABASE_URL=$(scripts/pg-test-server) .venv/bin/pytest tests/load/test_two_servers.py -s`.
"""

from __future__ import annotations

import json
import re
import secrets
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.conf import settings

from scoring.sheets.table_entry.guessing import CLIENT_ALLOWANCE
from tests.load.engines import postgres_servers
from tests.load.parallel_site import (
    Answer,
    PhoneTable,
    ServedSite,
    all_at_once,
    form_page,
    request,
    served_site,
)

pytestmark = postgres_servers("two servers share a PostgreSQL database")

WORKERS = 2  # per server: two processes each, four in all
SHEET_RE = re.compile(r'id="table-sheet" data-version="(\d+)" data-next-number="(\d+)"')


@pytest.fixture(scope="module")
def site() -> Iterator[ServedSite]:
    with tempfile.TemporaryDirectory(prefix="tarot-two-servers-") as tmp:
        with served_site("postgres", Path(tmp), servers=2, workers=WORKERS) as served:
            print(
                f"\nseeded in {served.timings['seed_s']:.1f} s, two gunicorn -w {WORKERS} "
                f"on ports {served.ports} up in {served.timings['boot_s']:.1f} s"
            )
            yield served


def ok(answer: Answer, status: int = 200) -> Answer:
    assert answer.status == status, (answer.status, answer.location, answer.text[:500])
    return answer


def log_in(site: ServedSite, port: int, password: str) -> Answer:
    cookies, hidden = form_page(port, "/connexion/")
    form = {**hidden, "username": site.seeded["desk"]["username"], "password": password}
    answer = request(port, "POST", "/connexion/", form=form, cookies=cookies)
    answer.cookies = cookies | answer.cookies
    return answer


def check_login_on_one_server_writes_on_the_other(site: ServedSite) -> dict:
    """Returns what the desk's client was told of the deal it saved."""
    one, two = site.ports
    desk = site.seeded["desk"]
    login = log_in(site, one, desk["password"])
    assert login.status == 302 and "sessionid" in login.cookies, (login.status, login.text[:300])
    cookies = login.cookies
    api = f"/api/feuilles/{desk['sheet']}/"
    version = json.loads(ok(request(two, "GET", api, cookies=cookies)).text)["version"]
    deal = {"taker": 1, "contract": "garde", "oudlers": 2, "points": 47}
    body = {"version": version, "deal": deal}
    saved = json.loads(
        ok(request(two, "POST", api + "donnes/", json_body=body, cookies=cookies), 201).text
    )
    # Server 1 reads what server 2 wrote.
    assert json.loads(ok(request(one, "GET", api, cookies=cookies)).text)["version"] > version

    # A logout on server 2 ends the session on server 1: nothing of it stays in a process.
    token = {"csrfmiddlewaretoken": cookies["csrftoken"]}
    ok(request(two, "POST", "/deconnexion/", form=token, cookies=cookies), 302)
    after = request(one, "GET", api, cookies=cookies)
    assert after.status in (302, 401, 403), (after.status, after.text[:300])
    return saved


def sheet_version(port: int, table: PhoneTable, cookies: dict[str, str]) -> int:
    """The version the table's sheet shows on `port` (a phone's poll)."""
    match = SHEET_RE.search(ok(request(port, "GET", table.page + "feuille/", cookies=cookies)).text)
    return int(match.group(1)) if match else 0


def phone_deal(table: PhoneTable, *, version: int, dealer: int) -> dict:
    """A deal taken by the player at seat index 0, entered by them with their code."""
    taker = next(seat for seat in table.seats if seat["index"] == 0)
    return {
        "client_id": secrets.token_urlsafe(12),
        "version": version,
        "entered_by": 0,
        "pin": taker["pin"],
        "deal": {
            "taker": 0,
            "contract": "prise",
            "oudlers": 1,
            "points": 45,
            "dealer": dealer,
            "petit_au_bout": None,
            "poignees": [],
        },
    }


def confirm(port: int, table: PhoneTable, cookies: dict[str, str], deals: list[int]) -> list[int]:
    """A defender (seat index 1) confirms the waiting deals their phone listed (`deals`, at the
    sheet's current version) with their own code."""
    defender = next(seat for seat in table.seats if seat["index"] == 1)
    version = sheet_version(port, table, cookies)
    body = {"seat": 1, "pin": defender["pin"], "version": version, "deals": deals}
    answer = request(port, "POST", table.page + "confirmer/", json_body=body, cookies=cookies)
    return json.loads(ok(answer).text)["confirmed"]


def check_phone_deals_cross_the_servers(site: ServedSite, table: PhoneTable) -> dict[str, dict]:
    """Returns what the phone was told, by client id."""
    one, two = site.ports
    phone = table.csrf_cookies(two)
    told: dict[str, dict] = {}

    def post(port: int, body: dict) -> Answer:
        return request(port, "POST", table.page + "donnes/", json_body=body, cookies=phone)

    # Entered on server 2, confirmed on server 1 by a player of the other side.
    first = phone_deal(table, version=sheet_version(two, table, phone), dealer=0)
    told[first["client_id"]] = json.loads(ok(post(two, first), 201).text)
    assert confirm(one, table, phone, [told[first["client_id"]]["deal"]]) == [1]

    # Its answer lost, the deal is resent to the other server: the original is answered.
    second = phone_deal(table, version=sheet_version(one, table, phone), dealer=3)
    told[second["client_id"]] = json.loads(ok(post(one, second), 201).text)
    resent = json.loads(ok(post(two, second), 200).text)
    assert resent["replayed"] and resent["deal"] == told[second["client_id"]]["deal"]

    # A double tap reaching both servers at the same instant: one stored, both told the same.
    third = phone_deal(table, version=sheet_version(two, table, phone), dealer=2)
    answers = all_at_once(2, lambda i: post(site.ports[i], third))
    assert all(isinstance(a, Answer) for a in answers), answers
    assert sorted(a.status for a in answers) == [200, 201], [(a.status, a.text) for a in answers]
    bodies = [json.loads(a.text) for a in answers]
    assert bodies[0]["deal"] == bodies[1]["deal"]
    told[third["client_id"]] = next(b for b in bodies if not b["replayed"])
    listed = [told[second["client_id"]]["deal"], told[third["client_id"]]["deal"]]
    assert confirm(two, table, phone, listed) == [2, 3]
    return told


def check_wrong_codes_count_across_both_servers(site: ServedSite, table: PhoneTable) -> None:
    """One phone guesses seat 2's code, alternating servers: the allowance is the same total as
    on one server, and the lock holds on both."""
    path = table.page + "identifier/"
    guesser = table.csrf_cookies(site.ports[0])
    guesses = table.wrong_pins(2, CLIENT_ALLOWANCE + 3)
    statuses = [
        request(
            site.ports[i % 2], "POST", path, json_body={"seat": 2, "pin": pin}, cookies=guesser
        ).status
        for i, pin in enumerate(guesses)
    ]
    assert statuses == [403] * CLIENT_ALLOWANCE + [429] * 3, statuses
    right = {"seat": 2, "pin": next(s["pin"] for s in table.seats if s["index"] == 2)}
    for port in site.ports:  # locked everywhere, even for the right code
        assert request(port, "POST", path, json_body=right, cookies=guesser).status == 429
    # The real player's own phone is not locked by a stranger's guesses.
    own = table.csrf_cookies(site.ports[1])
    ok(request(site.ports[1], "POST", path, json_body=right, cookies=own))


def check_wrong_passwords_count_across_both_servers(site: ServedSite) -> None:
    """Wrong passwords for the arbiter alternating servers are answered as on one server
    (tests/tournament/access/test_login_gate.py): AXES_FAILURE_LIMIT checked, the last one
    locking and getting the lockout page, then refused unchecked on both servers, the right
    password too."""
    tries = settings.AXES_FAILURE_LIMIT + 1
    statuses = [log_in(site, site.ports[i % 2], f"faux-{i}").status for i in range(tries)]
    assert statuses == [200] * (tries - 2) + [429] * 2, statuses
    for port in site.ports:
        assert log_in(site, port, site.seeded["desk"]["password"]).status == 429


def test_two_servers_on_one_database_behave_as_one(site: ServedSite):
    started = time.monotonic()
    table = site.phone_table
    desk_deal = check_login_on_one_server_writes_on_the_other(site)
    told = check_phone_deals_cross_the_servers(site, table)
    check_wrong_codes_count_across_both_servers(site, table)
    check_wrong_passwords_count_across_both_servers(site)
    print(f"the client's requests: {time.monotonic() - started:.1f} s")

    stored = site.read_back()
    deals = stored["deals"]
    desk = [d for d in deals if d["sheet_id"] == site.seeded["desk"]["sheet"]]
    assert [(d["pk"], d["scores"]) for d in desk] == [(desk_deal["deal"], desk_deal["scores"])]
    phone = [d for d in deals if d["sheet_id"] != site.seeded["desk"]["sheet"]]
    # Nothing lost, nothing doubled: each client id once, with what the phone was told.
    assert sorted(d["client_id"] for d in phone) == sorted(told)
    for d in phone:
        answer = told[d["client_id"]]
        assert (d["pk"], d["number"], d["scores"]) == (
            answer["deal"],
            answer["number"],
            answer["scores"],
        )
    assert [d["number"] for d in phone] == [1, 2, 3]
    seats = {seat["index"]: seat["registration"] for seat in table.seats}
    assert {
        (d["pending"], d["entered_by_player_id"], d["confirmed_by_player_id"]) for d in phone
    } == {(False, seats[0], seats[1])}
    # One count of checked passwords for both servers: the limit, no more.
    login_key = f"login|127.0.0.1|{site.seeded['desk']['username']}"
    assert stored["counters"][login_key] == settings.AXES_FAILURE_LIMIT
    # Nothing leaked: the logout ended the only session, the locked logins opened none.
    assert stored["logged_in"] == []
    for log in site.logs:
        assert "Traceback" not in log.read_text(), log.read_text()[-3000:]
