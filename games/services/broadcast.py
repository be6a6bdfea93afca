"""Telling a table's sockets that the game changed, after the change is committed.

The channel-layer message is only "changed, version N": no card ever travels through the layer. Each
consumer then builds what its own viewer may see (`games.services.snapshots`).
"""

from __future__ import annotations

import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

logger = logging.getLogger(__name__)

GAME_CHANGED = "game.changed"  # dispatched to GameConsumer.game_changed


def table_group_name(live_game_id: int) -> str:
    return f"live-game-{live_game_id}"


def announce_on_commit(live_game_id: int, version: int) -> None:
    """Send "changed, version N" to the table's group once the current transaction commits."""
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
