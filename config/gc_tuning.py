"""Garbage collection for a long-running server process.

A worker holding a thousand sockets has a large heap, and CPython's full (generation 2) collection walks
all of it: measured at 200-300 ms per collection in a worker during the 250-table load run, a pause in
which no socket of that worker is served. Two standard remedies, applied once the application is loaded:

- everything loaded at start (Django, the apps, the engine) is moved to the permanent generation
  (`gc.freeze()`), so collections never walk it again;
- the youngest generation is collected after 50,000 net allocations instead of 700, so the collections
  that remain run far less often. Reference counting still frees almost everything at once; the
  collector only finds reference cycles, which this code makes few of.

Setting ``GC_TUNING=0`` in the environment keeps CPython's defaults.
"""

from __future__ import annotations

import gc
import importlib
import os

GEN0_THRESHOLD = 700
# Modules the first socket or request would import lazily: loaded here so they are frozen too.
WARM_MODULES = ("games.consumers", "games.services.moves", "games.services.timers", "games.engine",
                "tournament.views", "tournament.live")


def tune(environ=os.environ) -> bool:
    """Freeze the loaded heap and raise the collection threshold; False when turned off."""
    if environ.get("GC_TUNING", "1").strip().lower() in ("0", "false", "no", "off"):
        return False
    for name in WARM_MODULES:
        importlib.import_module(name)
    gc.collect()
    gc.freeze()
    _, gen1, gen2 = gc.get_threshold()
    gc.set_threshold(GEN0_THRESHOLD, gen1, gen2)
    return True
