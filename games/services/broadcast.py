"""Telling a table's sockets that the game changed, after the change is committed.

The channel-layer message is "changed, version N"; each consumer builds what its own viewer may see
(`games.services.snapshots`). Across processes (Redis) the change itself goes with it, for the workers
that did not make it: it holds hidden cards, so production encrypts the layer (CHANNEL_LAYER_KEY, which
`manage.py check --deploy` requires with Redis: games.E001), and consumers never forward it.

Database work called from an event loop (a socket's move, the sweeper: `games.db_threads.run`) runs
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
from collections.abc import Callable

from asgiref.sync import async_to_sync
from channels.layers import InMemoryChannelLayer, get_channel_layer
from django.db import transaction

from config.group_notices import through_loop

logger = logging.getLogger(__name__)

GAME_CHANGED = "game.changed"  # dispatched to GameConsumer.game_changed

_current = threading.local()  # .announcer: the Announcer of the database call running in this thread


def table_group_name(live_game_id: int) -> str:
    return f"live-game-{live_game_id}"


def current_loop() -> asyncio.AbstractEventLoop | None:
    """The event loop the database call running in this thread publishes from (None outside one)."""
    announcer = getattr(_current, "announcer", None)
    return announcer.loop if announcer is not None else None


def carries_changes() -> bool:
    """Whether signals carry the change itself (`games.services.change_messages`): when the channel layer
    crosses processes (Redis), so that the other workers need not read each change back from the
    database. Channels' in-memory layer serves one process, which cached the change when it made it (and
    that layer deep-copies every message for every socket)."""
    layer = get_channel_layer()
    return layer is not None and not isinstance(layer, InMemoryChannelLayer)


def announce_on_commit(live_game_id: int, version: int, change: Callable[[], dict] | None = None) -> None:
    """Send "changed, version N" to the table's group once the current transaction commits; with
    `change` (called only if needed) the change itself travels with it (`carries_changes`)."""
    message = changed_message(version, change)
    announcer = getattr(_current, "announcer", None)
    if announcer is not None:
        transaction.on_commit(lambda: announcer.committed(live_game_id, message))
    else:
        transaction.on_commit(lambda: _send(live_game_id, message))


def changed_message(version: int, change: Callable[[], dict] | None = None) -> dict:
    """The group message "changed, version N", with the change itself when it must travel (`carries_changes`)."""
    message = {"type": GAME_CHANGED, "version": version}
    if change is not None and carries_changes():
        message["change"] = change()
    return message


def _send(live_game_id: int, message: dict) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(table_group_name(live_game_id), message)
    except Exception:  # noqa: BLE001 - the move is stored; clients resync on the next change or reconnect
        logger.exception("could not announce version %s of live game %s", message["version"], live_game_id)


async def publish(live_game_id: int, message: dict) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        await layer.group_send(table_group_name(live_game_id), message)
    except Exception:  # noqa: BLE001 - the move is stored; clients resync on the next change or reconnect
        logger.exception("could not announce version %s of live game %s", message["version"], live_game_id)


class Announcer:
    """The signals committed by sync code running in another thread on behalf of one event loop: each is
    published from that loop as soon as its transaction commits."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.tasks: list[asyncio.Task] = []

    def wrap(self, func):
        """`func` running with this announcer in charge of its thread's signals, and the other notices its
        commits send (an event's scores changed, a bot's stream) handed to the same loop without waiting
        for them (`config.group_notices.through_loop`): through `async_to_sync` the database thread
        waited for the busy loop to send each one, tens of milliseconds at the end of a hand."""
        @functools.wraps(func)
        def call(*args, **kwargs):
            _current.announcer = self
            try:
                with through_loop(self.loop):
                    return func(*args, **kwargs)
            finally:
                _current.announcer = None
        return call

    def committed(self, live_game_id: int, message: dict) -> None:  # in the database thread
        try:
            self.loop.call_soon_threadsafe(self._start, live_game_id, message)
        except RuntimeError:  # the loop is gone (shutting down): send from here
            _send(live_game_id, message)

    def _start(self, live_game_id: int, message: dict) -> None:
        self.tasks.append(self.loop.create_task(publish(live_game_id, message)))

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
