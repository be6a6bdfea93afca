"""The command line: set up the tables, start the site, run the game phase and the relay phase, check
and report; exit status 1 if a check fails."""

from __future__ import annotations

import argparse
import asyncio
import functools
import json
import os
import sys
import time
from pathlib import Path

from bench.live.clients import Client, run_phase
from bench.live.processes import measure, pids_named, rss_mib, settle
from bench.live.report import report
from bench.live.server import Site
from bench.live.tables import Table, check_database, create_tables, django_setup
from bench.live_instrument import read_round_trips


def wal_position() -> int | None:
    """PostgreSQL's write-ahead log position in bytes (None on another database): every byte the database
    writes for the moves (rows, indexes, the pages they dirty) goes through it. Read with a connection
    that is closed again at once (in a thread of its own: the harness runs an event loop)."""
    from django.db import connection

    if connection.vendor != "postgresql":
        return None
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')")
            return int(cursor.fetchone()[0])
    finally:
        connection.close()


def database_sessions():
    """A function listing the process ids of PostgreSQL's sessions on the bench's database (the site's
    connections), through a connection of its own; None on another database."""
    from django.db import connection

    if connection.vendor != "postgresql":
        return None
    import psycopg

    from games.services.move_sql import connection_kwargs

    conn = psycopg.connect(**connection_kwargs())

    def pids() -> list[int]:
        rows = conn.execute("SELECT pid FROM pg_stat_activity WHERE datname = current_database() "
                            "AND pid <> pg_backend_pid()").fetchall()
        return [pid for (pid,) in rows]
    return pids


async def bench(args, url: str, tables: list[Table], watchers: list[str], site: Site | None,
                phases: list[tuple[str, bool]]) -> tuple[list[dict], list[Client]]:
    """Run `phases` ((name, relay) each) against the site at `url`; the figures of each and the game
    phase's clients."""
    base_ws = url.replace("http", "ws", 1).rstrip("/")
    origin = url.rstrip("/")
    groups = {"harness": [os.getpid()]}
    if site is not None:
        groups = {"workers": site.server_pids(), **groups}
        if site.sweeper is not None:
            groups["sweeper"] = [site.sweeper.pid]
        if proxy := site.proxy_pids():
            groups["nginx"] = proxy
    for label, name in (("postgres", "postgres"), ("redis", "redis-server")):
        if pids_named(name):  # local servers only
            groups[label] = functools.partial(pids_named, name)
    if "postgres" in groups and (sessions := database_sessions()) is not None:
        # The server's other databases (other work on a shared machine) count in "postgres", not here.
        groups["postgres (this database)"] = sessions
    rows, game_clients = [], []
    for name, relay in phases:
        started = time.perf_counter()
        rss_before = rss_mib(groups["workers"]) if "workers" in groups else 0.0
        timing: dict = {}

        async def connected(timing: dict = timing, started: float = started) -> None:
            timing["open_s"] = time.perf_counter() - started
            if "workers" in groups:
                timing["rss_open"] = rss_mib(groups["workers"])
            settled = time.perf_counter()
            await settle(groups.get("workers"))
            timing["settle_s"] = time.perf_counter() - settled

        async def timed(timing: dict = timing) -> None:
            timing["wal_before"] = await asyncio.to_thread(wal_position)
            timing["done"] = measure(groups)
            if site is not None:
                timing["trips"] = read_round_trips(site.round_trips_dir)
            timing["wall_start"] = time.time()

        async def ended(timing: dict = timing) -> None:  # the timed phase's, not the sockets' closing
            timing["usage"] = timing["done"]()
            timing["wall_end"] = time.time()
            if site is not None:  # the processes write their counts every 0.2 s (as at the start)
                timing["trips_after"] = read_round_trips(site.round_trips_dir)
            timing["wal_after"] = await asyncio.to_thread(wal_position)

        stats, clients, elapsed, moves = await run_phase(base_ws, origin, tables, watchers, relay=relay,
                                                         seconds=args.seconds, think=args.think, seats=args.seats,
                                                         in_step=args.in_step, connected=connected, started=timed,
                                                         ended=ended, ping=args.ping)
        usage = timing["usage"]
        if args.think and not args.in_step:  # every table moves once per think period (clients.run_phase)
            usage["offered"] = len(tables) * elapsed / args.think
        usage["connect"] = {"open_s": timing["open_s"], "settle_s": timing["settle_s"]}
        if "trips" in timing:
            after, before = timing["trips_after"], timing["trips"]
            usage["round_trips"] = {
                "all": after["round_trips"] - before["round_trips"], "moves": after["moves"] - before["moves"],
                "in_moves": after["in_moves"] - before["in_moves"],
                "move_sql": {k: n - before["move_sql"].get(k, 0) for k, n in after["move_sql"].items()}}
            pauses = [(took, pid) for at, took, pid in after["gc"]["pauses"]
                      if timing["wall_start"] <= at <= timing["wall_end"]]
            workers = set(groups.get("workers", ()))
            usage["gc"] = {"seconds": after["gc"]["seconds"] - before["gc"]["seconds"],
                           "collections": after["gc"]["collections"] - before["gc"]["collections"],
                           "longest": max((took for took, _ in pauses), default=0.0),
                           "longest_in_workers": max((took for took, pid in pauses if pid in workers), default=0.0),
                           "over_100ms": sum(took >= 0.1 for took, _ in pauses)}
        if timing["wal_before"] is not None:  # bytes the database wrote (its write-ahead log) during the phase
            usage["wal_bytes"] = timing["wal_after"] - timing["wal_before"]
        if "workers" in groups:
            usage["worker_pids"] = list(groups["workers"])
        if "rss_open" in timing:
            sockets = len(clients)
            usage["socket_memory"] = {"sockets": sockets, "rss_before_mib": rss_before, "rss_open_mib": timing["rss_open"],
                                      "kib_per_socket": (timing["rss_open"] - rss_before) * 1024 / sockets}
        rows.append(report(name, stats, elapsed, moves, usage))
        if not relay:
            game_clients = clients
    return rows, game_clients


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.live", description="Live play load harness: our move path against a bare relay.")
    parser.add_argument("--tables", type=int, default=10)
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--spectators", type=int, default=0, help="watchers, spread over the tables")
    parser.add_argument("--think", type=float, default=0.0, help="seconds a seat waits before each move")
    parser.add_argument("--in-step", action="store_true",
                        help="with --think: every table starts at once (by default each starts at a random moment "
                             "within the first think period, so tables are not in step)")
    parser.add_argument("--ping", type=float, default=20.0,
                        help="seconds between a socket's pings, as the table page sends them (0: none)")
    parser.add_argument("--seconds", type=float, default=10.0, help="length of each phase")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--server", choices=("uvicorn", "daphne"), default="uvicorn")
    parser.add_argument("--ws-deflate", action="store_true",
                        help="uvicorn with websocket compression (permessage-deflate), off in production (docs/deploy.md)")
    parser.add_argument("--proxy", choices=("spread", "table"),
                        help="nginx in front of one uvicorn process per worker: `spread` sockets over the workers "
                             "in turn, or route every socket of a `table` to one worker (hash of the path)")
    parser.add_argument("--url", help="a running site (http://host:port) instead of starting one")
    parser.add_argument("--no-relay", action="store_true", help="skip the relay phase")
    parser.add_argument("--no-game", action="store_true", help="skip the game phase (the relay alone)")
    parser.add_argument("--json", help="also write the figures to this file")
    args = parser.parse_args(argv)

    django_setup()
    from django.conf import settings
    from django.db import connection

    if settings.CHANNEL_LAYERS["default"]["BACKEND"] == "channels.layers.InMemoryChannelLayer" and args.workers > 1 and not args.url:
        parser.error("several workers need REDIS_URL (the in-memory channel layer is one process only)")
    print(f"live bench {time.strftime('%Y-%m-%d %H:%M')} | Python {sys.version.split()[0]} | {os.cpu_count()} CPUs | "
          f"{connection.vendor} | {settings.CHANNEL_LAYERS['default']['BACKEND'].rsplit('.', 1)[-1]}"
          f"{' (encrypted)' if settings.CHANNEL_LAYERS['default'].get('CONFIG', {}).get('symmetric_encryption_keys') else ''} | "
          f"{args.tables} tables x {args.seats} seats + {args.spectators} spectators | think {args.think} s | "
          f"{args.seconds} s per phase | " + (args.url or f"{args.server} x {args.workers} workers")
          + (f" behind nginx ({args.proxy})" if args.proxy and not args.url else ""))
    t0 = time.perf_counter()
    tables, watchers, event_id = create_tables(args.tables, args.seats, args.spectators)
    print(f"setup: {len(tables)} live games, {args.tables * args.seats + args.spectators} sessions "
          f"in {time.perf_counter() - t0:.1f} s")
    connection.close()  # no connection held open (and no transaction) while the server runs
    phases = ([] if args.no_game else [("game", False)]) + ([] if args.no_relay else [("relay", True)])
    rows, clients = [], []
    if args.url:
        rows, clients = asyncio.run(bench(args, args.url, tables, watchers, None, phases))
    else:
        # Each phase gets workers of its own, started afresh: its memory per socket is measured from the
        # same starting point (a worker keeps memory a phase before it grew into).
        db_name = str(settings.DATABASES["default"]["NAME"])
        for phase in phases:
            site = Site(args.workers, args.server, db_name, deflate=args.ws_deflate, proxy=args.proxy).start()
            try:
                phase_rows, phase_clients = asyncio.run(
                    bench(args, f"http://127.0.0.1:{site.port}", tables, watchers, site, [phase]))
            finally:
                site.stop()
            rows += phase_rows
            if not phase[1]:
                clients = phase_clients
    problems = check_database(tables, clients)
    for row in rows:
        if row["gaps"] or row["duplicates"] or row["unanswered"] or row["closed"]:
            problems.append(f"{row['phase']} phase: {row['gaps']} gaps, {row['duplicates']} duplicates, "
                            f"{row['unanswered']} moves never answered, {row['closed']} sockets closed by the server")
    acked = sum(len(c.acked) for c in clients)
    if len(rows) > 1 and rows[1]["moves_per_s"]:
        print(f"ratio  game/relay moves/s {rows[0]['moves_per_s'] / rows[1]['moves_per_s']:.2f}")
        cpu = [row.get("cpu_ms_per_move", {}).get("workers") for row in rows[:2]]
        if None not in cpu and cpu[1] > 0:
            print(f"ratio  game/relay workers' CPU per stored move {cpu[0]:.2f} / {cpu[1]:.2f} ms = "
                  f"{cpu[0] / cpu[1]:.2f}")
        memory = [row.get("socket_memory", {}).get("kib_per_socket") for row in rows[:2]]
        if None not in memory and memory[1] > 0:
            print(f"ratio  game/relay workers' memory per socket {memory[0]:.0f} / {memory[1]:.0f} KiB = "
                  f"{memory[0] / memory[1]:.2f} (each phase in workers started afresh)")
    print(f"check  {acked} acknowledged moves against the database, {len(clients)} sockets' cards: "
          + ("OK" if not problems else "FAILED"))
    for problem in problems:
        print("  - " + problem)
    result = {"args": vars(args), "phases": rows, "problems": problems, "acknowledged": acked, "event": event_id}
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=2))
    main.result = result  # for tests that call main() in-process
    return 1 if problems else 0
