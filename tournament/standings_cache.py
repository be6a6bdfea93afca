"""Standings and rendered public pages kept per event and *scores version*, so that a page read by many
people at once is computed once per change instead of once per reader.

The version of an event is the id of its latest ``StandingsChange`` row, written by ``record_change``:
inside the writer's transaction (so the writer's own connection, and a test, sees it at once) and again
just after it commits (ids are handed out before commit, so a row of a transaction that commits late
could otherwise carry a smaller id than one a reader has already seen). Every worker process, on every
machine, reads the version from the database; anything computed is stored under the version it was
computed for and is never served for another one.

Reading the version is one small indexed query, made with the event's own (``public_event``): every page
request that reaches Django makes it. ``tournament.page_cache`` serves pages in front of Django while the
version it knows is less than ``STANDINGS_VERSION_CHECK_SECONDS`` (default 1 s) old and no change was
made or heard of since in this process (the live leaderboard's "scores changed" message): a page served
by another process than the one that recorded the change is at most that many seconds behind. Entries also expire after
``STANDINGS_CACHE_SECONDS`` (default 60 s), for changes made outside the services (a row edited in the
database by hand).

Computed standings go through Django's cache as well when ``STANDINGS_SHARED_CACHE`` is on (with
``REDIS_URL``, see config/settings.py), so one worker computes them for all; rendered HTML stays in the
process (a small LRU), where serving it costs no I/O at all.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.db.models import OuterRef, Subquery

if TYPE_CHECKING:
    from tournament.models import Event, Round
    from tournament.standings import StandingRow

logger = logging.getLogger(__name__)

MEMO_ENTRIES = 512
PRUNE_EVERY = 64  # on-commit rows: one in this many prunes the event's old rows
KEEP_ROWS = 16
BUILD_WAIT_SECONDS = 30


def _check_seconds() -> float:
    return float(getattr(settings, "STANDINGS_VERSION_CHECK_SECONDS", 1.0))


def _max_age() -> float:
    return float(getattr(settings, "STANDINGS_CACHE_SECONDS", 60.0))


@dataclass(frozen=True)
class Version:
    """What cached values are keyed on. ``created`` tells apart two events that had the same id (a
    database restored, or test databases rolled back); ``change`` is the latest StandingsChange id."""

    event_id: int
    created: float
    change: int


_lock = threading.Lock()
_versions: dict[int, tuple[Version, float]] = {}  # event id -> (version, checked at)
_dirty: set[int] = set()  # event ids whose version must be read again before the next use
_memo: OrderedDict[tuple, tuple[Any, float]] = OrderedDict()
_building: dict[tuple, threading.Event] = {}  # keys a thread is computing now
_newest: dict[tuple[int, float], int] = {}  # (event id, created) -> newest version change kept in _memo


# ---- writing: a change happened --------------------------------------------------------------------


def record_change(event_id: int) -> None:
    """Say that what ``event_id``'s leaderboard or bracket shows has changed (call it where the change is
    saved, inside its transaction if there is one)."""
    from tournament.models import StandingsChange

    StandingsChange.objects.create(event_id=event_id)
    _mark_dirty(event_id)
    transaction.on_commit(lambda: _after_commit(event_id))


def _after_commit(event_id: int) -> None:
    from tournament.models import StandingsChange

    try:
        row = StandingsChange.objects.create(event_id=event_id)
        if row.pk % PRUNE_EVERY == 0:
            StandingsChange.objects.filter(event_id=event_id, id__lt=row.pk - KEEP_ROWS).delete()
    except Exception:  # noqa: BLE001 - the change is saved; pages catch up within STANDINGS_CACHE_SECONDS
        logger.exception("could not record the scores version of event %s after commit", event_id)
    _mark_dirty(event_id)


def _mark_dirty(event_id: int) -> None:
    with _lock:
        _dirty.add(event_id)


def forget_version(event_id: int) -> None:
    """Read the version again before the next use (told by another process that scores changed)."""
    _mark_dirty(event_id)


def clear() -> None:
    """Drop everything this process keeps (tests)."""
    with _lock:
        _versions.clear()
        _dirty.clear()
        _memo.clear()
        _newest.clear()


# ---- reading: the event and its version -------------------------------------------------------------


def _latest_change():
    from tournament.models import StandingsChange

    return Subquery(StandingsChange.objects.filter(event_id=OuterRef("pk")).order_by("-id").values("id")[:1])


def _version_of(event, change: int | None) -> Version:
    return Version(event.pk, event.created_at.timestamp(), change or 0)


def _fresh(checked_at: float) -> bool:
    return time.monotonic() - checked_at < _check_seconds()


def public_event(slug: str) -> tuple[Event | None, Version | None]:
    """The public (not draft) event with this slug and its scores version, in one query (the version
    check a cached page costs)."""
    from tournament.models import Event

    event = (Event.objects.exclude(status=Event.Status.DRAFT).filter(slug=slug)
             .annotate(latest_change=_latest_change()).first())
    if event is None:
        return None, None
    version = _version_of(event, event.latest_change)
    with _lock:
        _versions[event.pk] = (version, time.monotonic())
        _dirty.discard(event.pk)
    return event, version


def known_version(event_id: int) -> Version | None:
    """The version read less than ``STANDINGS_VERSION_CHECK_SECONDS`` ago with no change since, or None:
    no I/O, so an event loop can call it (``tournament.page_cache``)."""
    with _lock:
        known = _versions.get(event_id)
        if known is not None and event_id not in _dirty and _fresh(known[1]):
            return known[0]
    return None


def current_version(event: Event) -> Version:
    """The scores version of an event already loaded (the live leaderboard's consumer holds one)."""
    from tournament.models import StandingsChange

    with _lock:
        known = _versions.get(event.pk)
        if known is not None and event.pk not in _dirty and _fresh(known[1]):
            return known[0]
    change = StandingsChange.objects.filter(event_id=event.pk).order_by("-id").values_list("id", flat=True).first()
    version = _version_of(event, change)
    with _lock:
        _versions[event.pk] = (version, time.monotonic())
        _dirty.discard(event.pk)
    return version


# ---- cached values ---------------------------------------------------------------------------------


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
    """Whether to store a value under ``key``; storing one for an event's newer version drops what is
    kept for its older ones (caller holds ``_lock``).

    Versions only move forward, so a value kept for an older version is never asked for again; left
    in the LRU until pushed out, they piled up while scores changed (512 entries: about 100 versions of
    a 10,000-player event's standings, bracket and pages, 600 MB in a worker), and every full garbage
    collection walked them all, holding up the worker's event loop (see docs/performance.md, "Pages").
    A value built for a version older than one already kept is returned but not stored."""
    version = key[1] if len(key) > 1 and isinstance(key[1], Version) else None
    if version is None:
        return True
    event = (version.event_id, version.created)
    newest = _newest.get(event)
    if newest is not None and version.change < newest:
        return False
    if newest is None or version.change > newest:
        _newest[event] = version.change
        for old in [k for k in _memo if len(k) > 1 and isinstance(k[1], Version)
                    and (k[1].event_id, k[1].created) == event and k[1].change < version.change]:
            del _memo[old]
        if len(_newest) > MEMO_ENTRIES:  # events long gone (tests): forget the oldest
            _newest.pop(next(iter(_newest)))
    return True


def peek(key: tuple) -> Any:
    """The value stored under ``key`` in this process, or None."""
    with _lock:
        hit = _memo.get(key)
        if hit is not None and time.monotonic() - hit[1] < _max_age():
            return hit[0]
    return None


def standings(event: Event, version: Version, round: Round | None = None) -> list[StandingRow]:
    """``compute_standings(event, round)`` for this version: computed once per version, per process or,
    with the shared cache on, once for every process."""
    from tournament.standings import StandingRow, compute_standings

    key = ("standings", version, round.pk if round is not None else None)

    def build() -> list[StandingRow]:
        shared = getattr(settings, "STANDINGS_SHARED_CACHE", False)
        cache_key = f"standings:{version.event_id}:{version.created}:{version.change}:{key[2]}"
        if shared:
            try:
                stored = cache.get(cache_key)
            except Exception:  # noqa: BLE001 - a cache that is down only costs time
                logger.warning("standings cache unavailable", exc_info=True)
                stored, shared = None, False
            if stored is not None:
                return [StandingRow(*values) for values in stored]
        rows = compute_standings(event, round=round)
        if shared:
            try:
                cache.set(cache_key, [_row_values(r) for r in rows], timeout=_max_age())
            except Exception:  # noqa: BLE001
                logger.warning("standings cache unavailable", exc_info=True)
        return rows

    return memo(key, build)


def _row_values(row: StandingRow) -> tuple:
    return (row.player_id, row.display_name, row.points_won, row.games_won, row.hands_won, row.points_left,
            row.status, row.rank)
