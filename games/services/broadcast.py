"""Telling a table's sockets that the game changed, after the change is committed.

The channel-layer message is only "changed, version N": no card ever travels through the layer. Each
consumer then builds what its own viewer may see (`games.services.snapshots`).

Database work called from an event loop (a socket's move, the sweeper: `games.database_calls.run`) runs
under an `Announcer`: each commit's signal is handed to that loop and published there with the loop's
own channel-layer connection. Elsewhere (a view, a shell, a test calling a service directly) the signal
is sent with `async_to_sync`, which in a plain thread starts an event loop for the call.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import threading

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

logger = logging.getLogger(__name__)

GAME_CHANGED = "game.changed"  # dispatched to GameConsumer.game_changed

_current = threading.local()  # .announcer: the Announcer of the database call running in this thread


def table_group_name(live_game_id: int) -> str:
    return f"live-game-{live_game_id}"


def announce_on_commit(live_game_id: int, version: int) -> None:
    """Send "changed, version N" to the table's group once the current transaction commits."""
    announcer = getattr(_current, "announcer", None)
    if announcer is not None:
        transaction.on_commit(lambda: announcer.committed(live_game_id, version))
    else:
        transaction.on_commit(lambda: _send(live_game_id, version))


def _send(live_game_id: int, version: int) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(table_group_name(live_game_id),
                                        {"type": GAME_CHANGED, "version": version})
    except Exception:  # noqa: BLE001 - the move is stored; clients resync on the next change or reconnect
        logger.exception("could not announce version %s of live game %s", version, live_game_id)


async def publish(live_game_id: int, version: int) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        await layer.group_send(table_group_name(live_game_id), {"type": GAME_CHANGED, "version": version})
    except Exception:  # noqa: BLE001 - the move is stored; clients resync on the next change or reconnect
        logger.exception("could not announce version %s of live game %s", version, live_game_id)


class Announcer:
    """The signals committed by sync code running in another thread on behalf of one event loop: each is
    published from that loop as soon as its transaction commits."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.tasks: list[asyncio.Task] = []

    def wrap(self, func):
        """`func` running with this announcer in charge of its thread's signals."""
        @functools.wraps(func)
        def call(*args, **kwargs):
            _current.announcer = self
            try:
                return func(*args, **kwargs)
            finally:
                _current.announcer = None
        return call

    def committed(self, live_game_id: int, version: int) -> None:  # in the database thread
        try:
            self.loop.call_soon_threadsafe(self._start, live_game_id, version)
        except RuntimeError:  # the loop is gone (shutting down): send from here
            _send(live_game_id, version)

    def _start(self, live_game_id: int, version: int) -> None:
        self.tasks.append(self.loop.create_task(publish(live_game_id, version)))

    async def sent(self) -> None:
        await asyncio.sleep(0)  # a signal handed over just before the call returned is started first
        while self.tasks:
            await self.tasks.pop(0)


@contextlib.asynccontextmanager
async def announcing():
    """An `Announcer` for this event loop; on leaving, every signal it was handed has been sent."""
    announcer = Announcer(asyncio.get_running_loop())
    try:
        yield announcer
    finally:
        await announcer.sent()
