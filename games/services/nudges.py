"""Nudging whoever watches a live table from outside it (the organizer's live round view): after a change
commits, or a player arrives or leaves, the group named in `LiveGame.watch_group` gets a tiny
``{"type": "table.changed", "live_id": N}``, at most once a second per group and process, with the last
one never dropped (a nudge that falls inside the second is sent when the second is over).

The watchers re-read what they show themselves: no state travels in the nudge, and nothing is added to
the move's transaction (the group name is a column of the row the move already holds).
"""

from __future__ import annotations

import asyncio
import logging
import time
import weakref

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import transaction

logger = logging.getLogger(__name__)

TABLE_CHANGED = "table.changed"
DEFAULT_MIN_INTERVAL = 1.0

# Per event loop: group → when it was last nudged, and the groups with a nudge scheduled.
_state: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def min_interval() -> float:
    return float(getattr(settings, "LIVE_WATCH_NUDGE_SECONDS", DEFAULT_MIN_INTERVAL))


def nudge_on_commit(group: str, live_game_id: int) -> None:
    """Nudge `group` once the current transaction commits: from the event loop that runs this database
    call (`games.database_calls`), throttled there; elsewhere (an organizer's view) at once."""
    if not group:
        return
    from games.services.broadcast import current_loop

    loop = current_loop()
    if loop is not None:
        transaction.on_commit(lambda: _hand_over(loop, group, live_game_id))
    else:
        transaction.on_commit(lambda: _send_now(group, live_game_id))


def _hand_over(loop: asyncio.AbstractEventLoop, group: str, live_game_id: int) -> None:
    try:
        loop.call_soon_threadsafe(nudge_soon, group, live_game_id)
    except RuntimeError:  # the loop is gone
        _send_now(group, live_game_id)


def nudge_soon(group: str, live_game_id: int) -> None:
    """In the event loop: nudge `group` now, or when its second is over if it was nudged less than a
    second ago (one nudge however many changes fall inside the second)."""
    if not group:
        return
    loop = asyncio.get_running_loop()
    last, pending = _state.setdefault(loop, ({}, set()))
    if group in pending:
        return
    pending.add(group)
    wait = max(0.0, last.get(group, float("-inf")) + min_interval() - time.monotonic())
    loop.call_later(wait, lambda: loop.create_task(_publish(group, live_game_id, last, pending)))


async def _publish(group: str, live_game_id: int, last: dict, pending: set) -> None:
    pending.discard(group)
    last[group] = time.monotonic()
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        await layer.group_send(group, {"type": TABLE_CHANGED, "live_id": live_game_id})
    except Exception:  # noqa: BLE001 - a hint only: the watcher catches up with the next change
        logger.warning("could not nudge %s", group, exc_info=True)


def _send_now(group: str, live_game_id: int) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(group, {"type": TABLE_CHANGED, "live_id": live_game_id})
    except Exception:  # noqa: BLE001 - a hint only
        logger.warning("could not nudge %s", group, exc_info=True)
