"""`Recent`: the newest items stored, up to a size, for the live layer's per-process caches (snapshots and
moves by version, each table's game and facts: `games.services.snapshots`, `games.services.game_log`).

A plain dict: reading is one lookup (a dict read needs no lock under CPython's GIL), storing takes a
lock, puts the item last and forgets the oldest one beyond the size. Written here rather than taken from
cachetools, which the site uses elsewhere: its LRU cache is pure Python, five calls and a reordering per
read, and the live path reads these several times per socket per move (a few percent of a loaded
worker). Forgetting by age of storing rather than of reading suits what they hold: a table's newest
version and game are stored again at every change.
"""

from __future__ import annotations

import threading
from collections.abc import Hashable
from typing import Any


class Recent:
    def __init__(self, size: int) -> None:
        self.size = size
        self.items: dict[Hashable, Any] = {}
        self.lock = threading.Lock()

    def get(self, key: Hashable, default: Any = None) -> Any:
        return self.items.get(key, default)

    def put(self, key: Hashable, value: Any) -> None:
        with self.lock:
            items = self.items
            items.pop(key, None)  # stored again: the newest
            items[key] = value
            if len(items) > self.size:
                del items[next(iter(items))]

    def pop(self, key: Hashable, default: Any = None) -> Any:
        with self.lock:
            return self.items.pop(key, default)

    def clear(self) -> None:
        with self.lock:
            self.items.clear()

    def __len__(self) -> int:
        return len(self.items)
