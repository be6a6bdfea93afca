"""Counting the site's round trips to PostgreSQL during a bench run: an app that `bench/live_settings.py`
adds to the server processes (workers and sweeper) when the harness asks (`BENCH_ROUND_TRIPS_DIR`).

Each process counts its round trips (`bench.round_trips`), those made inside the moves of its sockets
(`GameConsumer.handle_move`, wrapped here) and what the one-statement move did with the moves offered to
it (`games.services.move_sql.counts`), and the CPU time its garbage collections took (`gc.callbacks`, each
collection's thread CPU time; those of 10 ms or more kept with their moment), and writes them to
`<dir>/<pid>.json` every 0.2 s; the harness adds the files up at the start and the end of a phase
(`read_round_trips`), keeping each long collection's process.
"""

from __future__ import annotations

import gc
import json
import os
import threading
import time
from pathlib import Path

from django.apps import AppConfig

from bench import round_trips

EVERY = 0.2
LONG_PAUSE = 0.010  # collections this long or longer are kept with their moment (wall clock)
KEPT_PAUSES = 2000
_in_moves = {"moves": 0, "round_trips": 0}
_gc: dict = {"seconds": 0.0, "collections": 0, "pauses": [], "started": 0.0}


def _timed_collection(phase: str, info: dict) -> None:
    if phase == "start":
        _gc["started"] = time.thread_time()
        return
    took = time.thread_time() - _gc["started"]
    _gc["seconds"] += took
    _gc["collections"] += 1
    if took >= LONG_PAUSE:
        _gc["pauses"] = [*_gc["pauses"][-(KEPT_PAUSES - 1):], (time.time(), took)]


class RoundTripsConfig(AppConfig):
    name = "bench"
    label = "bench_live_round_trips"

    def ready(self) -> None:
        folder = os.environ.get("BENCH_ROUND_TRIPS_DIR")
        if not folder:
            return
        round_trips.install()
        from games.consumers import GameConsumer

        handle_move = GameConsumer.handle_move

        async def counted(consumer, message):
            with round_trips.counting() as trips:
                try:
                    await handle_move(consumer, message)
                finally:
                    _in_moves["moves"] += 1
                    _in_moves["round_trips"] += trips[0]

        GameConsumer.handle_move = counted
        gc.callbacks.insert(0, _timed_collection)  # first: the time of whatever other callbacks do is counted
        threading.Thread(target=_write_forever, args=(Path(folder),), daemon=True, name="bench-round-trips").start()


def _write_forever(folder: Path) -> None:
    from games.services import move_sql

    path, part = folder / f"{os.getpid()}.json", folder / f".{os.getpid()}.part"
    while True:
        part.write_text(json.dumps({"round_trips": round_trips.total(), "in_moves": dict(_in_moves),
                                    "move_sql": dict(move_sql.counts),
                                    "gc": {"seconds": _gc["seconds"], "collections": _gc["collections"],
                                           "pauses": list(_gc["pauses"])}}))
        part.replace(path)
        time.sleep(EVERY)


def read_round_trips(folder: str | Path) -> dict:
    """The counts of every process that has written to `folder`, added up."""
    out = {"round_trips": 0, "moves": 0, "in_moves": 0, "move_sql": {},
           "gc": {"seconds": 0.0, "collections": 0, "pauses": []}}
    for path in Path(folder).glob("*.json"):
        try:
            data = json.loads(path.read_text())
        except (OSError, ValueError):
            continue
        out["round_trips"] += data["round_trips"]
        out["moves"] += data["in_moves"]["moves"]
        out["in_moves"] += data["in_moves"]["round_trips"]
        for key, n in data["move_sql"].items():
            out["move_sql"][key] = out["move_sql"].get(key, 0) + n
        if "gc" in data:
            out["gc"]["seconds"] += data["gc"]["seconds"]
            out["gc"]["collections"] += data["gc"]["collections"]
            out["gc"]["pauses"] += [(*p, int(path.stem)) for p in data["gc"]["pauses"]]  # (at, took, pid)
    return out
