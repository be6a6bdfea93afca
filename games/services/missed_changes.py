"""Changes whose broadcast never came, found within about a second.

A move is stored before it is broadcast, so a worker that dies between its commit and its
"changed, version N" message, or a channel layer (Redis) that loses the message, leaves the table's
other sockets behind with nothing to wake them. Each process therefore reads, every
`LIVE_MISSED_CHANGE_SECONDS` (default 0.5 s), the stored version of every table it holds sockets at: one
query for all of them. A socket still behind a change stored more than `GRACE` ago (a broadcast
normally arrives within milliseconds; a loaded worker's event loop that runs late adds a margin: `grace`)
is sent what it missed, exactly as for a broadcast.

A socket's `ping` (every 20 s from the table page) asks for its table's stored version too
(`games.services.resync`): it waits for this process's next check (`next_reading`) instead of reading it
itself, so 5,000 open pages cost one query per worker every half second, not 250 queries a second.
"""

from __future__ import annotations

import asyncio
import collections
import logging
import weakref
from datetime import timedelta

from django.conf import settings
from django.db import DatabaseError, InterfaceError, connection
from django.utils import timezone

from games import db_threads
from games.models import LiveGame

logger = logging.getLogger(__name__)

DEFAULT_CHECK_SECONDS = 0.5
GRACE = timedelta(seconds=0.3)
LATE_FACTOR = 3  # `grace`: a loop running late holds the queued broadcasts back about this many times as long
LATE_CHECKS = 5

# Per event loop: live game id -> the sockets (consumers) open at it in this process.
_sockets: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_tasks: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
# Per event loop: what the pings waiting for the next check are given (its {live id: (version, saved)}).
_readings: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
UNREAD = object()  # `next_reading`: no check could answer (checks off or rare, or none came in time)
UNREACHABLE = object()  # `next_reading`: the check could not read the database (it is down or restarting)
PING_WAIT = 1.0  # checks further apart than this (seconds) are not waited for: the ping reads itself


def check_seconds() -> float:
    return float(getattr(settings, "LIVE_MISSED_CHANGE_SECONDS", DEFAULT_CHECK_SECONDS))


def watch(consumer) -> None:
    """Look after `consumer` (a table socket with `live_id`, `sent_version` and `game_changed`) from now
    on; starts this event loop's check once (call from the consumer's connect)."""
    if check_seconds() <= 0:
        return
    loop = asyncio.get_running_loop()
    tables = _sockets.setdefault(loop, {})
    tables.setdefault(consumer.live_id, weakref.WeakSet()).add(consumer)
    task = _tasks.get(loop)
    if task is None or task.done():
        _tasks[loop] = loop.create_task(check_forever(tables), name="live-missed-changes")


def unwatch(consumer) -> None:
    try:
        tables = _sockets.get(asyncio.get_running_loop(), {})
    except RuntimeError:  # no loop: nothing was watched from here
        return
    sockets = tables.get(consumer.live_id)
    if sockets is not None:
        sockets.discard(consumer)
        if not sockets:
            tables.pop(consumer.live_id, None)


def stored_versions(live_ids: list[int]) -> dict[int, tuple[int, object]]:
    """{live game id: (version, when its row was last saved)} for the given tables, in one query.

    On PostgreSQL the ids go as one array parameter (`id = ANY(%s)`), not as the ORM's `IN (%s, %s, ...)`:
    a worker checks hundreds of tables twice a second, and psycopg rewrites the placeholders of a query
    that long afresh on every call (a tenth of a loaded worker's time at 500 tables); this query's text
    is the same every time."""
    if connection.vendor != "postgresql":
        rows = LiveGame.objects.filter(pk__in=live_ids).values_list("pk", "version", "updated_at")
        return {pk: (version, saved) for pk, version, saved in rows}
    table = connection.ops.quote_name(LiveGame._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT id, version, updated_at FROM {table} WHERE id = ANY(%s)", [list(live_ids)])
        return {pk: (version, saved) for pk, version, saved in cursor.fetchall()}


async def next_reading(live_id: int) -> int | None | object:
    """Table `live_id`'s stored version as this process's next check reads it (within `check_seconds()`),
    for a socket that holds a seat or watches there; None if the check found no such table, `UNREACHABLE`
    if it could not read the database, `UNREAD` if no check runs here often enough (then the caller reads
    it itself)."""
    seconds = check_seconds()
    loop = asyncio.get_running_loop()
    task = _tasks.get(loop)
    if not 0 < seconds <= PING_WAIT or task is None or task.done():
        return UNREAD
    reading = _readings.get(loop)
    if reading is None or reading.done():
        reading = _readings[loop] = loop.create_future()
    try:
        async with asyncio.timeout(seconds + 2):  # a check stuck on the database: the ping reads itself
            stored = await asyncio.shield(reading)
    except TimeoutError:
        return UNREAD
    if stored is None:
        return UNREACHABLE
    found = stored.get(live_id)
    return None if found is None else found[0]


async def check_once(tables: dict[int, weakref.WeakSet], late: float = 0.0) -> int:
    """Send every socket that missed a change what it missed; returns how many sockets were behind.
    The pings waiting for a reading (`next_reading`) are given this one (None if it failed).

    A socket whose client has just gone (its send raises) is passed over: the others behind are still
    sent what they missed."""
    reading = _readings.pop(asyncio.get_running_loop(), None)  # a ping from now on waits for the next
    stored: dict[int, tuple[int, object]] | None = None
    try:
        live_ids = [pk for pk, sockets in list(tables.items()) if sockets]
        if not live_ids:
            stored = {}
            return 0
        stored = await db_threads.run(stored_versions, live_ids)
    finally:
        if reading is not None and not reading.done():
            reading.set_result(stored)
    settled = timezone.now() - grace(late)
    behind = []
    for pk in live_ids:
        version, saved = stored.get(pk, (0, None))
        if saved is None or saved > settled:
            continue  # its broadcast may still be on its way
        behind += [(socket, version) for socket in list(tables.get(pk, ())) if socket.sent_version < version]
    for socket, version in behind:
        try:
            await socket.game_changed({"version": version})
        except asyncio.CancelledError:
            raise
        except Exception:  # noqa: BLE001 - one socket's fault (its client gone, a bug) is not the others'
            logger.info("could not catch up a socket at live game %s", getattr(socket, "live_id", "?"),
                        exc_info=True)
    return len(behind)


def grace(late: float) -> timedelta:
    """How long ago a change must have been stored for a socket still behind it to count as having missed
    its broadcast: `GRACE`, plus `LATE_FACTOR` times how late this process's event loop is running (its
    check woke `late` seconds after it asked to, at most of the last `LATE_CHECKS` checks). A loaded worker
    handles the broadcasts waiting in its sockets' queues that much later: read as missed, each would be
    loaded again from the database, more load on a worker that is already behind."""
    return GRACE + timedelta(seconds=LATE_FACTOR * max(0.0, late))


async def check_forever(tables: dict[int, weakref.WeakSet]) -> None:
    loop = asyncio.get_running_loop()
    lateness: collections.deque[float] = collections.deque(maxlen=LATE_CHECKS)
    while True:
        asked = check_seconds()
        started = loop.time()
        await asyncio.sleep(asked)
        lateness.append(loop.time() - started - asked)
        try:
            await check_once(tables, max(lateness))
        except asyncio.CancelledError:
            raise
        except (DatabaseError, InterfaceError):  # the database restarting: the next check tries again
            logger.warning("could not check the tables' stored versions", exc_info=True)
        except Exception:  # noqa: BLE001 - a bug must not stop the checks
            logger.exception("checking for missed changes failed")
