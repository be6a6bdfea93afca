"""Websocket consumer of the live leaderboard (``ws/events/<slug>/``).

Anyone may watch a public event (no login): the consumer joins the event's group, sends the current
leaderboard page (``?page=N`` on the socket's URL, 100 rows a page as on the page itself), and sends it
again whenever ``tournament.page_notices.notify_scores_changed`` says scores changed
or the client asks with ``{"type": "refresh"}``. Rows are built on the server from the database and hold
public data only. Every incoming message is checked: anything but a small ``{"type": "refresh"}`` gets an
error message and changes nothing.

The socket also carries the event's announcements (``tournament.announcement_socket``): it forwards each
organizer's announcement, and its end, as ``{"type": "announcement", "id", "text", "at", "ends_at",
"ended"}`` and sends the latest once after the first leaderboard: every event page shows it as a banner
until it ends (docs/protocol.md).
"""

from __future__ import annotations

import time
from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer

from games.socket_limits import FrameLimitsMixin
from tournament import refresh_requests
from tournament.announcement_socket import AnnouncementsMixin
from tournament.models import Event
from tournament.page_notices import event_group_name
from tournament.scores_version import current_version, forget_version
from tournament.standings_cache import standings
from tournament.views.leaderboard import PAGE_SIZE, pages_for

CLOSE_NO_SUCH_EVENT = 4404


@database_sync_to_async
def load_public_event(slug: str):
    return Event.objects.exclude(status=Event.Status.DRAFT).filter(slug=slug).first()


@database_sync_to_async
def leaderboard_page(event, page: int) -> dict:
    """One page of the event's leaderboard, from the standings cached for the current scores version."""
    rows = standings(event, current_version(event))
    pages = pages_for(len(rows))
    page = min(page, pages)
    shown = rows[(page - 1) * PAGE_SIZE:page * PAGE_SIZE]
    return {"rows": [row.as_public_dict() for row in shown], "page": page, "pages": pages, "total": len(rows)}


def requested_page(scope) -> int:
    """``?page=N`` of the socket's URL; 1 when absent or not a whole number from 1."""
    values = parse_qs(scope.get("query_string", b"").decode("latin-1")).get("page", ["1"])
    raw = values[0]
    return int(raw) if raw.isdigit() and 0 < len(raw) <= 6 and int(raw) > 0 else 1


class LeaderboardConsumer(FrameLimitsMixin, AnnouncementsMixin, AsyncJsonWebsocketConsumer):
    event = None
    group_name: str | None = None
    last_refresh: float = 0.0
    page: int = 1

    async def connect(self) -> None:
        self.event = await load_public_event(self.scope["url_route"]["kwargs"]["slug"])
        if self.event is None:
            await self.close(code=CLOSE_NO_SUCH_EVENT)
            return
        self.page = requested_page(self.scope)
        self.group_name = event_group_name(self.event.pk)
        await self.channel_layer.group_add(self.group_name, self.channel_name)
        await self.join_announcements(self.event.pk)
        await self.accept()
        await self.send_leaderboard()
        await self.send_latest_announcement(self.event.pk)

    async def disconnect(self, code) -> None:
        if self.group_name:
            await self.channel_layer.group_discard(self.group_name, self.channel_name)
        await self.leave_announcements()

    async def receive(self, text_data=None, bytes_data=None) -> None:
        if await self.frame_refused(text_data, bytes_data):
            return
        if error := refresh_requests.refusal(text_data):
            await self.send_error(error)
            return
        now = time.monotonic()
        if error := refresh_requests.too_soon(self.last_refresh, now):
            await self.send_error(error)
            return
        self.last_refresh = now
        await self.send_leaderboard()

    async def scores_changed(self, message: dict) -> None:
        """Group message from ``notify_scores_changed``: read the scores version again (the change may
        come from another process) and send the page's rows."""
        forget_version(self.event.pk)
        await self.send_leaderboard()

    async def send_leaderboard(self) -> None:
        await self.send_json({"type": "leaderboard", **await leaderboard_page(self.event, self.page)})

    async def send_error(self, error: str) -> None:
        await self.send_json({"type": "error", "error": error})

    send_rate_error = send_error  # `FrameLimitsMixin`: too many frames
