"""Settings of the server `bench/live/` starts: the site's own (`config.settings`, from the same
environment: DATABASE_URL, REDIS_URL...) with the bare relay mounted and the per-socket rate limit
lifted, so that a table can move as fast as the server allows, and the per-address socket cap lifted (every
client is on 127.0.0.1). `BENCH_DB_NAME` points the server at
another database name on the same server (the test database, when the harness runs under pytest)."""

import os

from config.settings import *  # noqa: F403
from config.settings import DATABASES

BENCH_RELAY = True
LIVE_SOCKET_RATE_LIMIT = (1_000_000, 1.0)
# Every client of the harness comes from 127.0.0.1: the per-address cap on logged-in sockets (a campus
# behind one address, config/socket_caps.py) would close all but 400 of a worker's sockets.
SOCKET_MAX_OPEN_PER_ADDRESS_LOGGED_IN = 1_000_000
# The harness runs `manage.py run_sweeper` as production does; with the in-memory channel layer (no
# REDIS_URL) that process could not reach the sockets, so the worker sweeps itself.
LIVE_SWEEPER_IN_PROCESS = os.environ.get("BENCH_SWEEPER_IN_PROCESS") == "1"
LIVE_NEXT_HAND_SECONDS = float(os.environ.get("BENCH_NEXT_HAND_SECONDS", "0.2"))
if os.environ.get("BENCH_DB_NAME"):
    DATABASES["default"]["NAME"] = os.environ["BENCH_DB_NAME"]
ALLOWED_HOSTS = [*ALLOWED_HOSTS, "127.0.0.1"]  # noqa: F405
if os.environ.get("BENCH_ROUND_TRIPS_DIR"):  # each process counts its round trips to PostgreSQL (bench/live_instrument.py)
    INSTALLED_APPS = [*INSTALLED_APPS, "bench.live_instrument.RoundTripsConfig"]  # noqa: F405

if os.environ.get("BENCH_GC_LOG"):  # each collection over 5 ms, to the server log: wall and CPU time
    import gc
    import sys
    import time

    _gc_started: list[float] = [0.0, 0.0]

    def _log_collection(phase: str, info: dict) -> None:
        if phase == "start":
            _gc_started[:] = [time.perf_counter(), time.thread_time()]
            return
        wall = (time.perf_counter() - _gc_started[0]) * 1000
        if wall > 5:
            cpu = (time.thread_time() - _gc_started[1]) * 1000
            print(f"gc: generation {info['generation']} {wall:.1f} ms ({cpu:.1f} ms CPU), "
                  f"{info['collected']} collected, {len(gc.get_objects(2))} objects in generation 2",
                  file=sys.stderr, flush=True)

    gc.callbacks.append(_log_collection)
