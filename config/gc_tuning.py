"""Garbage collection for a long-running server process.

A worker holding a thousand sockets has a large heap, and CPython's full (generation 2) collection walks
all of it: measured at 200-600 ms of CPU per collection in a worker of the 500-table load run, a pause in
which no socket of that worker is served, and with the collections of the younger generations a third
of the worker's CPU. Live play makes long-lived objects all the time (each move's snapshot, views and
frames are kept for a few seconds, `games.services.snapshots`), so full collections come every few
seconds and each walks the whole heap again, sockets and all.

So the heap that survived a full collection is frozen (`gc.freeze()`: moved to the permanent generation,
which collections never walk), and the next full collection walks only what was made since. Reference
counting still frees every frozen object that stops being used; only a reference cycle among frozen objects
that becomes garbage (a closed socket's objects, say) waits: every `THAW_SECONDS` the permanent generation
is given back to the next full collection (`gc.unfreeze()`), which walks everything once and frees those
cycles. Everything loaded at start (Django, the apps, the engine) is frozen before the first socket opens.

The youngest generation keeps CPython's threshold (`GEN0_THRESHOLD`, set explicitly so a measurement can
change it in one place). The collector only finds reference cycles, which this code makes few of.
Setting ``GC_TUNING=0`` in the environment keeps CPython's defaults; ``GC_THAW_SECONDS`` sets the interval.
"""

from __future__ import annotations

import gc
import importlib
import time
from collections.abc import Callable

from config.environment import number, yes_no

GEN0_THRESHOLD = 700
THAW_SECONDS = 600.0  # the frozen heap goes back to a full collection at most this long after the last time
# Modules the first socket or request would import lazily: loaded here so they are frozen too.
WARM_MODULES = ("games.consumers", "games.services.moves", "games.services.timers", "games.engine",
                "tournament.views", "tournament.page_notices")


def tune() -> bool:
    """Freeze the loaded heap, set the collection threshold and freeze each full collection's survivors;
    False when turned off."""
    if not yes_no("GC_TUNING", True):
        return False
    for name in WARM_MODULES:
        importlib.import_module(name)
    gc.collect()
    gc.freeze()
    _, gen1, gen2 = gc.get_threshold()
    gc.set_threshold(GEN0_THRESHOLD, gen1, gen2)
    install(SurvivorFreezer(number("GC_THAW_SECONDS", THAW_SECONDS, minimum=1.0)))
    return True


class SurvivorFreezer:
    """A `gc.callbacks` entry: after each full collection, freeze what survived it; before the first full
    collection `thaw_seconds` after the last thaw, unfreeze, so that collection walks (and frees the cycles
    of) everything; not while nothing was frozen since the start (`keep`)."""

    def __init__(self, thaw_seconds: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.thaw_seconds = thaw_seconds
        self.clock = clock
        self.thawed_at = clock()
        self.keep = gc.get_freeze_count()  # frozen at start (they live as long as the process)
        self.thaws = 0

    def __call__(self, phase: str, info: dict) -> None:
        if info.get("generation") != 2:
            return
        if phase == "start":
            if self.clock() - self.thawed_at >= self.thaw_seconds and gc.get_freeze_count() > self.keep:
                self.thawed_at = self.clock()
                self.thaws += 1
                gc.unfreeze()  # into the oldest generation: this collection walks it
        elif phase == "stop":
            gc.freeze()


def install(freezer: SurvivorFreezer) -> None:
    """Put `freezer` in `gc.callbacks` (once: a freezer already there is replaced)."""
    gc.callbacks[:] = [c for c in gc.callbacks if not isinstance(c, SurvivorFreezer)]
    gc.callbacks.append(freezer)
