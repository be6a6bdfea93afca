"""Garbage collection for a long-running server process.

A worker holding a thousand sockets has a large heap, and CPython's full (generation 2) collection walks
all of it: 300-600 ms of CPU per collection in a worker of the 500-table bench, a pause in which no
socket of that worker is served. Live play makes long-lived objects all the time (each move's snapshot,
views and frames are kept for a few seconds, `games.services.snapshots`), so CPython started a full
collection every few seconds, and with the younger generations' collections they took a third of the
worker's CPU and made the tail of every move's latency.

So a worker makes no full collection of its own accord (generation 2's threshold is out of reach) and
makes one every `FULL_SECONDS` instead, from a thread of its own. Reference counting still frees almost
everything at once; the younger generations' collections still free the reference cycles that die young
(most of them); a cycle that dies old waits for the next full collection. Everything loaded at start
(Django, the apps, the engine) is moved to the permanent generation (`gc.freeze()`), so even that
collection never walks it. Measured in the 500-table bench (docs/performance.md): the full collection
every ten minutes pauses a worker for about half a second; between them, no collection took 100 ms.

The youngest generation is collected after 2,000 new container objects, not CPython's 700: under load a
worker holds every move in flight for tens of milliseconds (its messages, frames and tasks), so at 700
most of them were still alive at each collection, walked and moved to the older generation, whose
collections then walked them again. Larger is not better: generation 1 is collected after ten of
generation 0's, and walks all they left, so its pauses grow with the threshold. Measured in bench/live on
one machine, the same code (docs/performance.md): at human pace (500 tables x 4 and 500 spectators) p99
from a move to its table 196 ms at 700, 146 ms at 2,000, 252 ms at 10,000 (generation 1's collections
60-160 ms of CPU each); at 50 tables x 4, the workers' CPU per move 2.25-2.60 ms at 2,000 and 2.63-2.89 ms
at 10,000 (relay 0.63-0.84 ms in the same runs). ``GC_GEN0_THRESHOLD`` sets it; ``GC_TUNING=0`` keeps
CPython's defaults; ``GC_FULL_SECONDS`` sets the full collections' interval.
"""

from __future__ import annotations

import gc
import importlib
import threading

from config.environment import number, whole_number, yes_no

GEN0_THRESHOLD = 2_000  # the default of GC_GEN0_THRESHOLD
NO_FULL_OF_ITS_OWN = 1_000_000_000  # generation 2's threshold: collections of generation 1 before a full one
FULL_SECONDS = 600.0
# Modules the first socket or request would import lazily: loaded here so they are frozen too.
WARM_MODULES = ("games.consumers", "games.services.moves", "games.services.timers", "games.engine",
                "tournament.views", "tournament.page_notices")

_started: list[threading.Thread] = []


def tune() -> bool:
    """Freeze the loaded heap, set the thresholds and start the full collections' thread; False when off."""
    if not yes_no("GC_TUNING", True):
        return False
    for name in WARM_MODULES:
        importlib.import_module(name)
    gc.collect()
    gc.freeze()
    _, gen1, _ = gc.get_threshold()
    gen0 = whole_number("GC_GEN0_THRESHOLD", GEN0_THRESHOLD, minimum=100)
    gc.set_threshold(gen0, gen1, NO_FULL_OF_ITS_OWN)
    every = number("GC_FULL_SECONDS", FULL_SECONDS, minimum=1.0)
    if not _started:
        thread = threading.Thread(target=collect_every, args=(every,), daemon=True, name="full-collections")
        _started.append(thread)
        thread.start()
    return True


def collect_every(seconds: float, stop: threading.Event | None = None) -> None:
    """A full collection every `seconds` until `stop` is set (the thread `tune` starts never stops)."""
    stop = stop or threading.Event()
    while not stop.wait(seconds):
        gc.collect()
