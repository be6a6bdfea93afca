"""Standings and rendered public pages kept per event and scores version (``tournament.scores_version``),
so that a page read by many people at once is computed once per change instead of once per reader.

Values are kept in the process (``memo``) for ``STANDINGS_CACHE_SECONDS`` (default 60 s, for changes made
outside the services: a row edited in the database by hand). Computed standings (and big brackets'
rendered pages, ``shared``) go through Django's cache as well when ``STANDINGS_SHARED_CACHE`` is on (with
``REDIS_URL``, see config/settings.py): one worker builds a version's value for all, under a short lock
in the cache so that two workers do not build it at once; rendered HTML is also kept in the process (a
small LRU), where serving it costs no I/O at all.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.core.cache import cache

from tournament.scores_version import Version, event_key, note_size

if TYPE_CHECKING:
    from tournament.models import Event, Round
    from tournament.standings import StandingRow

logger = logging.getLogger(__name__)

MEMO_ENTRIES = 512
BUILD_WAIT_SECONDS = 30
SHARED_POLL_SECONDS = 0.05


def _max_age() -> float:
    return float(getattr(settings, "STANDINGS_CACHE_SECONDS", 60.0))


def _shared_on() -> bool:
    return bool(getattr(settings, "STANDINGS_SHARED_CACHE", False))


_lock = threading.Lock()
_memo: OrderedDict[tuple, tuple[Any, float]] = OrderedDict()
_building: dict[tuple, threading.Event] = {}  # keys a thread is computing now
_kept: dict[tuple[int, float], list[int]] = {}  # (event id, created) -> the (up to 2) version changes kept in _memo


def clear() -> None:
    """Drop every value this process keeps (tests)."""
    with _lock:
        _memo.clear()
        _kept.clear()


def memo(key: tuple, build: Callable[[], Any]) -> Any:
    """The value stored under ``key`` in this process (keys include a Version), built once when missing:
    readers arriving while another thread builds it wait for that build instead of repeating it."""
    while True:
        now = time.monotonic()
        with _lock:
            hit = _memo.get(key)
            if hit is not None and now - hit[1] < _max_age():
                _memo.move_to_end(key)
                return hit[0]
            building = _building.get(key)
            if building is None:
                building = _building[key] = threading.Event()
                break
        if not building.wait(BUILD_WAIT_SECONDS):
            return build()  # the other build is stuck: do not wait forever
    try:
        value = build()
        with _lock:
            if _keep(key):
                _memo[key] = (value, now)
                _memo.move_to_end(key)
                while len(_memo) > MEMO_ENTRIES:
                    _memo.popitem(last=False)
        return value
    finally:
        with _lock:
            _building.pop(key, None)
        building.set()


def _keep(key: tuple) -> bool:
    """Whether to store a value under ``key``; an event's values are kept for its two newest versions
    only (caller holds ``_lock``).

    Versions only move forward, so a value kept for an older version is hardly ever asked for again;
    left in the LRU until pushed out, they piled up while scores changed (512 entries: about 100
    versions of a 10,000-player event's standings, bracket and pages, 600 MB in a worker), and every
    full garbage collection walked them all, holding up the worker's event loop (see
    docs/performance.md, "Pages"). Two, not one: a big event's pages show the published version
    (``scores_version``) while its live socket reads the newest, in the same process. A value built for
    a version older than both kept ones is returned but not stored."""
    version = key[1] if len(key) > 1 and isinstance(key[1], Version) else None
    if version is None:
        return True
    event = (version.event_id, version.created)
    kept = _kept.get(event)
    if kept is None:
        kept = _kept[event] = []
        if len(_kept) > MEMO_ENTRIES:  # events long gone (tests): forget the oldest
            _kept.pop(next(iter(_kept)))
    if version.change in kept:
        return True
    if len(kept) >= 2 and version.change < kept[0]:
        return False
    kept.append(version.change)
    kept.sort()
    if len(kept) > 2:
        dropped = kept.pop(0)
        for old in [k for k in _memo if len(k) > 1 and isinstance(k[1], Version)
                    and (k[1].event_id, k[1].created) == event and k[1].change == dropped]:
            del _memo[old]
    return True


def peek(key: tuple) -> Any:
    """The value stored under ``key`` in this process, or None."""
    with _lock:
        hit = _memo.get(key)
        if hit is not None and time.monotonic() - hit[1] < _max_age():
            return hit[0]
    return None


def shared(name: str, build: Callable[[], tuple[Any, bool]]) -> Any:
    """The value stored in the shared cache under ``name`` (which must name its version), else
    ``build()``'s, stored there when it says so (``(value, share)``). With ``STANDINGS_SHARED_CACHE``
    off, just ``build()``. A short lock in the cache (``cache.add``) makes one worker build a value while
    the others wait for it (for up to ``BUILD_WAIT_SECONDS``, then they build it themselves)."""
    if not _shared_on():
        return build()[0]
    lock = f"{name}:building"
    try:
        stored = cache.get(name)
        if stored is not None:
            return stored
        mine = cache.add(lock, 1, timeout=BUILD_WAIT_SECONDS)
        deadline = time.monotonic() + BUILD_WAIT_SECONDS
        while not mine and time.monotonic() < deadline:
            time.sleep(SHARED_POLL_SECONDS)
            stored = cache.get(name)
            if stored is not None:
                return stored
            mine = cache.add(lock, 1, timeout=BUILD_WAIT_SECONDS)  # the builder gave up (or just finished)
            if mine and (stored := cache.get(name)) is not None:
                cache.delete(lock)
                return stored
    except Exception:  # noqa: BLE001 - a cache that is down only costs time
        logger.warning("standings cache unavailable", exc_info=True)
        return build()[0]
    try:
        value, share = build()
        if share:
            try:
                cache.set(name, value, timeout=_max_age())
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
    """``compute_standings(event, round)`` for this version: computed once per version, per process or,
    with the shared cache on, once for every process."""
    from tournament.standings import StandingRow, compute_standings

    key = ("standings", version, round.pk if round is not None else None)

    def compute() -> tuple[list[tuple], bool]:
        rows = compute_standings(event, round=round)
        if round is None:
            note_size(event, len(rows))
        return [_row_values(r) for r in rows], True

    def build() -> list[StandingRow]:
        return [StandingRow(*values) for values in shared(shared_name("standings", version, key[2]), compute)]

    return memo(key, build)


def _row_values(row: StandingRow) -> tuple:
    return (row.player_id, row.display_name, row.points_won, row.games_won, row.hands_won, row.points_left,
            row.status, row.rank, row.participation)
