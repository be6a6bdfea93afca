"""Standings and rendered public pages kept per event and *scores version*, so that a page read by many
people at once is computed once per change instead of once per reader.

The version of an event is the id of its latest ``StandingsChange`` row, written by ``record_change``:
inside the writer's transaction (so the writer's own connection, and a test, sees it at once) and again
just after it commits (ids are handed out before commit, so a row of a transaction that commits late
could otherwise carry a smaller id than one a reader has already seen). Every worker process, on every
machine, reads the version from the database; anything computed is stored under the version it was
computed for and is never served for another one.

Reading the version is one small indexed query, made with the event's own (``public_event``).
``tournament.public_pages`` reads it again only when the version it knows is
``STANDINGS_VERSION_CHECK_SECONDS`` (default 1 s) old or a change was made or heard of since in this
process (the live leaderboard's "scores changed" message): a page served by another process than the
one that recorded the change is at most that many seconds behind. Entries also expire after
``STANDINGS_CACHE_SECONDS`` (default 60 s), for changes made outside the services (a row edited in the
database by hand).

Computed standings (and big brackets' rendered pages, ``shared``) go through Django's cache as well when
``STANDINGS_SHARED_CACHE`` is on (with ``REDIS_URL``, see config/settings.py): one worker builds a
version's value for all, under a short lock in the cache so that two workers do not build it at once;
rendered HTML is also kept in the process (a small LRU), where serving it costs no I/O at all.

**Shown version of a big event.** While a big event plays, its version moves many times a second, and
rebuilding its pages for every version cost each worker a fraction of a CPU second per page per version
(docs/performance.md, "Pages"). So pages of an event with at least ``STANDINGS_SETTLE_MIN_PLAYERS``
players (default 1,000; smaller events are cheap to rebuild and keep the exact behaviour) show the
version *published* in the shared cache, which moves to the database's version at most every
``STANDINGS_SETTLE_SECONDS`` (default 2 s, whole seconds with Redis): a reader of such a page sees scores
at most that much (plus ``STANDINGS_VERSION_CHECK_SECONDS``) behind, every worker reads the same
version and so shares its builds, and a page is rebuilt at most once per period, whatever the rate of
hands. The live leaderboard socket (``current_version``) is not held back.
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
SHARED_POLL_SECONDS = 0.05
SIZE_KEY_SECONDS = 24 * 3600


def _check_seconds() -> float:
    return float(getattr(settings, "STANDINGS_VERSION_CHECK_SECONDS", 1.0))


def _max_age() -> float:
    return float(getattr(settings, "STANDINGS_CACHE_SECONDS", 60.0))


def _settle_seconds() -> float:
    return float(getattr(settings, "STANDINGS_SETTLE_SECONDS", 2.0))


def _settle_min_players() -> int:
    return int(getattr(settings, "STANDINGS_SETTLE_MIN_PLAYERS", 1000))


def _shared_on() -> bool:
    return bool(getattr(settings, "STANDINGS_SHARED_CACHE", False))


@dataclass(frozen=True)
class Version:
    """What cached values are keyed on. ``created`` tells apart two events that had the same id (a
    database restored, or test databases rolled back); ``change`` is the latest StandingsChange id."""

    event_id: int
    created: float
    change: int


_lock = threading.Lock()
_versions: dict[int, tuple[Version, float]] = {}  # event id -> (version pages show, checked at)
_dirty: set[int] = set()  # event ids whose version must be read again before the next use
_live: dict[int, tuple[Version, float]] = {}  # event id -> (newest version, checked at): the live socket's
_live_dirty: set[int] = set()
_memo: OrderedDict[tuple, tuple[Any, float]] = OrderedDict()
_building: dict[tuple, threading.Event] = {}  # keys a thread is computing now
_kept: dict[tuple[int, float], list[int]] = {}  # (event id, created) -> the (up to 2) version changes kept in _memo
_sizes: dict[tuple[int, float], int] = {}  # (event id, created) -> players, as last computed here


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
        _live_dirty.add(event_id)


def forget_version(event_id: int) -> None:
    """Read the version again before the next use (told by another process that scores changed)."""
    _mark_dirty(event_id)


def clear() -> None:
    """Drop everything this process keeps (tests)."""
    with _lock:
        _versions.clear()
        _dirty.clear()
        _live.clear()
        _live_dirty.clear()
        _memo.clear()
        _kept.clear()
        _sizes.clear()


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
    version = _version_of(event, _shown_change(event.pk, event.created_at.timestamp(), event.latest_change or 0))
    with _lock:
        _versions[event.pk] = (version, time.monotonic())
        _dirty.discard(event.pk)
    return event, version


def _event_key(event_id: int, created: float) -> str:
    return f"{event_id}:{created!r}"


def note_size(event: Event, players: int) -> None:
    """Say how many players ``event`` has (standings and bracket builds call it): from
    ``STANDINGS_SETTLE_MIN_PLAYERS`` on, its pages show a published version (see the module's docstring).
    Kept in the shared cache too, so that a worker that has built nothing for the event knows."""
    key = (event.pk, event.created_at.timestamp())
    with _lock:
        if _sizes.get(key) == players:
            return
        _sizes[key] = players
    try:
        cache.set(f"event-size:{_event_key(*key)}", players, timeout=SIZE_KEY_SECONDS)
    except Exception:  # noqa: BLE001 - a cache that is down only costs time
        logger.warning("standings cache unavailable", exc_info=True)


def _shown_change(event_id: int, created: float, change: int) -> int:
    """The version change pages of this event show: ``change`` (the database's), or for a big event the
    one published in the shared cache less than ``STANDINGS_SETTLE_SECONDS`` ago (published here when
    there is none). One cache round trip per version check."""
    seconds = _settle_seconds()
    if seconds <= 0 or not change:
        return change
    event = _event_key(event_id, created)
    shown_key, size_key = f"scores-shown:{event}", f"event-size:{event}"
    try:
        got = cache.get_many([shown_key, size_key])
        size = got.get(size_key)
        if size is None:
            with _lock:
                size = _sizes.get((event_id, created), 0)
        if size < _settle_min_players():
            return change
        shown = got.get(shown_key)
        if shown is None:
            if cache.add(shown_key, change, timeout=max(1, round(seconds))):  # Redis: whole seconds
                return change
            shown = cache.get(shown_key)  # another worker published first
    except Exception:  # noqa: BLE001 - a cache that is down: the exact version, as for a small event
        logger.warning("standings cache unavailable", exc_info=True)
        return change
    if shown is None or shown > change:  # expired meanwhile, or published from a later snapshot than ours
        return change
    return shown


def known_version(event_id: int) -> Version | None:
    """The version read less than ``STANDINGS_VERSION_CHECK_SECONDS`` ago with no change since, or None:
    no I/O (``tournament.public_pages``)."""
    with _lock:
        known = _versions.get(event_id)
        if known is not None and event_id not in _dirty and _fresh(known[1]):
            return known[0]
    return None


def heard_of_change(event_id: int) -> bool:
    """Whether a change of the event was made or heard of in this process since its version was read."""
    with _lock:
        return event_id in _dirty


def current_version(event: Event) -> Version:
    """The newest scores version of an event already loaded (the live leaderboard's consumer holds one):
    never held back like a big event's pages (``_shown_change``)."""
    from tournament.models import StandingsChange

    with _lock:
        known = _live.get(event.pk)
        if known is not None and event.pk not in _live_dirty and _fresh(known[1]):
            return known[0]
    change = StandingsChange.objects.filter(event_id=event.pk).order_by("-id").values_list("id", flat=True).first()
    version = _version_of(event, change)
    with _lock:
        _live[event.pk] = (version, time.monotonic())
        _live_dirty.discard(event.pk)
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
    """Whether to store a value under ``key``; an event's values are kept for its two newest versions
    only (caller holds ``_lock``).

    Versions only move forward, so a value kept for an older version is hardly ever asked for again;
    left in the LRU until pushed out, they piled up while scores changed (512 entries: about 100
    versions of a 10,000-player event's standings, bracket and pages, 600 MB in a worker), and every
    full garbage collection walked them all, holding up the worker's event loop (see
    docs/performance.md, "Pages"). Two, not one: a big event's pages show the published version
    (``_shown_change``) while its live socket reads the newest, in the same process. A value built for
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
    return ":".join([kind, _event_key(version.event_id, version.created), str(version.change), *map(str, parts)])


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
