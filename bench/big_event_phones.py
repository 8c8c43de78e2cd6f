"""The big-event bench's readers (bench/big_event.py), in a process of their own so that they
don't share a GIL with the tables' threads: one asyncio loop plays every phone polling its page,
the hall screens polling their slides and a probe asking a trivial page; it reads the server's
CPU from /proc as the polls start and once the last one is answered.

A phone polls like static/js/public.js: every `poll_seconds` it asks the fragment its page polls
(HX-Request) with the ETag it was last sent (If-None-Match), and skips a tick while the previous
poll is still waiting (the script's `busy` flag). A hall screen polls its slides the same way
(static/js/hall.js). A poll is never abandoned during the run, as the page's fetch has no
timeout, so a slow server gets at most one poll a phone at a time. Each request is a new
connection: a phone's browser would keep it, but gunicorn closes a connection idle for 2 s,
long before the next poll.

The first `warmup` seconds are the room filling: every phone's first poll, every table's phones
opening their pages, each player's card rendered for the first time, each server thread's first
request (its connection, its templates). Their answers are tallied apart (`warm_ms`) and
reported beside the others; the latencies checked and the server's CPU per poll are those of the
steady state after it, while every poll of the whole run counts towards the errors and the
unanswered.
"""

from __future__ import annotations

import asyncio
import random
import time
from dataclasses import dataclass, field

from common import HOST, server_cpu_seconds  # bench/common.py, next to this file

# The page's fetch has no timeout: a phone waits for its answer (and skips its ticks meanwhile).
# At the end of the run the phones wait this long more, then give up (not answered).
GRACE = 60.0
BROWSER_HEADERS = {
    "Accept-Language": "fr-FR,fr;q=0.9",
    "Accept-Encoding": "gzip, deflate",
    "User-Agent": "tarot-bench-phone",
}


@dataclass
class Tally:
    """What one kind of reader (standings, player, hall, trivial) was answered."""

    ms_200: list[float] = field(default_factory=list)
    ms_304: list[float] = field(default_factory=list)
    warm_ms: list[float] = field(default_factory=list)  # answers to polls sent in the warm-up
    server_errors: int = 0
    other_status: int = 0
    no_answer: int = 0
    skipped_ticks: int = 0  # ticks that found the previous poll still waiting
    samples: list[str] = field(default_factory=list)

    def answered(self) -> int:
        return len(self.ms_200) + len(self.ms_304)


async def http_get(port: int, path: str, headers: dict[str, str]) -> tuple[int, str, float]:
    """(status, ETag header, milliseconds) of GET path on a new connection, read to its end."""
    started = time.perf_counter()
    reader, writer = await asyncio.open_connection(HOST, port)
    try:
        lines = [f"GET {path} HTTP/1.1", f"Host: {HOST}", "Connection: close"]
        lines += [f"{name}: {value}" for name, value in headers.items()]
        writer.write(("\r\n".join(lines) + "\r\n\r\n").encode("latin-1"))
        await writer.drain()
        data = await reader.read()  # Connection: close: the answer ends with the connection
    finally:
        writer.close()
    elapsed = (time.perf_counter() - started) * 1000
    head = data.split(b"\r\n\r\n", 1)[0].decode("latin-1").split("\r\n")
    if not head[0].startswith("HTTP/1."):
        raise ConnectionError(f"no HTTP answer: {data[:80]!r}")
    etag = ""
    for line in head[1:]:
        name, _, value = line.partition(":")
        if name.strip().lower() == "etag":
            etag = value.strip()
    return int(head[0].split()[1]), etag, elapsed


async def poller(port: int, path: str, every: float, tally: Tally, times, rng, etag_on: bool):
    """One reader: a GET of `path` every `every` seconds from a random offset until the end;
    the answers to the polls sent before `measured` (the warm-up) tallied apart."""
    start, measured, end = times
    give_up = end + GRACE
    due = start + rng.uniform(0, every)
    etag = ""
    while True:
        now = time.monotonic()
        if due >= end:
            return
        await asyncio.sleep(max(0.0, due - now))
        headers = dict(BROWSER_HEADERS, **({"HX-Request": "true"} if etag_on else {}))
        if etag:
            headers["If-None-Match"] = etag
        warm = time.monotonic() < measured
        try:
            status, sent_etag, ms = await asyncio.wait_for(
                http_get(port, path, headers), max(0.1, give_up - time.monotonic())
            )
        except (OSError, TimeoutError, ConnectionError) as err:
            tally.no_answer += 1
            if len(tally.samples) < 3:
                tally.samples.append(f"GET {path}: {type(err).__name__} {err}"[:200])
            status, sent_etag, ms = 0, "", 0.0
        if status in (200, 304):
            (tally.warm_ms if warm else tally.ms_200 if status == 200 else tally.ms_304).append(ms)
            if status == 200:
                etag = sent_etag if etag_on else ""
        elif status >= 500:
            tally.server_errors += 1
        elif status:
            tally.other_status += 1
            if len(tally.samples) < 3:
                tally.samples.append(f"GET {path} answered {status}")
        due += every
        while due < time.monotonic():  # the poll outlasted its tick: setInterval skips it
            due += every
            tally.skipped_ticks += 1


async def read_everything(plan: dict) -> dict:
    rng = random.Random(plan["seed"])
    tallies = {kind: Tally() for kind in ("standings", "player", "hall", "trivial")}
    start = max(time.monotonic(), plan["start"])
    measured = start + plan["warmup"]
    times = (start, measured, start + plan["seconds"])
    port = plan["port"]
    readers = [
        poller(port, path, plan["poll_seconds"], tallies[kind], times, rng, True)
        for kind, path in plan["phones"]
    ]
    readers += [
        poller(port, path, plan["hall_seconds"], tallies["hall"], times, rng, True)
        for path in plan["halls"]
    ]
    # The trivial page, asked by a few probes so that its samples spread over the whole run.
    probes = plan["trivial_probes"]
    readers += [
        poller(
            port, plan["trivial"], plan["trivial_seconds"], tallies["trivial"], times, rng, False
        )
        for _ in range(probes)
    ]
    everything = asyncio.gather(*readers)
    await asyncio.sleep(max(0.0, measured - time.monotonic()))
    cpu_before, wall_before = server_cpu_seconds(plan["server_pgid"], plan["pg_port"]), time.time()
    client_cpu = time.process_time()
    await everything
    cpu_after, wall_after = server_cpu_seconds(plan["server_pgid"], plan["pg_port"]), time.time()
    return {
        "tallies": {kind: tally.__dict__ for kind, tally in tallies.items()},
        "window_s": wall_after - wall_before,
        "load_s": plan["seconds"] - plan["warmup"],
        "server_cpu_s": {k: cpu_after[k] - cpu_before[k] for k in cpu_before},
        "client_cpu_s": time.process_time() - client_cpu,
    }


def run_readers(plan: dict, queue) -> None:
    """The readers' process: every poller of `plan` until its end, the result put on `queue`."""
    queue.put(asyncio.run(read_everything(plan)))
