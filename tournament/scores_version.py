"""The *scores version* of an event: what its standings and rendered public pages are cached under
(``tournament.standings_cache``), so that a page read by many people at once is computed once per change
instead of once per reader.

The version of an event is the id of its latest ``StandingsChange`` row, written by ``record_change``:
inside the writer's transaction (so the writer's own connection, and a test, sees it at once) and again
just after it commits (ids are handed out before commit, so a row of a transaction that commits late
could otherwise carry a smaller id than one a reader has already seen). Every worker process, on every
machine, reads the version from the database; anything computed is stored under the version it was
computed for and is never served for another one.

Reading the version is one small indexed query, made with the event's own (``public_event``).
``tournament.public_pages`` reads it again only when the version it knows is
``STANDINGS_VERSION_CHECK_SECONDS`` (default 1 s) old or a change was made or heard of since in this
process (``heard_of_change``; the live leaderboard's "scores changed" message calls ``forget_version``):
a page served by another process than the one that recorded the change is at most that many seconds
behind.

**Shown version of a big event.** While a big event plays, its version moves many times a second, and
rebuilding its pages for every version cost each worker a fraction of a CPU second per page per version
(docs/performance.md, "Pages"). So pages of an event with at least ``STANDINGS_SETTLE_MIN_PLAYERS``
players (default 1,000; smaller events are cheap to rebuild and keep the exact behaviour) show the
version *published* in Django's cache, which moves to the database's version at most every
``STANDINGS_SETTLE_SECONDS`` (default 2 s, whole seconds with Redis): a reader of such a page sees scores
at most that much (plus ``STANDINGS_VERSION_CHECK_SECONDS``) behind, every worker reads the same
version and so shares its builds, and a page is rebuilt at most once per period, whatever the rate of
hands. The live leaderboard socket (``current_version``) is not held back.

What a process remembers of versions is in cachetools caches (bounded, entries expiring
``STANDINGS_VERSION_CHECK_SECONDS`` after they were read; a change made or heard of here deletes the
event's entries), and the published version and an event's size are in Django's cache. Written here by
hand is only what is ours: the ``StandingsChange`` rows and which version a big event shows.
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING

from cachetools import LRUCache, TLRUCache
from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.db.models import OuterRef, Subquery

if TYPE_CHECKING:
    from tournament.models import Event

logger = logging.getLogger(__name__)

PRUNE_EVERY = 64  # on-commit rows: one in this many deletes the event's old rows
KEEP_ROWS = 16  # rows below the newest that a prune leaves (a reader may still be reading one)
EVENTS = 1024  # events remembered per process (events, not readers: a handful at a time in practice)
SIZE_KEY_SECONDS = 24 * 3600  # an event's size in Django's cache (workers that have built nothing for it)


@dataclass(frozen=True)
class Version:
    """What cached values are keyed on. ``created`` tells apart two events that had the same id (a
    database restored, or test databases rolled back); ``change`` is the latest StandingsChange id."""

    event_id: int
    created: float
    change: int


def _until_next_check(_key, _value, now: float) -> float:
    return now + float(settings.STANDINGS_VERSION_CHECK_SECONDS)


# cachetools' caches are not thread-safe, and page requests and sockets read them from several threads.
_lock = threading.Lock()
# event id -> the Version its pages show, as ``public_event`` last read it (deleted on a change)
_shown: TLRUCache[int, Version] = TLRUCache(EVENTS, _until_next_check)
# event id -> its newest Version, as ``current_version`` (the live socket) last read it (deleted on a change)
_newest: TLRUCache[int, Version] = TLRUCache(EVENTS, _until_next_check)
# (event id, created) -> its players, as last noted here (``note_size`` writes the cache only when it moves)
_sizes: LRUCache[tuple[int, float], int] = LRUCache(EVENTS)


# ---- writing: a change happened --------------------------------------------------------------------


def record_change(event_id: int) -> None:
    """Say that what ``event_id``'s leaderboard or bracket shows has changed (call it where the change is
    saved, inside its transaction if there is one)."""
    from tournament.models import StandingsChange

    StandingsChange.objects.create(event_id=event_id)
    forget_version(event_id)
    transaction.on_commit(lambda: _after_commit(event_id))


def _after_commit(event_id: int) -> None:
    from tournament.models import StandingsChange

    try:
        row = StandingsChange.objects.create(event_id=event_id)
        if row.pk % PRUNE_EVERY == 0:
            StandingsChange.objects.filter(event_id=event_id, id__lt=row.pk - KEEP_ROWS).delete()
    except Exception:  # noqa: BLE001 - the change is saved; pages catch up within STANDINGS_CACHE_SECONDS
        logger.exception("could not record the scores version of event %s after commit", event_id)
    forget_version(event_id)


def forget_version(event_id: int) -> None:
    """Read the version again before the next use (a change made here, or told by another process that
    scores changed)."""
    with _lock:
        _shown.pop(event_id, None)
        _newest.pop(event_id, None)


def clear() -> None:
    """Forget every version and size this process knows (tests)."""
    with _lock:
        _shown.clear()
        _newest.clear()
        _sizes.clear()


# ---- reading: the event and its version -------------------------------------------------------------


def _latest_change():
    from tournament.models import StandingsChange

    return Subquery(StandingsChange.objects.filter(event_id=OuterRef("pk")).order_by("-id").values("id")[:1])


def _version_of(event, change: int | None) -> Version:
    return Version(event.pk, event.created_at.timestamp(), change or 0)


def public_event(slug: str) -> tuple[Event | None, Version | None]:
    """The public (not draft) event with this slug and the scores version its pages show, in one query
    (the version check a cached page costs)."""
    from tournament.models import Event

    event = (Event.objects.exclude(status=Event.Status.DRAFT).filter(slug=slug)
             .annotate(latest_change=_latest_change()).first())
    if event is None:
        return None, None
    version = _version_of(event, _shown_change(event.pk, event.created_at.timestamp(), event.latest_change or 0))
    with _lock:
        _shown[event.pk] = version
    return event, version


def heard_of_change(event_id: int) -> bool:
    """Whether the event's version must be read again: a change of the event was made or heard of in
    this process since ``public_event`` read it, or that was ``STANDINGS_VERSION_CHECK_SECONDS`` ago."""
    with _lock:
        return event_id not in _shown


def current_version(event: Event) -> Version:
    """The newest scores version of an event already loaded (the live leaderboard's consumer holds one),
    read at most every ``STANDINGS_VERSION_CHECK_SECONDS`` unless a change was made or heard of here:
    never held back like a big event's pages (``_shown_change``)."""
    from tournament.models import StandingsChange

    with _lock:
        known = _newest.get(event.pk)
    if known is not None and known.created == event.created_at.timestamp():  # not an event gone since
        return known
    change = StandingsChange.objects.filter(event_id=event.pk).order_by("-id").values_list("id", flat=True).first()
    version = _version_of(event, change)
    with _lock:
        _newest[event.pk] = version
    return version


def event_key(event_id: int, created: float) -> str:
    """The event in the names of Django's cache keys (``created`` as in ``Version``)."""
    return f"{event_id}:{created!r}"


def note_size(event: Event, players: int) -> None:
    """Say how many players ``event`` has (standings and bracket builds call it): from
    ``STANDINGS_SETTLE_MIN_PLAYERS`` on, its pages show a published version (see the module's docstring).
    Kept in Django's cache too, so that a worker that has built nothing for the event knows."""
    key = (event.pk, event.created_at.timestamp())
    with _lock:
        if _sizes.get(key) == players:
            return
        _sizes[key] = players
    try:
        cache.set(f"event-size:{event_key(*key)}", players, timeout=SIZE_KEY_SECONDS)
    except Exception:  # noqa: BLE001 - a cache that is down only costs time
        logger.warning("standings cache unavailable", exc_info=True)


def _shown_change(event_id: int, created: float, change: int) -> int:
    """The version change pages of this event show: ``change`` (the database's), or for a big event the
    one published in Django's cache less than ``STANDINGS_SETTLE_SECONDS`` ago (published here when
    there is none: ``cache.add``, so the first worker's wins). One cache round trip per version check."""
    seconds = float(settings.STANDINGS_SETTLE_SECONDS)
    if seconds <= 0 or not change:
        return change
    event = event_key(event_id, created)
    shown_key, size_key = f"scores-shown:{event}", f"event-size:{event}"
    try:
        got = cache.get_many([shown_key, size_key])
        size = got.get(size_key)
        if size is None:
            with _lock:
                size = _sizes.get((event_id, created), 0)
        if size < settings.STANDINGS_SETTLE_MIN_PLAYERS:
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
