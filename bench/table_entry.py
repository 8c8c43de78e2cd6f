"""Table-entry load: 50 tables entering and confirming deals on "phones" at once, over HTTP.

Run with `.venv/bin/python bench/table_entry.py --tables 50 --seconds 30 --db both`.

For each database (a fresh SQLite file in a temporary directory, or a fresh database with a
unique name on the loopback PostgreSQL server of scripts/pg-test-server, dropped at the end) a
separate Django process migrates and creates a running tournament in phone entry mode with
`--positions` published positions of `--tables` tables of 4 seated players each, and the
tables' secret links. The site is served by gunicorn on 127.0.0.1 (the same server as
bench/load.py) and one client thread per table plays the table's phones, with no account: it
GETs the table's page (which sets the csrftoken cookie), then until the deadline (or `--deals`
deals) it

- posts a random valid deal with a fresh client id (the id a phone makes) to
  /table/<token>/donnes/, entered by a random player of the table, the sheet's version and
  dealer as the page shows them; a 409 on the version is resent with the new version, as the
  phone's "renvoyer" button does;
- for `--resend` of the deals (10 % by default), sends the same body twice: half of them as a
  double tap (two requests on two connections at the same instant), half as a lost answer
  (the first request's answer is never read: either the connection is hung up right after
  sending, or the answer is read and thrown away), then resends it (every answer must name
  the same deal);
- for `--rival` of the deals (3 %), a second phone of the table sends another deal on the same
  version at the same instant: exactly one may be stored, the other must get 409;
- confirms the deal (most of the time at once, otherwise later together with others) with the
  personal code of a player of the other side (a defender when the taker entered it, the taker
  when a defender did), and now and then first tries a wrong code (must be refused with 403);
- re-reads the sheet fragment /table/<token>/feuille/ (its data-version) after a confirmation,
  and every other deal GETs the table code page /table/, the trivial page the save is
  compared with;
- when its sheet holds the position's deals, confirms whatever still waits (every seat in
  turn), declares the sheet complete (/terminer/) and moves to its table at the next position.

At the deadline each client finishes its current deal (it resends until the deal is
acknowledged) and confirms its waiting deals. Then the server stops and a fresh process reads
the deals back. It checks that every acknowledged client id (a 201, or a 200 replay) is stored
exactly once with the deal and scores the client was told (lost: 0), that no sheet holds more
rows than distinct client ids and that no client id was answered with two different deals
(doubled: 0), that no answer was a 5xx (nor an error in the server log, for the answers
nobody read), that two racing phones never both stored a deal, that no deal is still pending
and that every confirmation came from the other side. PASS/FAIL lines and a table of figures
follow; the exit code is non-zero on any FAIL, and the last line of output is a JSON summary.

All traffic goes to 127.0.0.1; every loop is bounded by the run's deadline.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import re
import secrets
import sys
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from pathlib import Path

# bench/common.py, next to this file: Django, the databases, the gunicorn server and the loop.
from common import (
    HOST,
    PostgresDatabase,
    Server,
    SqliteDatabase,
    _django,
    add_server_arguments,
    free_port,
    percentile,
    phase,
    run_django_step,
    run_on_each_database,
    server_env,
)

CONTRACTS = ("prise", "garde", "garde_sans", "garde_contre")
SEATS = 4
REQUEST_TIMEOUT = 30.0  # seconds, per request (above SQLite's 20 s busy timeout)
IDLE_RECONNECT = 1.5  # seconds: gunicorn drops an idle keep-alive connection after 2 s
MAX_TRIES = 12  # sends of one deal before the client gives up on it (reported as refused)
TRIVIAL_EVERY = 2  # the table code page is fetched before every 2nd deal
SHEET_RE = re.compile(
    r'id="table-sheet" data-version="(\d+)" data-next-number="(\d+)" data-next-dealer="(\d+)"'
)
FULL_RE = re.compile(r'data-full="1"')
PENDING_RE = re.compile(r'data-pending="(\d+)"')


# --- the Django side, run in separate processes ----------------------------------------------


def django_setup(out: str, tables: int, positions: int, deals: int, seed: int) -> None:
    """Migrate; create the tournament, its positions, tables, seats and links; write to `out`
    per client (one per table number) its table at each position: token and the seats' codes."""
    from django.core.management import call_command
    from django.utils import timezone

    call_command("migrate", verbosity=0)

    from scoring.table_entry import links_for_position
    from tournament.models import (
        DIRECTIONS,
        Player,
        Position,
        Registration,
        Seat,
        Table,
        Tournament,
    )

    rng = random.Random(seed)
    tournament = Tournament.objects.create(
        name="Banc d'essai saisie aux tables",
        date="2026-11-21",
        entry_mode=Tournament.EntryMode.PHONES,
        status=Tournament.Status.RUNNING,
        positions_count=positions,
        deals_per_table_4=deals,
    )
    players = Player.objects.bulk_create(
        Player(last_name=f"TABLE{n:04d}", first_name="Prénom") for n in range(tables * SEATS)
    )
    registrations = Registration.objects.bulk_create(
        Registration(tournament=tournament, player=player, number=n + 1)
        for n, player in enumerate(players)
    )
    clients: list[list[dict]] = [[] for _ in range(tables)]
    for number in range(1, positions + 1):
        position = Position.objects.create(
            tournament=tournament,
            number=number,
            status=Position.Status.PUBLISHED,
            published_at=timezone.now(),
        )
        table_rows = Table.objects.bulk_create(
            Table(position=position, number=t + 1) for t in range(tables)
        )
        order = list(registrations)
        rng.shuffle(order)
        Seat.objects.bulk_create(
            Seat(table=table, registration=order[t * SEATS + s], direction=DIRECTIONS[s])
            for t, table in enumerate(table_rows)
            for s in range(SEATS)
        )
        links = {link.table_id: link for link in links_for_position(position)}
        for t, table in enumerate(table_rows):
            # The sheet's seats follow the directions' order (N, E, S, W): seat s is DIRECTIONS[s].
            pins = [order[t * SEATS + s].pin for s in range(SEATS)]
            clients[t].append({"token": links[table.pk].token, "pins": pins})
    Path(out).write_text(json.dumps({"tournament": tournament.pk, "clients": clients}))


def django_read(out: str, tournament: int) -> None:
    """Write the tournament's phone deals and what the checks need to `out`."""
    from scoring.models import Deal, ScoreSheet, SheetPlayer, TableLink
    from scoring.table_entry import may_confirm

    token_of = dict(
        TableLink.objects.filter(table__position__tournament_id=tournament).values_list(
            "table_id", "token"
        )
    )
    sheets = {
        sheet.pk: sheet
        for sheet in ScoreSheet.objects.filter(tournament_id=tournament).only(
            "pk", "table_id", "status", "version"
        )
    }
    seat_of = {
        (sheet, registration): seat
        for sheet, registration, seat in SheetPlayer.objects.filter(
            sheet__tournament_id=tournament
        ).values_list("sheet_id", "registration_id", "seat")
    }
    deals = []
    rows_of: Counter = Counter()
    ids_of: dict[int, set] = {}
    wrong_side = unconfirmed_by_anyone = 0
    for deal in Deal.objects.filter(sheet__tournament_id=tournament).order_by("pk"):
        sheet = sheets[deal.sheet_id]
        rows_of[deal.sheet_id] += 1
        if deal.client_id is not None:
            ids_of.setdefault(deal.sheet_id, set()).add(deal.client_id)
        deals.append(
            [
                deal.client_id,
                deal.pk,
                token_of.get(sheet.table_id, ""),
                deal.number,
                list(deal.scores),
                deal.pending,
            ]
        )
        if not deal.pending:
            if deal.confirmed_by_player_id is None:
                if deal.confirmed_by_id is None:
                    unconfirmed_by_anyone += 1
            elif not may_confirm(
                deal,
                seat_of.get((deal.sheet_id, deal.entered_by_player_id)),
                seat_of.get((deal.sheet_id, deal.confirmed_by_player_id)),
            ):
                wrong_side += 1
    # Rows of a sheet beyond its distinct client ids (a row without an id counts as extra).
    extra_rows = sum(rows - len(ids_of.get(sheet, ())) for sheet, rows in rows_of.items())
    Path(out).write_text(
        json.dumps(
            {
                "deals": deals,
                "sheets": len(sheets),
                "sheets_complete": sum(1 for s in sheets.values() if s.status == "complete"),
                "extra_rows": extra_rows,
                "wrong_side": wrong_side,
                "unconfirmed_by_anyone": unconfirmed_by_anyone,
            }
        )
    )


# --- the clients -----------------------------------------------------------------------------


class ConnectionFailed(Exception):
    """The request got no answer (connection reset, timeout)."""


def random_deal(rng: random.Random, dealer: int) -> dict:
    """A valid 4-player deal as the phone sends it (points integer, between 4 x oudlers and
    91 - 4 x (3 - oudlers)); now and then a passed deal, a petit au bout or a poignée."""
    if rng.random() < 0.04:
        return {"passed": True, "dealer": dealer}
    oudlers = rng.randrange(4)
    deal = {
        "taker": rng.randrange(SEATS),
        "contract": rng.choice(CONTRACTS),
        "oudlers": oudlers,
        "points": rng.randint(4 * oudlers, 91 - 4 * (3 - oudlers)),
        "dealer": dealer,
        "poignees": [],
        "petit_au_bout": None,
    }
    if rng.random() < 0.1:
        deal["petit_au_bout"] = rng.choice(("attack", "defense"))
    if rng.random() < 0.1:
        deal["poignees"] = [[rng.randrange(SEATS), "simple"]]
    return deal


def confirmers(deal: dict, entered_by: int) -> list[int]:
    """Seats of the other side than the player who entered the deal (scoring.may_confirm)."""
    others = [seat for seat in range(SEATS) if seat != entered_by]
    if deal.get("passed"):
        return others
    taker = deal["taker"]
    if entered_by == taker:
        return others  # the defenders
    return [taker]


@dataclass
class Stats:
    acked: dict[str, dict] = field(default_factory=dict)  # client id -> what the server said
    deal_posts: int = 0
    created: int = 0  # 201
    replays: int = 0  # 200 with replayed: true
    conflicts: int = 0  # 409 on the version
    conflicts_on_resend: int = 0  # of which: a resend or double tap of a stored deal
    server_errors: int = 0
    refused: int = 0  # other 4xx, or a deal given up
    connection_errors: int = 0
    different_answers: int = 0  # one client id answered with two different deals
    double_taps: int = 0
    double_tap_answers: Counter = field(default_factory=Counter)
    rivals: int = 0
    rival_answers: Counter = field(default_factory=Counter)
    rivals_both_stored: int = 0
    rival_unknown: int = 0
    lost_hangups: int = 0
    lost_dropped: int = 0
    confirmations: int = 0
    confirmed_numbers: int = 0
    confirm_refused: int = 0  # 403 where a confirmation was expected
    wrong_codes: int = 0
    wrong_codes_refused: int = 0
    throttled: int = 0
    sheets_finished: int = 0
    finish_refused: int = 0
    out_of_positions: bool = False
    save_ms: list[float] = field(default_factory=list)
    replay_ms: list[float] = field(default_factory=list)
    confirm_ms: list[float] = field(default_factory=list)
    sheet_ms: list[float] = field(default_factory=list)
    trivial_ms: list[float] = field(default_factory=list)
    samples: list[str] = field(default_factory=list)

    def note(self, text: str) -> None:
        if len(self.samples) < 5:
            self.samples.append(text[:400])


class Http:
    """One keep-alive connection with the csrftoken cookie, like a phone's browser."""

    def __init__(self, port: int, stats: Stats):
        self.port, self.stats = port, stats
        self.conn: http.client.HTTPConnection | None = None
        self.last_used = 0.0
        self.cookies: dict[str, str] = {}

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
        self.conn = None

    def headers(self, json_body: bool) -> dict[str, str]:
        headers = {}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if json_body:
            headers["Content-Type"] = "application/json"
            headers["X-CSRFToken"] = self.cookies.get("csrftoken", "")
        return headers

    def keep_cookies(self, response: http.client.HTTPResponse) -> None:
        for header in response.headers.get_all("Set-Cookie") or []:
            for name, morsel in SimpleCookie(header).items():
                self.cookies[name] = morsel.value

    def request(self, method: str, path: str, payload: dict | None = None):
        """(status, body bytes, milliseconds); ConnectionFailed when no answer came."""
        body = json.dumps(payload).encode() if payload is not None else None
        if self.conn is not None and time.monotonic() - self.last_used > IDLE_RECONNECT:
            self.close()  # the server may have dropped it: don't send into a closing socket
        try:
            if self.conn is None:
                self.conn = http.client.HTTPConnection(HOST, self.port, timeout=REQUEST_TIMEOUT)
            started = time.perf_counter()
            self.conn.request(method, path, body=body, headers=self.headers(body is not None))
            response = self.conn.getresponse()
            data = response.read()
            elapsed = (time.perf_counter() - started) * 1000
        except (OSError, http.client.HTTPException) as err:
            self.close()
            self.stats.connection_errors += 1
            self.stats.note(f"{method} {path}: no answer ({type(err).__name__}: {err})")
            raise ConnectionFailed(str(err)) from err
        self.last_used = time.monotonic()
        self.keep_cookies(response)
        if (response.getheader("Connection") or "").lower() == "close":
            self.close()
        return response.status, data, elapsed

    def send_and_hang_up(self, path: str, payload: dict) -> None:
        """Send a request on a new connection and close it before the answer: a lost answer."""
        conn = http.client.HTTPConnection(HOST, self.port, timeout=REQUEST_TIMEOUT)
        try:
            conn.request(
                "POST", path, body=json.dumps(payload).encode(), headers=self.headers(True)
            )
        except (OSError, http.client.HTTPException):
            pass
        finally:
            conn.close()


@dataclass
class SheetState:
    token: str
    pins: list[str]
    version: int = 0
    next_dealer: int = 0
    full: bool = False  # the server's data-full: the position's deals are all in
    deals: dict[int, tuple[dict, int]] = field(default_factory=dict)  # number -> deal, enterer
    confirmed: set[int] = field(default_factory=set)


class TableClient(threading.Thread):
    def __init__(self, index: int, port: int, tables: list[dict], args, times: list[float]):
        super().__init__(name=f"table-{index + 1}", daemon=True)
        self.tables = tables  # this table number at each position
        self.args = args
        self.times = times  # [start, end], set by drive
        self.rng = random.Random(args.seed * 1000 + index)
        self.stats = Stats()
        self.http = Http(port, self.stats)
        self.go = threading.Event()
        self.deals_done = 0

    # -- reading the sheet

    def read_sheet(self, sheet: SheetState, page: bool = False) -> bool:
        path = f"/table/{sheet.token}/" if page else f"/table/{sheet.token}/feuille/"
        for _attempt in range(MAX_TRIES):
            try:
                status, data, ms = self.http.request("GET", path)
            except ConnectionFailed:
                time.sleep(0.1)
                continue
            if status >= 500:
                self.stats.server_errors += 1
                self.stats.note(f"GET {path} answered {status}")
                time.sleep(0.2)
                continue
            match = SHEET_RE.search(data.decode("utf-8", "replace"))
            if status != 200 or match is None:
                self.stats.refused += 1
                self.stats.note(f"GET {path} answered {status} without a sheet")
                return False
            if not page:
                self.stats.sheet_ms.append(ms)
            sheet.version = int(match.group(1))
            sheet.next_dealer = int(match.group(3))
            sheet.full = FULL_RE.search(data.decode("utf-8", "replace")) is not None
            return True
        return False

    def pending_on_server(self, sheet: SheetState) -> int | None:
        try:
            status, data, ms = self.http.request("GET", f"/table/{sheet.token}/feuille/")
        except ConnectionFailed:
            return None
        if status != 200:
            if status >= 500:
                self.stats.server_errors += 1
            return None
        self.stats.sheet_ms.append(ms)
        text = data.decode("utf-8", "replace")
        match = SHEET_RE.search(text)
        if match:
            sheet.version = int(match.group(1))
            sheet.next_dealer = int(match.group(3))
        pending = PENDING_RE.search(text)
        return int(pending.group(1)) if pending else None

    # -- saving a deal

    def answer(self, client_id: str, status: int, data: bytes, ms: float, resend: bool) -> str:
        """Account for one answer to a deal POST: 'acked', 'conflict', 'retry' or 'refused'."""
        st = self.stats
        st.deal_posts += 1
        if status in (200, 201):
            body = json.loads(data)
            if status == 201:
                st.created += 1
                st.save_ms.append(ms)
            else:
                if body.get("replayed"):
                    st.replays += 1
                st.replay_ms.append(ms)
            # Versions only grow at a table with one client: a late replay can't move it back.
            self.sheet.version = max(self.sheet.version, body["version"])
            seen = st.acked.get(client_id)
            told = {
                "deal": body["deal"],
                "number": body["number"],
                "scores": body["scores"],
                "token": self.sheet.token,
            }
            if seen is None:
                st.acked[client_id] = told
            elif seen != told:
                st.different_answers += 1
                st.note(f"client id {client_id} answered {seen} then {told}")
            return "acked"
        if status == 409:
            body = json.loads(data)
            if body.get("field") == "version" and isinstance(body.get("version"), int):
                st.conflicts += 1
                if resend:
                    st.conflicts_on_resend += 1
                self.sheet.version = body["version"]
                return "conflict"
            st.refused += 1
            st.note(f"deal POST answered 409: {data[:200]!r}")
            return "refused"
        if status >= 500:
            st.server_errors += 1
            st.note(f"deal POST {client_id} answered {status}: {data[:200]!r}")
            return "retry"
        st.refused += 1
        st.note(f"deal POST answered {status}: {data[:200]!r}")
        return "refused"

    def post_deal(self, client_id: str, payload: dict, resend: bool) -> str:
        path = f"/table/{self.sheet.token}/donnes/"
        try:
            status, data, ms = self.http.request("POST", path, payload)
        except ConnectionFailed:
            return "retry"
        return self.answer(client_id, status, data, ms, resend)

    def simultaneous(self, first: dict, second: dict) -> tuple[str, str]:
        """Two deal POSTs at the same instant on two connections: (outcome, outcome)."""
        other = Http(self.http.port, Stats())
        other.cookies = dict(self.http.cookies)
        answers: list = [None]

        def tap() -> None:
            try:
                answers[0] = other.request("POST", f"/table/{self.sheet.token}/donnes/", second)
            except ConnectionFailed:
                answers[0] = None
            other.close()

        thread = threading.Thread(target=tap, daemon=True)
        thread.start()
        same = first["client_id"] == second["client_id"]
        outcome = self.post_deal(first["client_id"], first, resend=same)
        thread.join(REQUEST_TIMEOUT + 5)
        if answers[0] is None:
            self.stats.connection_errors += 1
            return outcome, "retry"
        status, data, ms = answers[0]
        return outcome, self.answer(second["client_id"], status, data, ms, resend=same)

    def double_tap(self, client_id: str, payload: dict) -> None:
        """The same request twice at the same instant, on two connections."""
        self.stats.double_taps += 1
        for outcome in self.simultaneous(payload, dict(payload)):
            self.stats.double_tap_answers[outcome] += 1

    def rival(self, payload: dict) -> list[tuple[str, dict, int]]:
        """Two phones of the table send two different deals on the same version at once:
        exactly one may be stored, the other must get 409. Returns the stored ones."""
        self.stats.rivals += 1
        other = {
            "client_id": secrets.token_urlsafe(12),
            "version": payload["version"],
            "entered_by": self.rng.randrange(SEATS),
            "deal": random_deal(self.rng, payload["deal"]["dealer"]),
        }
        outcomes = self.simultaneous(payload, other)
        self.stats.rival_answers[" + ".join(sorted(outcomes))] += 1
        stored = [
            (body["client_id"], body["deal"], body["entered_by"])
            for body in (payload, other)
            if body["client_id"] in self.stats.acked
        ]
        if len(stored) == 2:
            self.stats.rivals_both_stored += 1
            self.stats.note(f"two deals stored on version {payload['version']}: {outcomes}")
        if "retry" in outcomes:
            # An answer is missing: the other phone's deal may be stored; confirm_all finds it.
            self.stats.rival_unknown += 1
        return stored

    def lost_answer(self, client_id: str, payload: dict) -> None:
        """Send and never see the answer (hang up, or read it and throw it away)."""
        if self.rng.random() < 0.5:
            self.stats.lost_hangups += 1
            self.http.send_and_hang_up(f"/table/{self.sheet.token}/donnes/", payload)
            time.sleep(self.rng.uniform(0.0, 0.2))
        else:
            self.stats.lost_dropped += 1
            try:
                status, data, _ms = self.http.request(
                    "POST", f"/table/{self.sheet.token}/donnes/", payload
                )
            except ConnectionFailed:
                return
            self.stats.deal_posts += 1
            if status >= 500:  # the answer is thrown away, but a 5xx still counts
                self.stats.server_errors += 1
                self.stats.note(f"deal POST {client_id} answered {status}: {data[:200]!r}")

    def enter_deal(self) -> bool:
        sheet = self.sheet
        dealer = sheet.next_dealer
        deal = random_deal(self.rng, dealer)
        entered_by = self.rng.randrange(SEATS)
        client_id = secrets.token_urlsafe(12)
        payload = {
            "client_id": client_id,
            "version": sheet.version,
            "entered_by": entered_by,
            "deal": deal,
        }
        roll = self.rng.random()
        resend = roll < self.args.resend
        if resend and roll < self.args.resend / 2:
            self.double_tap(client_id, payload)
        elif resend:
            self.lost_answer(client_id, payload)
        elif roll < self.args.resend + self.args.rival:
            stored = self.rival(payload)
            if stored:
                for cid, stored_deal, by in stored:
                    sheet.deals[self.stats.acked[cid]["number"]] = (stored_deal, by)
                self.deals_done += len(stored)
                self.read_sheet(sheet)  # the version and dealer after the race
                return True
        tries = 0
        while client_id not in self.stats.acked:
            tries += 1
            if tries > MAX_TRIES:
                self.stats.refused += 1
                self.stats.note(f"deal {client_id} given up after {MAX_TRIES} sends")
                return False
            payload["version"] = sheet.version
            outcome = self.post_deal(client_id, payload, resend=resend or tries > 1)
            if outcome == "refused":
                return False
            if outcome == "retry":
                time.sleep(0.1)
        told = self.stats.acked[client_id]
        sheet.deals[told["number"]] = (deal, entered_by)
        sheet.next_dealer = (dealer - 1) % SEATS
        self.deals_done += 1
        return True

    # -- confirming

    def confirm(self, seat: int, pin: str, expect: bool) -> list[int] | None:
        try:
            status, data, ms = self.http.request(
                "POST", f"/table/{self.sheet.token}/confirmer/", {"seat": seat, "pin": pin}
            )
        except ConnectionFailed:
            return None
        if status == 200:
            numbers = json.loads(data)["confirmed"]
            self.stats.confirmations += 1
            self.stats.confirmed_numbers += len(numbers)
            self.stats.confirm_ms.append(ms)
            self.sheet.confirmed.update(numbers)
            return numbers
        if status == 429:
            self.stats.throttled += 1
        elif status >= 500:
            self.stats.server_errors += 1
            self.stats.note(f"confirm answered {status}: {data[:200]!r}")
        elif expect:
            self.stats.confirm_refused += 1
            self.stats.note(f"confirm seat {seat} answered {status}: {data[:200]!r}")
        return None

    def confirm_one(self, number: int) -> None:
        deal, entered_by = self.sheet.deals[number]
        seat = self.rng.choice(confirmers(deal, entered_by))
        if self.rng.random() < 0.03:
            self.stats.wrong_codes += 1
            wrong = f"{(int(self.sheet.pins[seat]) + 1) % 10_000:04d}"
            try:
                status, _data, _ms = self.http.request(
                    "POST", f"/table/{self.sheet.token}/confirmer/", {"seat": seat, "pin": wrong}
                )
                if status == 403:
                    self.stats.wrong_codes_refused += 1
                elif status >= 500:
                    self.stats.server_errors += 1
                else:
                    self.stats.note(f"a wrong code answered {status}")
            except ConnectionFailed:
                pass
        numbers = self.confirm(seat, self.sheet.pins[seat], expect=True)
        if numbers is not None and number not in numbers:
            self.stats.confirm_refused += 1
            self.stats.note(f"confirmation by seat {seat} left deal {number} out: {numbers}")
        self.read_sheet(self.sheet)

    def confirm_all(self) -> None:
        """Every seat in turn confirms what waits for it, until the sheet shows nothing waiting."""
        sheet = self.sheet
        for _round in range(3):
            waiting = [n for n in sheet.deals if n not in sheet.confirmed]
            if not waiting:
                pending = self.pending_on_server(sheet)
                if pending == 0:
                    return
            for seat in range(SEATS):
                self.confirm(seat, sheet.pins[seat], expect=False)
            pending = self.pending_on_server(sheet)
            if pending == 0:
                return
        self.stats.note(f"sheet {sheet.token[:6]}: deals still waiting after every seat confirmed")

    def finish(self) -> None:
        seat = self.rng.randrange(SEATS)
        try:
            status, data, _ms = self.http.request(
                "POST",
                f"/table/{self.sheet.token}/terminer/",
                {"seat": seat, "pin": self.sheet.pins[seat]},
            )
        except ConnectionFailed:
            return
        if status == 200:
            self.stats.sheets_finished += 1
        elif status >= 500:
            self.stats.server_errors += 1
            self.stats.note(f"finish answered {status}: {data[:200]!r}")
        else:
            self.stats.finish_refused += 1
            self.stats.note(f"finish answered {status}: {data[:200]!r}")

    # -- the table's run

    def open_position(self, index: int) -> bool:
        if index >= len(self.tables):
            self.stats.out_of_positions = True
            return False
        self.sheet = SheetState(self.tables[index]["token"], self.tables[index]["pins"])
        return self.read_sheet(self.sheet, page=True)

    def run(self) -> None:
        self.go.wait(timeout=600)
        args = self.args
        position = 0
        if not self.open_position(position):
            return
        iteration = 0
        while time.monotonic() < self.times[1] and (not args.deals or self.deals_done < args.deals):
            if self.sheet.full or len(self.sheet.deals) >= args.deals_per_table:
                self.confirm_all()
                self.finish()
                position += 1
                if not self.open_position(position):
                    break
                continue
            iteration += 1
            if iteration % TRIVIAL_EVERY == 0:
                try:
                    status, _data, ms = self.http.request("GET", "/table/")
                    if status == 200:
                        self.stats.trivial_ms.append(ms)
                    elif status >= 500:
                        self.stats.server_errors += 1
                except ConnectionFailed:
                    pass
            if not self.enter_deal():
                if not self.read_sheet(self.sheet):
                    break
                continue
            number = max(self.sheet.deals)
            if self.rng.random() < 0.7:
                self.confirm_one(number)
        if getattr(self, "sheet", None) is not None and self.sheet.deals:
            self.confirm_all()
        self.http.close()


# --- one run ---------------------------------------------------------------------------------


def drive(args, port: int, clients_tables: list[list[dict]]) -> dict:
    times = [0.0, 0.0]
    clients = [TableClient(i, port, tables, args, times) for i, tables in enumerate(clients_tables)]
    for client in clients:
        client.start()
    start = time.monotonic()
    times[0], times[1] = start, start + args.seconds
    for client in clients:
        client.go.set()
    for client in clients:
        client.join(timeout=max(0.0, times[1] - time.monotonic()) + 120)
    elapsed = time.monotonic() - start
    hung = sum(1 for c in clients if c.is_alive())
    stats = [c.stats for c in clients]

    def total(name: str) -> int:
        return sum(getattr(st, name) for st in stats)

    def ms(name: str) -> list[float]:
        return [v for st in stats for v in getattr(st, name)]

    acked = {}
    for st in stats:
        acked.update(st.acked)
    result = {
        "tables": args.tables,
        "seconds": round(elapsed, 1),
        "clients_hung": hung,
        "acked": acked,
        "acknowledged": len(acked),
        "deals_per_s": round(len(acked) / elapsed, 1) if elapsed else 0,
        "double_tap_answers": dict(sum((st.double_tap_answers for st in stats), Counter())),
        "rival_answers": dict(sum((st.rival_answers for st in stats), Counter())),
        "out_of_positions": sum(1 for st in stats if st.out_of_positions),
        "samples": [s for st in stats for s in st.samples][:8],
        "load_avg_1min": round(os.getloadavg()[0], 1),
    }
    for name in (
        "deal_posts",
        "created",
        "replays",
        "conflicts",
        "conflicts_on_resend",
        "server_errors",
        "refused",
        "connection_errors",
        "different_answers",
        "double_taps",
        "rivals",
        "rivals_both_stored",
        "rival_unknown",
        "lost_hangups",
        "lost_dropped",
        "confirmations",
        "confirmed_numbers",
        "confirm_refused",
        "wrong_codes",
        "wrong_codes_refused",
        "throttled",
        "sheets_finished",
        "finish_refused",
    ):
        result[name] = total(name)
    for name, key in (
        ("save_ms", "save"),
        ("replay_ms", "replay"),
        ("confirm_ms", "confirm"),
        ("sheet_ms", "sheet"),
        ("trivial_ms", "trivial"),
    ):
        values = ms(name)
        result[f"{key}_n"] = len(values)
        result[f"{key}_p50_ms"] = round(percentile(values, 0.50), 1)
        result[f"{key}_p95_ms"] = round(percentile(values, 0.95), 1)
    return result


def run_one(args, kind: str, workdir: Path, static_root: Path) -> dict:
    phase(f"{kind}: setting up the database")
    db = SqliteDatabase(workdir) if kind == "sqlite" else PostgresDatabase(workdir)
    db.create()
    log = workdir / f"gunicorn-{kind}.log"
    try:
        setup_out = workdir / f"setup-{kind}.json"
        env = server_env(args, db.url, static_root)
        run_django_step(
            __file__,
            env,
            "_setup",
            str(setup_out),
            str(args.tables),
            str(args.positions),
            str(args.deals_per_table),
            str(args.seed),
        )
        setup = json.loads(setup_out.read_text())
        port = args.port or free_port()
        phase(f"{kind}: starting gunicorn on port {port}")
        server = Server(env, port, args.workers, log, args.preload)
        boot = server.start()
        try:
            phase(f"{kind}: {args.tables} tables entering deals for {args.seconds:g} s")
            result = drive(args, port, setup["clients"])
        finally:
            phase(f"{kind}: stopping gunicorn")
            server.stop()
        result["boot_s"] = round(boot, 2)
        phase(f"{kind}: reading the deals back")
        read_out = workdir / f"deals-{kind}.json"
        run_django_step(__file__, env, "_read", str(read_out), str(setup["tournament"]))
        stored = json.loads(read_out.read_text())
    finally:
        db.drop()
    acked = result.pop("acked")
    by_client_id: dict[str, list] = {}
    null_ids = 0
    for client_id, pk, token, number, scores, pending in stored["deals"]:
        if client_id is None:
            null_ids += 1
            continue
        by_client_id.setdefault(client_id, []).append(
            {"deal": pk, "number": number, "scores": scores, "token": token, "pending": pending}
        )
    lost = altered = 0
    for client_id, told in acked.items():
        rows = by_client_id.get(client_id, [])
        if not rows:
            lost += 1
        elif {k: rows[0][k] for k in told} != told:
            altered += 1
    # Rows beyond one per client id, over the whole tournament (a client id on two sheets too).
    stored_twice = sum(len(rows) - 1 for rows in by_client_id.values()) + null_ids
    server_log = log.read_text(errors="replace") if log.exists() else ""
    result.update(
        db=kind,
        stored=len(stored["deals"]),
        lost=lost,
        altered=altered,
        doubled=max(stored_twice, stored["extra_rows"]) + result["different_answers"],
        extra_rows_per_sheet=stored["extra_rows"],
        server_log_errors=server_log.count("Internal Server Error")
        + server_log.count("Traceback (most recent call last)"),
        unacknowledged_in_db=sum(1 for cid in by_client_id if cid not in acked),
        pending_in_db=sum(1 for row in stored["deals"] if row[5]),
        wrong_side=stored["wrong_side"],
        unconfirmed_by_anyone=stored["unconfirmed_by_anyone"],
        sheets=stored["sheets"],
        sheets_complete=stored["sheets_complete"],
        log=str(log),
    )
    checks = [
        ("deals acknowledged", result["acknowledged"] > 0, result["acknowledged"]),
        ("0 lost (acknowledged, not stored)", lost == 0, lost),
        ("0 altered (stored unlike the answer)", altered == 0, altered),
        ("0 doubled (a client id stored or answered twice)", result["doubled"] == 0, None),
        ("0 server errors (5xx)", result["server_errors"] == 0, result["server_errors"]),
        (
            "two phones on one version: never both stored (the version check holds)",
            result["rivals_both_stored"] == 0,
            result["rivals_both_stored"],
        ),
        (
            "0 errors in the server log (answers nobody read included)",
            result["server_log_errors"] == 0,
            result["server_log_errors"],
        ),
        (
            "0 deals pending after confirmation",
            result["pending_in_db"] == 0,
            result["pending_in_db"],
        ),
        (
            "every confirmation by the other side",
            stored["wrong_side"] == 0 and stored["unconfirmed_by_anyone"] == 0,
            stored["wrong_side"] + stored["unconfirmed_by_anyone"],
        ),
        (
            "0 deals refused or given up",
            result["refused"] == 0 and result["confirm_refused"] == 0,
            result["refused"] + result["confirm_refused"],
        ),
        (
            "every wrong code refused (403)",
            result["wrong_codes_refused"] == result["wrong_codes"],
            result["wrong_codes"] - result["wrong_codes_refused"],
        ),
        ("every client finished", result["clients_hung"] == 0, result["clients_hung"]),
    ]
    result["checks"] = [
        {"name": name, "ok": bool(ok), "value": result["doubled"] if value is None else value}
        for name, ok, value in checks
    ]
    result["ok"] = all(check["ok"] for check in result["checks"])
    return result


COLUMNS = (
    ("db", "db"),
    ("seconds", "s"),
    ("acknowledged", "acked"),
    ("stored", "stored"),
    ("lost", "lost"),
    ("doubled", "doubled"),
    ("replays", "200 replays"),
    ("conflicts", "409"),
    ("server_errors", "5xx"),
    ("pending_in_db", "pending"),
    ("deals_per_s", "deals/s"),
    ("save_p50_ms", "save p50"),
    ("save_p95_ms", "save p95"),
    ("trivial_p50_ms", "page p50"),
    ("trivial_p95_ms", "page p95"),
    ("sheet_p50_ms", "sheet p50"),
    ("sheet_p95_ms", "sheet p95"),
    ("confirm_p50_ms", "confirm p50"),
    ("confirm_p95_ms", "confirm p95"),
)


def print_table(results: list[dict]) -> None:
    cells = [[title for _key, title in COLUMNS]]
    cells += [[str(r.get(key)) for key, _title in COLUMNS] for r in results]
    widths = [max(len(row[i]) for row in cells) for i in range(len(COLUMNS))]
    for n, row in enumerate(cells):
        print("  ".join(cell.rjust(width) for cell, width in zip(row, widths, strict=True)))
        if n == 0:
            print("  ".join("-" * width for width in widths))
    print("(milliseconds; page = GET /table/, the table code page; sheet = GET .../feuille/)")


DETAILS = (
    "deal_posts",
    "created",
    "conflicts_on_resend",
    "double_taps",
    "double_tap_answers",
    "rivals",
    "rival_answers",
    "rivals_both_stored",
    "lost_hangups",
    "lost_dropped",
    "replay_p50_ms",
    "replay_p95_ms",
    "confirmations",
    "confirmed_numbers",
    "wrong_codes",
    "wrong_codes_refused",
    "throttled",
    "sheets",
    "sheets_finished",
    "sheets_complete",
    "finish_refused",
    "unacknowledged_in_db",
    "extra_rows_per_sheet",
    "server_log_errors",
    "refused",
    "confirm_refused",
    "connection_errors",
    "out_of_positions",
    "boot_s",
    "save_n",
    "trivial_n",
    "load_avg_1min",
    "samples",
)


def report(kind: str, result: dict) -> None:
    """One database's run: its checks and figures, and the server log when it failed."""
    for check in result.get("checks", []):
        print(f"  {'PASS' if check['ok'] else 'FAIL'} {kind}: {check['name']} ({check['value']})")
    details = {k: result[k] for k in DETAILS if k in result}
    print("  " + json.dumps(details, ensure_ascii=False), flush=True)
    if not result.get("ok") and "log" in result:
        print(f"  server log ({result['log']}), last lines:", file=sys.stderr)
        print(Path(result["log"]).read_text()[-6000:], file=sys.stderr)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--deals", type=int, default=0, help="stop a table after M deals (0: no)")
    parser.add_argument("--deals-per-table", type=int, default=10, help="deals of one position")
    parser.add_argument(
        "--positions", type=int, default=12, help="positions published (a table moves on)"
    )
    parser.add_argument("--resend", type=float, default=0.10, help="share of deals sent twice")
    parser.add_argument(
        "--rival",
        type=float,
        default=0.03,
        help="share of deals raced by a second phone of the table (another deal, same version)",
    )
    add_server_arguments(parser)
    args = parser.parse_args(argv)
    if not 1 <= args.tables <= 500 or not 0 < args.seconds <= 600:
        parser.error("between 1 and 500 tables, at most 600 seconds")
    if not 1 <= args.deals_per_table <= 1000 or not 1 <= args.positions <= 100:
        parser.error("1 to 1000 deals per table, 1 to 100 positions")
    if not 0 <= args.resend <= 1 or not 0 <= args.rival <= 1 - args.resend:
        parser.error("--resend and --rival are shares between 0 and 1 (together at most 1)")
    kinds = ["sqlite", "postgres"] if args.db == "both" else [args.db]
    mode = "DEBUG=true" if args.debug else "DEBUG=false (production settings, plain http)"
    print(
        f"{args.tables} tables x {args.seconds:g} s"
        f"{f' (at most {args.deals} deals each)' if args.deals else ''}, "
        f"{args.deals_per_table} deals per position, {args.resend:.0%} of deals sent twice, "
        f"gunicorn -w {args.workers} --threads 4, {mode}, {os.cpu_count()} CPUs, "
        f"load average {os.getloadavg()[0]:.1f}",
        flush=True,
    )
    results = run_on_each_database(args, kinds, "tarot-table-load-", run_one, report)
    if results is None:
        return 2
    print()
    print_table([r for r in results if "acknowledged" in r])
    ok = all(r.get("ok") for r in results)
    print()
    for r in results:
        print(f"{'PASS' if r.get('ok') else 'FAIL'} {r['db']}")
    print("PASS" if ok else "FAIL: a lost or doubled deal, a 5xx, or a run that did not work")
    for r in results:
        r.pop("log", None)
    print(json.dumps({"ok": ok, "runs": results}, ensure_ascii=False))
    return 0 if ok else 1


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] in ("_setup", "_read"):
        _django(os.environ["DATABASE_URL"])
        if sys.argv[1] == "_setup":
            django_setup(sys.argv[2], *(int(a) for a in sys.argv[3:7]))
        else:
            django_read(sys.argv[2], int(sys.argv[3]))
        sys.exit(0)
    sys.exit(main())
