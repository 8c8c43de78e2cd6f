"""A load test's run (bench/load.py, bench/table_entry.py): the generated deals, the loop over
the databases, the steps of one run on one database (setup, server, load, read back), the table
and summary printed at the end and the script's entry point.

Imported as `load_run` by the scripts of bench/, which are run as files (see common.py).
"""

from __future__ import annotations

import json
import math
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import NoReturn

from common import (
    ROOT,
    PostgresDatabase,
    Server,
    SqliteDatabase,
    free_port,
    run_django_step,
    server_env,
    setup_django,
)

CONTRACTS = ("prise", "garde", "garde_sans", "garde_contre")


# --- the load tests' clients -----------------------------------------------------------------


class ConnectionFailed(Exception):
    """The request got no answer (server down, connection reset, timeout): not acknowledged."""


def random_played_deal(rng: random.Random) -> dict:
    """A valid 4-player deal that is played (points integer, between 4 x oudlers and
    91 - 4 x (3 - oudlers)); now and then a petit au bout."""
    oudlers = rng.randrange(4)
    deal = {
        "taker": rng.randrange(4),
        "contract": rng.choice(CONTRACTS),
        "oudlers": oudlers,
        "points": rng.randint(4 * oudlers, 91 - 4 * (3 - oudlers)),
    }
    if rng.random() < 0.1:
        deal["petit_au_bout"] = rng.choice(("attack", "defense"))
    return deal


def cpu_figures(cpu_seconds: float, count: int, what: str) -> dict:
    """The server's CPU milliseconds per `what` and how many a second two cores would serve at
    that cost (gunicorn's processes only: the database server's own CPU is not counted)."""
    if not count or cpu_seconds <= 0:
        return {f"cpu_ms_per_{what}": None, f"{what}s_per_2_cores": None}
    per = cpu_seconds * 1000 / count
    return {f"cpu_ms_per_{what}": round(per, 1), f"{what}s_per_2_cores": round(2000 / per)}


# --- one run on each database ---------------------------------------------------------------


def percentile(values: list[float], q: float) -> float:
    """Nearest-rank percentile; NaN when there are no values."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q * len(ordered)) - 1)]


def collect_static(workdir: Path, env: dict[str, str]) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=open(workdir / "collectstatic.log", "wb"),
    )


def phase(text: str, _started: list[float] = []) -> None:  # noqa: B006 (a process clock)
    _started.append(_started[0] if _started else time.monotonic())
    print(f"  [{time.monotonic() - _started[0]:6.1f} s] {text}", flush=True)


def run_on_each_database(
    args,
    kinds: list[str],
    prefix: str,
    run_one: Callable[..., dict],
    report: Callable[[str, dict], None],
) -> list[dict] | None:
    """`run_one(args, kind, workdir, static_root)` on each database kind, in one throw-away
    folder, the static files collected once beforehand (production settings); `report(kind,
    result)` prints each result as it comes. A run that fails gives {"db", "ok": False,
    "error"}. None when collectstatic failed (its log is printed)."""
    results = []
    with tempfile.TemporaryDirectory(prefix=prefix) as tmp:
        workdir = Path(tmp)
        static_root = workdir / "static"
        static = None
        if not args.debug:
            static = collect_static(
                workdir, server_env("sqlite://:memory:", static_root, debug=args.debug)
            )
        for kind in kinds:
            if static is not None:
                if static.wait(timeout=300) != 0:
                    print((workdir / "collectstatic.log").read_text(), file=sys.stderr)
                    return None
                static = None
            print(f"== {kind} ==", flush=True)
            try:
                result = run_one(args, kind, workdir, static_root)
            except (RuntimeError, subprocess.CalledProcessError) as err:
                print(f"{kind}: run failed: {err}", file=sys.stderr)
                for log in workdir.glob("gunicorn-*.log"):
                    print(log.read_text()[-3000:], file=sys.stderr)
                result = {"db": kind, "ok": False, "error": str(err)}
            results.append(result)
            report(kind, result)
    return results


def serve_and_read_back(
    args,
    kind: str,
    workdir: Path,
    static_root: Path,
    script: str,
    setup_args: Sequence[str],
    load,
    server_command: Callable[[int], list[str] | None] = lambda port: None,
) -> tuple[dict, dict, Path]:
    """One load run on one database kind: create the database, run `script`'s `_setup` step
    with `setup_args` (it writes a JSON with the tournament's id), serve the site with gunicorn
    (the load tests' command line, or `server_command(port)`'s), `load(server, setup)` gives the
    run's result, stop the server, run the `_read` step on the tournament, drop the database.
    Returns (result with boot_s, what `_read` wrote, server log)."""
    phase(f"{kind}: setting up the database")
    db = SqliteDatabase(workdir) if kind == "sqlite" else PostgresDatabase(workdir)
    db.create()
    log = workdir / f"gunicorn-{kind}.log"
    try:
        setup_out = workdir / f"setup-{kind}.json"
        env = server_env(db.url, static_root, debug=args.debug)
        run_django_step(script, env, "_setup", str(setup_out), *setup_args)
        setup = json.loads(setup_out.read_text())
        port = args.port or free_port()
        phase(f"{kind}: starting gunicorn on port {port}")
        server = Server(env, port, args.workers, log, args.preload, server_command(port))
        boot = server.start()
        try:
            result = load(server, setup)
        finally:
            phase(f"{kind}: stopping gunicorn")
            server.stop()
        result["boot_s"] = round(boot, 2)
        phase(f"{kind}: reading the deals back")
        read_out = workdir / f"deals-{kind}.json"
        run_django_step(script, env, "_read", str(read_out), str(setup["tournament"]))
        stored = json.loads(read_out.read_text())
    finally:
        db.drop()
    return result, stored, log


def print_table(columns: Sequence[tuple[str, str]], results: list[dict]) -> None:
    """The results as a table of right-aligned columns: (key in a result, title)."""
    cells = [[title for _key, title in columns]]
    cells += [[str(r.get(key)) for key, _title in columns] for r in results]
    widths = [max(len(row[i]) for row in cells) for i in range(len(columns))]
    for n, row in enumerate(cells):
        print("  ".join(cell.rjust(width) for cell, width in zip(row, widths, strict=True)))
        if n == 0:
            print("  ".join("-" * width for width in widths))


def summarise(
    results: list[dict] | None,
    columns: Sequence[tuple[str, str]],
    summary: dict,
    verdicts: tuple[str, str],
    note: str = "",
    each_database: bool = False,
) -> int:
    """The end of a load test's output and its exit code: the table of the runs (and `note`
    under it), with `each_database` a PASS/FAIL line per database, then verdicts[0] when every
    run is ok or verdicts[1], and last a JSON line {"ok", **summary, "runs"}. 2 when there are
    no results (collectstatic failed)."""
    if results is None:
        return 2
    print()
    print_table(columns, [r for r in results if "acknowledged" in r])
    if note:
        print(note)
    ok = all(r.get("ok") for r in results)
    print()
    if each_database:
        for r in results:
            print(f"{'PASS' if r.get('ok') else 'FAIL'} {r['db']}")
    print(verdicts[0] if ok else verdicts[1])
    for r in results:
        r.pop("log", None)
    print(json.dumps({"ok": ok, **summary, "runs": results}, ensure_ascii=False))
    return 0 if ok else 1


def run_script(main: Callable[[], int], setup: Callable[..., None], read) -> NoReturn:
    """A load test's entry point: one of its Django steps when run_django_step started it
    (`_setup out args...`: setup(out, *args); `_read out tournament`: read(out, tournament)),
    else its main."""
    if len(sys.argv) > 1 and sys.argv[1] in ("_setup", "_read"):
        setup_django()
        if sys.argv[1] == "_setup":
            setup(sys.argv[2], *sys.argv[3:])
        else:
            read(sys.argv[2], int(sys.argv[3]))
        sys.exit(0)
    sys.exit(main())
