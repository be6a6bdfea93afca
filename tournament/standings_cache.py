"""Standings and rendered public pages kept per event and scores version (``tournament.scores_version``),
so that a page read by many people at once is computed once per change instead of once per reader.

**In the process** (``memo``, ``peek``): cachetools' ``cached`` over a ``TLRUCache`` of ``MEMO_ENTRIES``
values, each kept for ``STANDINGS_CACHE_SECONDS`` (default 60 s: the longest a change made outside the
services, a row edited in the database by hand, goes unseen). With its ``condition``, a missing value is
built by one thread while the others asking for it wait for that build, as long as it takes, instead of
repeating it (a build that raises lets the next one try); a value kept costs no I/O at all to serve.

**Across processes** (``shared``): computed standings and big brackets' rendered pages go through
Django's cache as well when ``STANDINGS_SHARED_CACHE`` is on (with ``REDIS_URL``, see
config/settings.py): one worker builds a version's value for all, the others wait for it (for up to
``BUILD_WAIT_SECONDS``, then they build it themselves).

Written here by hand, because no library does it:

- which values are kept (``_TwoNewestVersions``): an event's values for its two newest versions only,
  a rule of ours about our keys;
- the build lock in Django's cache (``shared``): Django's cache offers no lock and no way to wait for a
  key, so ``cache.add`` of a ``:building`` key is the lock (atomic in Redis and in local memory) and a
  worker that did not get it asks for the value again every ``SHARED_POLL_SECONDS``. redis-py's lock
  would do the same polling, for Redis only.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from cachetools import LRUCache, TLRUCache, cached
from django.conf import settings
from django.core.cache import cache

from tournament.scores_version import Version, event_key, note_size

if TYPE_CHECKING:
    from tournament.models import Event, Round
    from tournament.standings import StandingRow

logger = logging.getLogger(__name__)

MEMO_ENTRIES = 512  # values per process: a few events' standings, brackets and pages, two versions each
BUILD_WAIT_SECONDS = 30  # how long a worker waits for another one's shared build (and holds its own lock)
SHARED_POLL_SECONDS = 0.05  # how often a waiting worker asks Django's cache for the value again


class _TwoNewestVersions(TLRUCache):
    """A ``TLRUCache`` that keeps an event's values (keys whose second item is a ``Version``) for its two
    newest versions only.

    Versions only move forward, so a value kept for an older version is hardly ever asked for again;
    left in the LRU until pushed out, they piled up while scores changed (512 entries: about 100
    versions of a 10,000-player event's standings, bracket and pages, 600 MB in a worker), and every
    full garbage collection walked them all, holding up the worker's event loop (see
    docs/performance.md, "Pages"). Two, not one: a big event's pages show the published version
    (``scores_version``) while its live socket reads the newest, in the same process. A value built for
    a version older than both kept ones is returned to its reader (``cached``) but not stored."""

    def __init__(self, maxsize: int, ttu: Callable) -> None:
        super().__init__(maxsize, ttu)
        self.kept: LRUCache[tuple[int, float], tuple[int, ...]] = LRUCache(maxsize)  # event -> changes kept

    def __setitem__(self, key: tuple, value: Any) -> None:
        version = key[1] if len(key) > 1 and isinstance(key[1], Version) else None
        if version is None or self._keeps(version):
            super().__setitem__(key, value)

    def _keeps(self, version: Version) -> bool:
        event = (version.event_id, version.created)
        kept = self.kept.get(event, ())
        if version.change in kept:
            return True
        if len(kept) >= 2 and version.change < kept[0]:
            return False
        kept = sorted((*kept, version.change))
        self.kept[event] = tuple(kept[-2:])
        if len(kept) > 2:
            for old in [k for k in self if len(k) > 1 and isinstance(k[1], Version)
                        and (k[1].event_id, k[1].created) == event and k[1].change == kept[0]]:
                self.pop(old, None)
        return True

    def clear(self) -> None:
        super().clear()
        self.kept.clear()


def _until_stale(_key, _value, now: float) -> float:
    return now + float(settings.STANDINGS_CACHE_SECONDS)


# Guards _values (cachetools' caches are not thread-safe) and wakes the threads waiting for a build.
_built = threading.Condition()
_values = _TwoNewestVersions(MEMO_ENTRIES, _until_stale)


@cached(_values, key=lambda key, build: key, condition=_built)
def memo(key: tuple, build: Callable[[], Any]) -> Any:
    """The value stored under ``key`` in this process (keys include a Version), built once when missing:
    readers arriving while another thread builds it wait for that build instead of repeating it."""
    return build()


def peek(key: tuple) -> Any:
    """The value stored under ``key`` in this process, or None."""
    with _built:
        return _values.get(key)


def clear() -> None:
    """Drop every value this process keeps (tests)."""
    memo.cache_clear()


def shared(name: str, build: Callable[[], tuple[Any, bool]]) -> Any:
    """The value stored in Django's cache under ``name`` (which must name its version), else
    ``build()``'s, stored there when it says so (``(value, share)``). With ``STANDINGS_SHARED_CACHE``
    off, just ``build()``. A lock in the cache (``cache.add``, see the module's docstring) makes one
    worker build a value while the others wait for it (for up to ``BUILD_WAIT_SECONDS``, then they build
    it themselves)."""
    if not settings.STANDINGS_SHARED_CACHE:
        return build()[0]
    lock, mine = f"{name}:building", False
    try:
        deadline = time.monotonic() + BUILD_WAIT_SECONDS
        # Taking the lock, look once more: its builder may have stored the value and let go meanwhile.
        while (stored := cache.get(name)) is None and not mine:
            mine = cache.add(lock, 1, timeout=BUILD_WAIT_SECONDS)
            if not mine:
                if time.monotonic() >= deadline:
                    break  # the builder is stuck or gone: build it here
                time.sleep(SHARED_POLL_SECONDS)
    except Exception:  # noqa: BLE001 - a cache that is down only costs time
        logger.warning("standings cache unavailable", exc_info=True)
        return build()[0]
    try:
        if stored is not None:
            return stored
        value, share = build()
        if share:
            try:
                cache.set(name, value, timeout=float(settings.STANDINGS_CACHE_SECONDS))
            except Exception:  # noqa: BLE001
                logger.warning("standings cache unavailable", exc_info=True)
        return value
    finally:
        if mine:
            try:
                cache.delete(lock)
            except Exception:  # noqa: BLE001
                logger.warning("standings cache unavailable", exc_info=True)


def shared_name(kind: str, version: Version, *parts) -> str:
    """A name for ``shared``: the kind of value, its event and version, and what else tells it apart."""
    return ":".join([kind, event_key(version.event_id, version.created), str(version.change), *map(str, parts)])


def standings(event: Event, version: Version, round: Round | None = None) -> list[StandingRow]:
    """The event's (or round's) places (``tournament.services.final_places.places``) for this version:
    computed once per version, per process or, with the shared cache on, once for every process."""
    from tournament.services.final_places import places
    from tournament.standings import StandingRow

    part = round.pk if round is not None else None

    def compute() -> tuple[list[tuple], bool]:
        rows = places(event, round=round)
        if round is None:
            note_size(event, len(rows))
        return [_row_values(r) for r in rows], True

    def build() -> list[StandingRow]:
        return [StandingRow(*values) for values in shared(shared_name("standings", version, part), compute)]

    return memo(("standings", version, part), build)


def _row_values(row: StandingRow) -> tuple:
    return (row.player_id, row.display_name, row.points_won, row.games_won, row.hands_won, row.points_left,
            row.status, row.rank, row.participation, row.place, row.bracket)
