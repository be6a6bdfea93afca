"""Websocket consumer of the live leaderboard (``ws/events/<slug>/``).

Anyone may watch a public event (no login): the consumer joins the event's group, sends the current
leaderboard, and sends it again whenever ``tournament.live.notify_scores_changed`` says scores changed
or the client asks with ``{"type": "refresh"}``. Rows are built on the server from the database and hold
public data only. Every incoming message is checked: anything but a small ``{"type": "refresh"}`` gets an
error message and changes nothing.
"""

from __future__ import annotations

import json
import time

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer

from tournament.live import event_group_name

MAX_MESSAGE_BYTES = 256
MIN_SECONDS_BETWEEN_REFRESHES = 1.0
CLOSE_NO_SUCH_EVENT = 4404


@database_sync_to_async
def load_public_event(slug: str):
    from tournament.models import Event

    return Event.objects.exclude(status=Event.Status.DRAFT).filter(slug=slug).first()


@database_sync_to_async
def leaderboard_rows(event) -> list[dict]:
    from tournament.standings import compute_standings

    return [row.as_public_dict() for row in compute_standings(event)]


class LeaderboardConsumer(AsyncJsonWebsocketConsumer):
    event = None
    group_name: str | None = None
    last_refresh: float = 0.0

    async def connect(self) -> None:
        self.event = await load_public_event(self.scope["url_route"]["kwargs"]["slug"])
        if self.event is None:
            await self.close(code=CLOSE_NO_SUCH_EVENT)
            return
        self.group_name = event_group_name(self.event.pk)
        await self.channel_layer.group_add(self.group_name, self.channel_name)
        await self.accept()
        await self.send_leaderboard()

    async def disconnect(self, code) -> None:
        if self.group_name:
            await self.channel_layer.group_discard(self.group_name, self.channel_name)

    async def receive(self, text_data=None, bytes_data=None) -> None:
        if text_data is None:
            await self.send_error("send JSON text, not binary data")
            return
        if len(text_data.encode()) > MAX_MESSAGE_BYTES:
            await self.send_error(f"message too large (limit {MAX_MESSAGE_BYTES} bytes)")
            return
        try:
            content = json.loads(text_data)
        except ValueError:
            await self.send_error("message is not valid JSON")
            return
        if content != {"type": "refresh"}:
            await self.send_error('unknown message; the only message accepted is {"type": "refresh"}')
            return
        now = time.monotonic()
        if now - self.last_refresh < MIN_SECONDS_BETWEEN_REFRESHES:
            await self.send_error("refreshing too often; wait a second")
            return
        self.last_refresh = now
        await self.send_leaderboard()

    async def scores_changed(self, message: dict) -> None:
        """Group message from ``notify_scores_changed``: rebuild the rows and send them."""
        await self.send_leaderboard()

    async def send_leaderboard(self) -> None:
        await self.send_json({"type": "leaderboard", "rows": await leaderboard_rows(self.event)})

    async def send_error(self, error: str) -> None:
        await self.send_json({"type": "error", "error": error})
