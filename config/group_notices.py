"""Telling open pages and sockets through the channel layer once a change is stored: every app's "tell the
sockets" (a revoked token's sockets, an event's pages, a bot's stream, an announcement) goes through here.

A message is sent only after the current transaction commits (at once outside one), so no socket hears of a
change that is then rolled back; one that cannot be sent (Redis down, say) is logged and never raised, as the
change is stored and a reload or a reconnect shows it. The live tables' own broadcast
(`games.services.broadcast`) is apart: it carries the change itself and may run on the event loop.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

logger = logging.getLogger(__name__)


def send_after_commit(messages: Iterable[tuple[str, dict]], *, what: str) -> None:
    """Send each (group, message) once the current transaction commits; `what` names them in the log."""
    pending = list(messages)
    if pending:
        transaction.on_commit(lambda: send_now(pending, what=what))


def send_now(messages: Iterable[tuple[str, dict]], *, what: str) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    for group, message in messages:
        try:
            async_to_sync(layer.group_send)(group, message)
        except Exception:  # noqa: BLE001 - the change is stored: the page or socket learns it on reload
            logger.warning("could not send %s to group %s", what, group, exc_info=True)
