"""Garbage collection for a long-running server process.

A worker holding a thousand sockets has a large heap, and CPython's full (generation 2) collection walks
all of it: measured at 200-300 ms per collection in a worker during the 250-table load run, a pause in
which no socket of that worker is served. Once the application is loaded, everything loaded at start
(Django, the apps, the engine) is moved to the permanent generation (`gc.freeze()`), so collections never
walk it again. The youngest generation keeps CPython's threshold (`GEN0_THRESHOLD`, set explicitly so a
measurement can change it in one place). Reference counting still frees almost everything at once; the
collector only finds reference cycles, which this code makes few of.

Setting ``GC_TUNING=0`` in the environment keeps CPython's defaults.
"""

from __future__ import annotations

import gc
import importlib

from config.environment import yes_no

GEN0_THRESHOLD = 700
# Modules the first socket or request would import lazily: loaded here so they are frozen too.
WARM_MODULES = ("games.consumers", "games.services.moves", "games.services.timers", "games.engine",
                "tournament.views", "tournament.page_notices")


def tune() -> bool:
    """Freeze the loaded heap and set the collection threshold; False when turned off."""
    if not yes_no("GC_TUNING", True):
        return False
    for name in WARM_MODULES:
        importlib.import_module(name)
    gc.collect()
    gc.freeze()
    _, gen1, gen2 = gc.get_threshold()
    gc.set_threshold(GEN0_THRESHOLD, gen1, gen2)
    return True
