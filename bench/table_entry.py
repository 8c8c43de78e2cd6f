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
import json
import os
import random
import sys
import time
from collections import Counter
from pathlib import Path

# Next to this file: common.py (the server's options), load_run.py (the steps of a run),
# table_client.py (what the phones of one table do).
import load_run
from common import add_server_arguments
from table_client import SEATS, TableClient

# --- the Django side, run in separate processes ----------------------------------------------


def django_setup(out: str, tables: int, positions: int, deals: int, seed: int) -> None:
    """Migrate; create the tournament, its positions, tables, seats and links; write to `out`
    per client (one per table number) its table at each position: token and the seats' codes."""
    from django.core.management import call_command
    from django.utils import timezone

    call_command("migrate", verbosity=0)

    from scoring.sheets.table_entry import links_for_position
    from tournament import models

    rng = random.Random(seed)
    tournament = models.Tournament.objects.create(
        name="Banc d'essai saisie aux tables",
        date="2026-11-21",
        entry_mode=models.Tournament.EntryMode.PHONES,
        status=models.Tournament.Status.RUNNING,
        positions_count=positions,
        deals_per_table_4=deals,
    )
    players = models.Player.objects.bulk_create(
        models.Player(last_name=f"TABLE{n:04d}", first_name="Prénom") for n in range(tables * SEATS)
    )
    registrations = models.Registration.objects.bulk_create(
        models.Registration(tournament=tournament, player=player, number=n + 1)
        for n, player in enumerate(players)
    )
    clients: list[list[dict]] = [[] for _ in range(tables)]
    for number in range(1, positions + 1):
        position = models.Position.objects.create(
            tournament=tournament,
            number=number,
            status=models.Position.Status.PUBLISHED,
            published_at=timezone.now(),
        )
        table_rows = models.Table.objects.bulk_create(
            models.Table(position=position, number=t + 1) for t in range(tables)
        )
        order = list(registrations)
        rng.shuffle(order)
        models.Seat.objects.bulk_create(
            models.Seat(
                table=table, registration=order[t * SEATS + s], direction=models.DIRECTIONS[s]
            )
            for t, table in enumerate(table_rows)
            for s in range(SEATS)
        )
        links = {link.table_id: link for link in links_for_position(position)}
        for t, table in enumerate(table_rows):
            # The sheet's seats follow the directions' order (N, E, S, W): seat s is DIRECTIONS[s].
            pins = [order[t * SEATS + s].pin for s in range(SEATS)]
            clients[t].append({"token": links[table.pk].token, "pins": pins})
    Path(out).write_text(json.dumps({"tournament": tournament.pk, "clients": clients}))


def django_read(out: str, tournament: int, first_position: int = 1) -> None:
    """Write the tournament's phone deals and what the checks need to `out`: those of its
    positions from `first_position` on (bench/big_event.py's earlier positions were generated,
    not entered on phones)."""
    from scoring.models import Deal, ScoreSheet, SheetPlayer, TableLink
    from scoring.sheets.table_entry import may_confirm

    token_of = dict(
        TableLink.objects.filter(table__position__tournament_id=tournament).values_list(
            "table_id", "token"
        )
    )
    sheets = {
        sheet.pk: sheet
        for sheet in ScoreSheet.objects.filter(
            tournament_id=tournament, table__position__number__gte=first_position
        ).only("pk", "table_id", "status", "version")
    }
    seat_of = {
        (sheet, registration): seat
        for sheet, registration, seat in SheetPlayer.objects.filter(
            sheet_id__in=sheets
        ).values_list("sheet_id", "registration_id", "seat")
    }
    deals = []
    rows_of: Counter = Counter()
    ids_of: dict[int, set] = {}
    wrong_side = unconfirmed_by_anyone = 0
    for deal in Deal.objects.filter(sheet_id__in=sheets).order_by("pk"):
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


# --- one run ---------------------------------------------------------------------------------


def drive(args, port: int, clients_tables: list[list[dict]], client_class=TableClient) -> dict:
    """Run one `client_class` thread per table number for args.seconds; their tallies."""
    times = [0.0, 0.0]
    clients = [
        client_class(i, port, tables, args, times) for i, tables in enumerate(clients_tables)
    ]
    for client in clients:
        client.start()
    start = time.monotonic()
    times[0], times[1] = start, start + args.seconds
    for client in clients:
        client.go.set()
    deadline = times[1] + 120  # one for all: each hung client must not add its own 120 s
    for client in clients:
        client.join(timeout=max(0.0, deadline - time.monotonic()))
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
        result[f"{key}_p50_ms"] = round(load_run.percentile(values, 0.50), 1)
        result[f"{key}_p95_ms"] = round(load_run.percentile(values, 0.95), 1)
    return result


def run_one(args, kind: str, workdir: Path, static_root: Path) -> dict:
    def load(server, setup: dict) -> dict:
        load_run.phase(f"{kind}: {args.tables} tables entering deals for {args.seconds:g} s")
        cpu = server.cpu_seconds()
        result = drive(args, server.port, setup["clients"])
        # Every request of a deal counts: its sends, confirmation, sheet reads and page GETs.
        cpu = server.cpu_seconds() - cpu
        return result | load_run.cpu_figures(cpu, len(result["acked"]), "deal")

    setup_args = (args.tables, args.positions, args.deals_per_table, args.seed)
    result, stored, log = load_run.serve_and_read_back(
        args, kind, workdir, static_root, __file__, [str(a) for a in setup_args], load
    )
    return check_deals(kind, result, stored, log)


def check_deals(kind: str, result: dict, stored: dict, log: Path) -> dict:
    """Check what drive() tallied against what django_read() read back (lost, doubled, 5xx,
    races, confirmations): `result` gains the figures, its "checks" and "ok"."""
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
    ("cpu_ms_per_deal", "CPU ms/deal"),
    ("deals_per_2_cores", "deals/s on 2 cores"),
    ("save_p50_ms", "save p50"),
    ("save_p95_ms", "save p95"),
    ("trivial_p50_ms", "page p50"),
    ("trivial_p95_ms", "page p95"),
    ("sheet_p50_ms", "sheet p50"),
    ("sheet_p95_ms", "sheet p95"),
    ("confirm_p50_ms", "confirm p50"),
    ("confirm_p95_ms", "confirm p95"),
)


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
    results = load_run.run_on_each_database(args, kinds, "tarot-table-load-", run_one, report)
    return load_run.summarise(
        results,
        COLUMNS,
        {},
        ("PASS", "FAIL: a lost or doubled deal, a 5xx, or a run that did not work"),
        note="(milliseconds; page = GET /table/, the table code page; sheet = GET .../feuille/)",
        each_database=True,
    )


if __name__ == "__main__":
    load_run.run_script(
        main,
        lambda out, *figures: django_setup(out, *(int(f) for f in figures)),
        django_read,
    )
