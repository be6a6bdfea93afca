"""Telling open pages and sockets through the channel layer once a change is stored: every app's "tell the
sockets" (a revoked token's sockets, an event's pages, a bot's stream, an announcement) goes through here.

A message is sent only after the current transaction commits (at once outside one), so no socket hears of a
change that is then rolled back; one that cannot be sent (Redis down, say) is logged and never raised, as the
change is stored and a reload or a reconnect shows it. The live tables' own broadcast
(`games.services.broadcast`) is apart: it carries the change itself and may run on the event loop.

A thread that works for a server's event loop without being awaited by it (`games.db_threads.in_background`)
sends through that loop (`through_loop`): handed over, not waited for. Elsewhere `async_to_sync` sends,
which in a plain thread starts an event loop for each call, with a channel-layer connection of its own and
a look through every task of the process when it closes: in a worker holding a thousand sockets, tens of
milliseconds of its time per notice.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
from collections.abc import Iterable, Iterator

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

logger = logging.getLogger(__name__)
_thread = threading.local()  # .loop: the event loop this thread's notices go through (`through_loop`)


@contextlib.contextmanager
def through_loop(loop: asyncio.AbstractEventLoop | None) -> Iterator[None]:
    """Inside, this thread's notices are handed to `loop` (running in another thread) and sent there,
    without waiting for them; a loop that has stopped or closed meanwhile is passed by, as outside."""
    before = getattr(_thread, "loop", None)
    _thread.loop = loop
    try:
        yield
    finally:
        _thread.loop = before


def send_after_commit(messages: Iterable[tuple[str, dict]], *, what: str) -> None:
    """Send each (group, message) once the current transaction commits; `what` names them in the log."""
    pending = list(messages)
    if pending:
        transaction.on_commit(lambda: send_now(pending, what=what))


def send_now(messages: Iterable[tuple[str, dict]], *, what: str) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    pending = list(messages)
    loop = getattr(_thread, "loop", None)
    if loop is not None and loop.is_running():
        sending = _send_all(layer, pending, what)
        try:
            asyncio.run_coroutine_threadsafe(sending, loop)
            return
        except RuntimeError:  # closed just now: sent from this thread instead
            sending.close()
    for group, message in pending:
        try:
            async_to_sync(layer.group_send)(group, message)
        except Exception:  # noqa: BLE001 - the change is stored: the page or socket learns it on reload
            logger.warning("could not send %s to group %s", what, group, exc_info=True)


async def _send_all(layer, messages: list[tuple[str, dict]], what: str) -> None:
    for group, message in messages:
        try:
            await layer.group_send(group, message)
        except Exception:  # noqa: BLE001 - as `send_now`
            logger.warning("could not send %s to group %s", what, group, exc_info=True)
