"""Changes whose broadcast never came, found within about a second.

A move is stored before it is broadcast, so a worker that dies between its commit and its
"changed, version N" message, or a channel layer (Redis) that loses the message, leaves the table's
other sockets behind with nothing to wake them. Each process therefore reads, every
`LIVE_MISSED_CHANGE_SECONDS` (default 0.5 s), the stored version of every table it holds sockets at: one
query for all of them. A socket still behind a change stored more than `GRACE` ago (a broadcast
normally arrives within milliseconds) is sent what it missed, exactly as for a broadcast.
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from datetime import timedelta

from django.conf import settings
from django.db import DatabaseError, InterfaceError
from django.utils import timezone

from games import db_threads
from games.models import LiveGame

logger = logging.getLogger(__name__)

DEFAULT_CHECK_SECONDS = 0.5
GRACE = timedelta(seconds=0.3)

# Per event loop: live game id -> the sockets (consumers) open at it in this process.
_sockets: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_tasks: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


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
    """{live game id: (version, when its row was last saved)} for the given tables, in one query."""
    rows = LiveGame.objects.filter(pk__in=live_ids).values_list("pk", "version", "updated_at")
    return {pk: (version, saved) for pk, version, saved in rows}


async def check_once(tables: dict[int, weakref.WeakSet]) -> int:
    """Send every socket that missed a change what it missed; returns how many sockets were behind."""
    live_ids = [pk for pk, sockets in list(tables.items()) if sockets]
    if not live_ids:
        return 0
    stored = await db_threads.run(stored_versions, live_ids)
    settled = timezone.now() - GRACE
    behind = []
    for pk in live_ids:
        version, saved = stored.get(pk, (0, None))
        if saved is None or saved > settled:
            continue  # its broadcast may still be on its way
        behind += [(socket, version) for socket in list(tables.get(pk, ())) if socket.sent_version < version]
    for socket, version in behind:
        await socket.game_changed({"version": version})
    return len(behind)


async def check_forever(tables: dict[int, weakref.WeakSet]) -> None:
    while True:
        await asyncio.sleep(check_seconds())
        try:
            await check_once(tables)
        except asyncio.CancelledError:
            raise
        except (DatabaseError, InterfaceError):  # the database restarting: the next check tries again
            logger.warning("could not check the tables' stored versions", exc_info=True)
        except Exception:  # noqa: BLE001 - a bug must not stop the checks
            logger.exception("checking for missed changes failed")
