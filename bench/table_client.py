"""The table-entry load's clients: one thread per table number plays the table's phones at
each position in turn (enter, resend, race, confirm, finish; bench/table_entry.py)."""

from __future__ import annotations

import json
import random
import re
import secrets
import threading
import time
from dataclasses import dataclass, field

from load_run import ConnectionFailed, random_played_deal  # bench/load_run.py, next to this file
from table_http import REQUEST_TIMEOUT, Http, Stats

SEATS = 4
MAX_TRIES = 12  # sends of one deal before the client gives up on it (reported as refused)
TRIVIAL_EVERY = 2  # the table code page is fetched before every 2nd deal
SHEET_RE = re.compile(
    r'id="table-sheet" data-version="(\d+)" data-next-number="(\d+)" data-next-dealer="(\d+)"'
)
FULL_RE = re.compile(r'data-full="1"')
PENDING_RE = re.compile(r'data-pending="(\d+)"')
LISTED_RE = re.compile(r'<li data-deal="(\d+)"')  # the deals the phone's confirmation lists


def random_deal(rng: random.Random, dealer: int) -> dict:
    """A valid 4-player deal as the phone sends it (points integer, between 4 x oudlers and
    91 - 4 x (3 - oudlers)); now and then a passed deal, a petit au bout or a poignée."""
    if rng.random() < 0.04:
        return {"passed": True, "dealer": dealer}
    deal = {"petit_au_bout": None, **random_played_deal(rng), "dealer": dealer, "poignees": []}
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
class SheetState:
    token: str
    pins: list[str]
    version: int = 0
    next_dealer: int = 0
    full: bool = False  # the server's data-full: the position's deals are all in
    deals: dict[int, tuple[dict, int]] = field(default_factory=dict)  # number -> deal, enterer
    confirmed: set[int] = field(default_factory=set)
    listed: list[int] = field(default_factory=list)  # ids of the deals waiting, as listed


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
            sheet.listed = [int(pk) for pk in LISTED_RE.findall(data.decode("utf-8", "replace"))]
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
        sheet.listed = [int(pk) for pk in LISTED_RE.findall(text)]
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
            "entered_by": (rival := self.rng.randrange(SEATS)),
            "pin": self.sheet.pins[rival],  # the enterer's code: the server checks who entered
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
            "pin": sheet.pins[entered_by],  # the enterer's code: the server checks who entered
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

    def listed(self) -> dict:
        """What a confirmation carries besides the code: the deals the phone lists, read now,
        and the sheet's version they were read at."""
        self.read_sheet(self.sheet)
        return {"deals": self.sheet.listed, "version": self.sheet.version}

    def confirm(self, seat: int, pin: str, expect: bool) -> list[int] | None:
        listed = self.listed()
        if not listed["deals"]:
            return []
        try:
            status, data, ms = self.http.request(
                "POST",
                f"/table/{self.sheet.token}/confirmer/",
                {"seat": seat, "pin": pin, **listed},
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
            right = self.sheet.pins[seat]
            wrong = f"{(int(right) + 1) % 10 ** len(right):0{len(right)}d}"
            try:
                status, _data, _ms = self.http.request(
                    "POST",
                    f"/table/{self.sheet.token}/confirmer/",
                    {"seat": seat, "pin": wrong, **self.listed()},
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
        """Each player vouches for the sheet with their code, in a random order; the last
        signature finishes it."""
        status, data = 0, b""
        for seat in self.rng.sample(range(SEATS), SEATS):
            try:
                status, data, _ms = self.http.request(
                    "POST",
                    f"/table/{self.sheet.token}/terminer/",
                    {"seat": seat, "pin": self.sheet.pins[seat]},
                )
            except ConnectionFailed:
                return
            if status != 200:
                break
        if status == 200 and json.loads(data).get("status") == "complete":
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
