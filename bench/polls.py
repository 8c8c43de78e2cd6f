"""Poll capacity: how many refreshes of a phone's sheet one gunicorn server answers per second.

Run with `.venv/bin/python bench/polls.py --tables 50 --deals 5 --seconds 20 --db postgres`.

Each phone at a table re-reads its sheet (GET /table/<token>/feuille/, the fragment with the
deals, scores and version) every 5 seconds (static/js/table_entry.js): 50 tables of 4 phones
make 40 such polls a second. A separate Django process sets up a running tournament in phone
entry mode as bench/table_entry.py does (its first position's tables each get `--deals`
confirmed deals, entered through the same service as the phones'), the site is served by
gunicorn on 127.0.0.1, and one thread per table GETs its sheet in a closed loop on a keep-alive
connection until the deadline. Printed: polls answered per second, latencies, the server's CPU
time per poll (gunicorn's master and workers, from /proc) and what two cores would answer at that
cost, and any answer other than a 200 with the sheet (the run fails on one).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import threading
import time
from pathlib import Path

import load_run  # bench/load_run.py, next to this file
import table_entry
from common import add_server_arguments
from load_run import ConnectionFailed
from table_client import SHEET_RE, random_deal
from table_http import Http, Stats

SEATS = 4
WARM_UP = 2  # polls per table before the measure starts


def django_setup(out: str, tables: int, deals: int, seed: int) -> None:
    """bench/table_entry.py's tournament (one position), then `deals` confirmed deals per table."""
    table_entry.django_setup(out, tables, 1, max(deals, 1), seed)

    from scoring.models import ScoreSheet, TableLink
    from scoring.sheets.table_entry import phone_deal_record
    from tournament.models import Registration

    setup = json.loads(Path(out).read_text())
    rng = random.Random(seed)
    for client in setup["clients"]:
        link = TableLink.objects.select_related("table").get(token=client[0]["token"])
        enterer = Registration.objects.get(
            tournament_id=setup["tournament"], pin=client[0]["pins"][0]
        )
        for number in range(deals):
            version = (
                ScoreSheet.objects.filter(table=link.table)
                .values_list("version", flat=True)
                .first()
            )
            deal, _replayed = phone_deal_record(
                link=link,
                client_id=f"bench-poll-{link.pk}-{number}",
                data=random_deal(rng, (-number) % SEATS),
                version=version or 0,
                enterer=enterer,
            )
            deal.__class__.objects.filter(pk=deal.pk).update(pending=False)


def django_read(out: str, tournament: int) -> None:
    Path(out).write_text("{}")  # nothing is written by a poll


def drive(args, server, clients: list[list[dict]]) -> dict:
    deadline = [0.0]
    go = threading.Event()
    warm = threading.Barrier(len(clients) + 1)
    stats = [Stats() for _ in clients]

    def poll(index: int) -> None:
        http = Http(server.port, stats[index])
        path = f"/table/{clients[index][0]['token']}/feuille/"
        # Unmeasured: every worker's first pages (imports, templates compiled once per process).
        for _ in range(WARM_UP):
            try:
                http.request("GET", path)
            except ConnectionFailed:
                pass
        warm.wait()
        go.wait()
        while time.monotonic() < deadline[0]:
            try:
                status, data, ms = http.request("GET", path)
            except ConnectionFailed:
                stats[index].connection_errors += 1
                continue
            if status == 200 and SHEET_RE.search(data.decode("utf-8", "replace")):
                stats[index].sheet_ms.append(ms)
            elif status >= 500:
                stats[index].server_errors += 1
            else:
                stats[index].refused += 1
                stats[index].note(f"GET {path} answered {status}")

    threads = [threading.Thread(target=poll, args=(i,), daemon=True) for i in range(len(clients))]
    for thread in threads:
        thread.start()
    warm.wait()
    cpu = server.cpu_seconds()
    started = time.monotonic()
    deadline[0] = started + args.seconds
    go.set()
    for thread in threads:
        thread.join(timeout=args.seconds + 60)
    elapsed = time.monotonic() - started
    cpu = server.cpu_seconds() - cpu
    ms = [m for s in stats for m in s.sheet_ms]
    return {
        "tables": len(clients),
        "seconds": round(elapsed, 1),
        "polls": len(ms),
        "polls_per_s": round(len(ms) / elapsed, 1),
        "poll_p50_ms": round(load_run.percentile(ms, 0.50), 1),
        "poll_p95_ms": round(load_run.percentile(ms, 0.95), 1),
        **load_run.cpu_figures(cpu, len(ms), "poll"),
        "server_errors": sum(s.server_errors for s in stats),
        "refused": sum(s.refused for s in stats),
        "connection_errors": sum(s.connection_errors for s in stats),
        "samples": [n for s in stats for n in s.samples][:5],
        "load_avg_1min": round(os.getloadavg()[0], 1),
    }


def run_one(args, kind: str, workdir: Path, static_root: Path) -> dict:
    def load(server, setup: dict) -> dict:
        load_run.phase(f"{kind}: {args.tables} tables polling for {args.seconds:g} s")
        return drive(args, server, setup["clients"])

    result, _stored, _log = load_run.serve_and_read_back(
        args,
        kind,
        workdir,
        static_root,
        __file__,
        [str(args.tables), str(args.deals), str(args.seed)],
        load,
    )
    result.update(db=kind, acknowledged=result["polls"])
    result["ok"] = result["polls"] > 0 and not result["server_errors"] and not result["refused"]
    return result


COLUMNS = (
    ("db", "db"),
    ("tables", "tables"),
    ("seconds", "s"),
    ("polls", "polls"),
    ("polls_per_s", "polls/s"),
    ("poll_p50_ms", "p50 ms"),
    ("poll_p95_ms", "p95 ms"),
    ("cpu_ms_per_poll", "CPU ms/poll"),
    ("polls_per_2_cores", "polls/s on 2 cores"),
    ("server_errors", "5xx"),
    ("refused", "other"),
    ("load_avg_1min", "load avg"),
)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--deals", type=int, default=5, help="confirmed deals on each sheet")
    parser.add_argument("--seconds", type=float, default=20)
    add_server_arguments(parser)
    args = parser.parse_args(argv)
    if not 1 <= args.tables <= 500 or not 0 < args.seconds <= 600 or not 0 <= args.deals <= 50:
        parser.error("between 1 and 500 tables, 0 to 50 deals, at most 600 seconds")
    kinds = ["sqlite", "postgres"] if args.db == "both" else [args.db]
    mode = "DEBUG=true" if args.debug else "DEBUG=false (production settings, plain http)"
    print(
        f"{args.tables} tables polling their sheet ({args.deals} deals) for {args.seconds:g} s, "
        f"gunicorn -w {args.workers} --threads 4, {mode}, {os.cpu_count()} CPUs, "
        f"load average {os.getloadavg()[0]:.1f}",
        flush=True,
    )
    results = load_run.run_on_each_database(
        args, kinds, "tarot-polls-", run_one, lambda _kind, r: print(json.dumps(r)[:600])
    )
    return load_run.summarise(
        results, COLUMNS, {}, ("PASS", "FAIL: an error answer, or no poll answered")
    )


if __name__ == "__main__":
    load_run.run_script(
        main,
        lambda out, *figures: django_setup(out, *(int(f) for f in figures)),
        django_read,
    )
