"""The live layer's cache of newest items (games/services/recent.py) against a plain dict used the same way
(store last, forget the first key): nanoseconds per store and per read at the sizes the live layer uses,
after the cache has filled and turned over three times.

    .venv/bin/python bench/recent_cache.py
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.services.recent import Recent  # noqa: E402

SIZES = (1024, 8192)  # games.services.snapshots: snapshots and moves
TIMED = 200_000


class PlainDict:
    """The reference: a plain dict, its first key forgotten when it is over its size."""

    def __init__(self, size: int) -> None:
        self.size, self.items = size, {}

    def get(self, key, default=None):
        return self.items.get(key, default)

    def put(self, key, value) -> None:
        items = self.items
        items.pop(key, None)
        items[key] = value
        if len(items) > self.size:
            del items[next(iter(items))]


def timed(cache, size: int) -> tuple[float, float]:
    """(ns per store, ns per read) of keys shaped as the live layer's: (table, version)."""
    for n in range(3 * size):
        cache.put((1, n), n)
    first = 3 * size
    started = time.perf_counter()
    for n in range(first, first + TIMED):
        cache.put((1, n), n)
    stores = time.perf_counter() - started
    started = time.perf_counter()
    for n in range(first, first + TIMED):
        cache.get((1, n))
    reads = time.perf_counter() - started
    return stores / TIMED * 1e9, reads / TIMED * 1e9


def main() -> list[tuple[str, int, float, float]]:
    rows = []
    for size in SIZES:
        for name, cache in (("Recent", Recent(size)), ("plain dict", PlainDict(size))):
            store, read = timed(cache, size)
            rows.append((name, size, store, read))
            print(f"{name:10s} {size:5d} items: store {store:5.0f} ns, read {read:4.0f} ns")
    return rows


if __name__ == "__main__":
    main()
