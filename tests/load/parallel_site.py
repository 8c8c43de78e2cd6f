"""The site served by gunicorn on a throw-away database, and requests fired at it together
(tests/load/test_parallel_limits.py): the limits that must hold across server processes.

The database (a SQLite file, or a fresh database on the loopback PostgreSQL server) is seeded
by a separate Django process (`python -m tests.load.parallel_site seed OUT`, this module's own
`__main__`), then served by bench/common.py's Server, as the load benchmarks do. What the seed
made is in `ServedSite.seeded`:

- `signup`: a tournament whose public sign-up page is open (no position yet, no capacity);
- `phone_table`: a running tournament in phone entry mode with one published position of one
  table of four: the table link's token and code, and its seats (registration id, direction,
  seat index in the sheet's order, name and personal code), for the personal-code tests;
- `desk`: an arbiter account (a superuser: `username`, `password`) and a free score sheet of
  four players in a tournament of its own (`sheet`), for the desk's JSON API.

`python -m tests.load.parallel_site read OUT` writes the counters, the sign-ups, the deals and
the logged-in sessions back (`reads`: the same for each path it reads on stdin, one process for
all the reads of a test). `served_site(..., servers=2)` serves the one database with two
gunicorn instances on two ports (tests/load/test_two_servers.py).
"""

from __future__ import annotations

import html
import http.client
import json
import os
import random
import re
import subprocess
import sys
import threading
import time
import urllib.parse
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from pathlib import Path
from typing import Any, TypeVar

from bench.common import (
    HOST,
    ROOT,
    PostgresDatabase,
    Server,
    SqliteDatabase,
    free_port,
    server_env,
    setup_django,
)

WORKERS = 4  # gunicorn processes: the counts must hold across them
REQUEST_TIMEOUT = 60.0  # seconds: a request queued behind hundreds of others still answers
SEATS = 4
ARBITER = "arbitre-deux-serveurs"
ARBITER_PASSWORD = "deux-serveurs-" + "mot-de-passe-7"

T = TypeVar("T")


# --- the Django side, run in a separate process ------------------------------------------------


def seed(out: str) -> None:
    """Migrate; create the two tournaments; write what the tests need to `out` (JSON)."""
    from django.core.management import call_command
    from django.utils import timezone

    call_command("migrate", verbosity=0)

    from scoring.sheets.services import sheet_create_free
    from scoring.sheets.table_entry import links_for_position
    from tournament import models

    signup = models.Tournament.objects.create(
        name="Inscriptions en parallèle", date="2026-11-21", signup_open=True
    )
    running = models.Tournament.objects.create(
        name="Saisie aux tables en parallèle",
        date="2026-11-21",
        entry_mode=models.Tournament.EntryMode.PHONES,
        status=models.Tournament.Status.RUNNING,
        positions_count=1,
    )
    players = models.Player.objects.bulk_create(
        models.Player(last_name=f"TABLE{'ABCD'[n]}", first_name="Prénom") for n in range(SEATS)
    )
    registrations = [
        models.Registration.objects.create(tournament=running, player=player, number=n + 1)
        for n, player in enumerate(players)
    ]
    position = models.Position.objects.create(
        tournament=running,
        number=1,
        status=models.Position.Status.PUBLISHED,
        published_at=timezone.now(),
    )
    table = models.Table.objects.create(position=position, number=1)
    seats = [
        models.Seat.objects.create(
            table=table, registration=registration, direction=models.DIRECTIONS[n]
        )
        for n, registration in enumerate(registrations)
    ]
    (link,) = links_for_position(position)
    with open(os.devnull, "w") as quiet:
        call_command("ensure_arbiter", username=ARBITER, password=ARBITER_PASSWORD, stdout=quiet)
    desk = models.Tournament.objects.create(name="Table de marque", date="2026-11-21")
    desk_players = models.Player.objects.bulk_create(
        models.Player(last_name=f"MARQUE{'ABCD'[n]}", first_name="Prénom") for n in range(SEATS)
    )
    desk_sheet = sheet_create_free(
        tournament=desk,
        registrations=[
            models.Registration.objects.create(tournament=desk, player=player, number=n + 1)
            for n, player in enumerate(desk_players)
        ],
        title="Feuille libre",
    )
    seeded = {
        "signup": {"tournament": signup.pk},
        "phone_table": {
            "tournament": running.pk,
            "position": position.pk,
            "table": table.pk,
            "token": link.token,
            "code": link.code,
            "seats": [
                {
                    "registration": seat.registration_id,
                    "direction": seat.direction,
                    "index": seat.index,
                    "name": seat.registration.player.full_name,
                    "pin": seat.registration.pin,
                }
                for seat in seats
            ],
        },
        "desk": {"username": ARBITER, "password": ARBITER_PASSWORD, "sheet": desk_sheet.pk},
    }
    Path(out).write_text(json.dumps(seeded))


def read(out: str) -> None:
    """Write every attempts counter ({key: hits}), the online sign-ups' names, every deal and
    the user ids of the logged-in sessions to `out`."""
    from django.contrib.auth import SESSION_KEY
    from django.contrib.sessions.models import Session

    from scoring.models import Deal
    from tournament.models import Counter, Registration

    counters = dict(Counter.objects.values_list("key", "hits"))
    signed_up = list(
        Registration.objects.exclude(signup_code=None).values_list("player__last_name", flat=True)
    )
    deals = list(
        Deal.objects.order_by("sheet_id", "number").values(
            "pk",
            "sheet_id",
            "number",
            "client_id",
            "scores",
            "pending",
            "entered_by_player_id",
            "confirmed_by_player_id",
        )
    )
    sessions = [s.get_decoded().get(SESSION_KEY) for s in Session.objects.all()]
    logged_in = [user for user in sessions if user is not None]
    Path(out).write_text(
        json.dumps(
            {"counters": counters, "signed_up": signed_up, "deals": deals, "logged_in": logged_in}
        )
    )


# --- the server ----------------------------------------------------------------------------


@dataclass
class PhoneTable:
    """The seeded table in phone entry mode: its link and its seats (seat index = the sheet's
    order, as the phone pages number them)."""

    tournament: int
    position: int
    table: int
    token: str
    code: str
    seats: list[dict[str, Any]]

    @property
    def page(self) -> str:
        return f"/table/{self.token}/"

    def wrong_pins(self, seat_index: int, count: int, seed: int = 21) -> list[str]:
        """`count` distinct personal codes that are not this seat's, of the same length (digits,
        like the real ones)."""
        pin = self.seats[seat_index]["pin"]
        if count > 10 ** len(pin) - 1:
            raise ValueError(f"only {10 ** len(pin) - 1} wrong codes of {len(pin)} digits")
        rng = random.Random(seed)
        wrong: set[str] = set()
        while len(wrong) < count:
            guess = "".join(rng.choice("0123456789") for _ in pin)
            if guess != pin:
                wrong.add(guess)
        return sorted(wrong)

    def csrf_cookies(self, port: int) -> dict[str, str]:
        """A new phone's cookies after opening the table's page (csrftoken: `request` sends it
        back as X-CSRFToken with a JSON body)."""
        answer = request(port, "GET", self.page)
        assert answer.status == 200, (self.page, answer.status, answer.text[:500])
        return answer.cookies


@dataclass
class ServedSite:
    kind: str  # "sqlite" or "postgres"
    ports: list[int]  # one per gunicorn instance, all on the one database
    workdir: Path
    env: dict[str, str]
    seeded: dict[str, Any]
    timings: dict[str, float] = field(default_factory=dict)
    reader: subprocess.Popen | None = None  # the process of read_back

    @property
    def port(self) -> int:
        return self.ports[0]

    @property
    def logs(self) -> list[Path]:
        return [self.workdir / f"gunicorn-{port}.log" for port in self.ports]

    @property
    def signup_page(self) -> str:
        return f"/inscription/{self.seeded['signup']['tournament']}/"

    @property
    def phone_table(self) -> PhoneTable:
        return PhoneTable(**self.seeded["phone_table"])

    def read_back(self) -> dict[str, Any]:
        """The counters and sign-ups as the database holds them now, read by a separate process
        (one for the site, started at the first read: a process per read paid a Django start)."""
        if self.reader is None:
            self.reader = subprocess.Popen(
                [sys.executable, "-m", "tests.load.parallel_site", "reads"],
                env=self.env,
                cwd=ROOT,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                text=True,
            )
        assert self.reader.stdin is not None and self.reader.stdout is not None
        out = self.workdir / "read.json"
        self.reader.stdin.write(f"{out}\n")
        self.reader.stdin.flush()
        assert self.reader.stdout.readline().strip() == "read", "the reading process ended"
        return json.loads(out.read_text())

    def close_reader(self) -> None:
        if self.reader is not None:
            assert self.reader.stdin is not None
            self.reader.stdin.close()
            self.reader.wait(timeout=60)
            self.reader = None


def _django_step(env: dict[str, str], *args: str) -> None:
    subprocess.run(
        [sys.executable, "-m", "tests.load.parallel_site", *args], env=env, cwd=ROOT, check=True
    )


@contextmanager
def served_site(
    kind: str, workdir: Path, *, servers: int = 1, workers: int = WORKERS
) -> Iterator[ServedSite]:
    """A fresh database of `kind`, seeded, served by `servers` gunicorn instances of `workers`
    processes each, on ports of their own (DEBUG on: no collectstatic to wait for; nothing
    measured here depends on it; every instance has the same settings, SECRET_KEY included, as
    servers behind one proxy must). Dropped afterwards."""
    timings: dict[str, float] = {}
    started = time.monotonic()
    db = SqliteDatabase(workdir) if kind == "sqlite" else PostgresDatabase(workdir)
    db.create()
    running: list[Server] = []
    try:
        env = server_env(db.url, workdir / "static", debug=True)
        out = workdir / "seeded.json"
        _django_step(env, "seed", str(out))
        timings["seed_s"] = time.monotonic() - started
        started = time.monotonic()
        for _ in range(servers):
            port = free_port()
            running.append(
                Server(env, port, workers, workdir / f"gunicorn-{port}.log", preload=True)
            )
            running[-1].start()
        timings["boot_s"] = time.monotonic() - started
        ports = [server.port for server in running]
        site = ServedSite(kind, ports, workdir, env, json.loads(out.read_text()), timings)
        try:
            yield site
        finally:
            site.close_reader()
    finally:
        for server in running:
            server.stop()
        db.drop()


# --- requests --------------------------------------------------------------------------------


@dataclass
class Answer:
    status: int
    location: str
    text: str  # the body, HTML entities unescaped ("Trop d'essais", not "Trop d&#x27;essais")
    cookies: dict[str, str]


def request(
    port: int,
    method: str,
    path: str,
    *,
    form: dict[str, str] | None = None,
    json_body: Any = None,
    cookies: dict[str, str] | None = None,
    headers: dict[str, str] | None = None,
) -> Answer:
    """One request on its own connection, as a separate phone would send it. A form is sent
    url-encoded with its csrfmiddlewaretoken inside; a JSON body gets the X-CSRFToken header
    from the csrftoken cookie."""
    all_headers = dict(headers or {})
    if cookies:
        all_headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in cookies.items())
    body: bytes | None = None
    if form is not None:
        body = urllib.parse.urlencode(form).encode()
        all_headers["Content-Type"] = "application/x-www-form-urlencoded"
    elif json_body is not None:
        body = json.dumps(json_body).encode()
        all_headers["Content-Type"] = "application/json"
        all_headers["X-CSRFToken"] = (cookies or {}).get("csrftoken", "")
    conn = http.client.HTTPConnection(HOST, port, timeout=REQUEST_TIMEOUT)
    try:
        conn.request(method, path, body=body, headers=all_headers)
        response = conn.getresponse()
        text = response.read().decode("utf-8", errors="replace")
    finally:
        conn.close()
    set_cookies = {}
    for header in response.headers.get_all("Set-Cookie") or []:
        for name, morsel in SimpleCookie(header).items():
            set_cookies[name] = morsel.value
    return Answer(
        response.status, response.getheader("Location") or "", html.unescape(text), set_cookies
    )


def form_page(port: int, path: str) -> tuple[dict[str, str], dict[str, str]]:
    """GET a page with a form as a new visitor: (its csrftoken cookie, its hidden fields)."""
    answer = request(port, "GET", path)
    assert answer.status == 200, (path, answer.status, answer.text[:500])
    hidden = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', answer.text))
    return answer.cookies, hidden


def all_at_once(count: int, send: Callable[[int], T]) -> list[T | BaseException]:
    """`send(i)` for i in range(count), each in its own thread, all released by one barrier so
    that the requests reach the server together. Results in order; an exception is kept."""
    barrier = threading.Barrier(count)
    results: list[T | BaseException | None] = [None] * count

    def run(i: int) -> None:
        try:
            barrier.wait(timeout=60)
            results[i] = send(i)
        except BaseException as error:  # kept for the test to report
            results[i] = error

    threads = [threading.Thread(target=run, args=(i,), daemon=True) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=REQUEST_TIMEOUT * 2)
    return [r if r is not None else TimeoutError("no answer") for r in results]


def wrong_personal_codes_at_once(
    port: int,
    table: PhoneTable,
    *,
    target_seat: int,
    count: int,
    post: Callable[[dict[str, str], str], Answer],
) -> list[Answer | BaseException]:
    """`count` distinct wrong personal codes for the player at `target_seat` (an index into
    `table.seats`), sent together from one phone: its cookies come from one GET of the table's
    page, and `post(cookies, pin)` sends one guess to the endpoint under test (with `request`,
    e.g. `request(port, "POST", path, json_body={...}, cookies=cookies)`)."""
    cookies = table.csrf_cookies(port)
    pins = table.wrong_pins(target_seat, count)
    return all_at_once(count, lambda i: post(cookies, pins[i]))


def tally(results: Sequence[Answer | BaseException], **kinds: Callable[[Answer], bool]) -> dict:
    """How many results fall in each named kind (the first that matches), with "other" for
    the rest (an exception, or an answer no kind describes) and a few samples of those."""
    counts = dict.fromkeys(kinds, 0) | {"other": 0}
    samples = []
    for result in results:
        kind = next(
            (name for name, test in kinds.items() if isinstance(result, Answer) and test(result)),
            "other",
        )
        counts[kind] += 1
        if kind == "other" and len(samples) < 3:
            samples.append(
                repr(result)
                if not isinstance(result, Answer)
                else f"{result.status} {result.location} {result.text[:300]!r}"
            )
    return counts | {"samples": samples}


def reads() -> None:
    """`read` into each path given on stdin (one a line), "read" written back after each; the
    connections closed after each, as at the end of a request."""
    from django.db import connections

    for line in sys.stdin:
        read(line.strip())
        connections.close_all()
        print("read", flush=True)


if __name__ == "__main__":
    setup_django()
    if sys.argv[1] == "reads":
        reads()
    else:
        step, out = sys.argv[1:3]
        {"seed": seed, "read": read}[step](out)
