"""Websocket consumer of a student's "My event" page (``ws/events/<slug>/me/``).

Logged-in users only, and only their own page: the consumer joins the event's "my event" group and sends
the page's live part rendered for its user (``tournament.my_event_page``), and again whenever
``tournament.page_notices.notify_my_event_changed`` says the event changed (a round seated, started or
finished, a stage drawn or started, a game ended, the event's settings saved), so the page shows "your
table is ready" with its button, "through" or "out", and the next table without a reload. The group
message is tiny ("changed"); each socket builds its user's HTML from the database. Incoming messages: only
``{"type": "refresh"}`` (at most one a second); anything else gets an error and changes nothing.

The socket also carries the event's announcements (``tournament.announcement_socket``), as the live
leaderboard's does: it forwards each organizer's announcement, and its end, as ``{"type": "announcement",
"id", "text", "at", "ends_at", "ended"}`` and sends the latest once after the first page. ``static/js/announcements.js`` opens no socket of its own
on a page that holds one, so this is how the page's banner shows a new announcement without a reload.
"""

from __future__ import annotations

import time

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer

from games.socket_limits import FrameLimitsMixin
from tournament import refresh_requests
from tournament.announcement_socket import AnnouncementsMixin
from tournament.models import Event
from tournament.my_event_page import render_live_part
from tournament.page_notices import my_event_group_name
from tournament.scores_version import forget_version

CLOSE_FORBIDDEN = 4403
CLOSE_NO_SUCH_EVENT = 4404


@database_sync_to_async
def load_public_event(slug: str):
    return Event.objects.exclude(status=Event.Status.DRAFT).filter(slug=slug).first()


@database_sync_to_async
def live_part(event, user) -> tuple[str, str]:
    """(the page's live part as HTML, the next step's kind) for `user`, read afresh: the event (its status
    and check-in may have changed) and its scores version (the places a step shows follow the change
    this page was told of, even when it was made in another process)."""
    event = Event.objects.get(pk=event.pk)
    forget_version(event.pk)
    return render_live_part(event, user)


class MyEventConsumer(FrameLimitsMixin, AnnouncementsMixin, AsyncJsonWebsocketConsumer):
    event = None
    group_name: str | None = None
    last_refresh: float = 0.0
    last_html: str = ""

    async def connect(self) -> None:
        self.user = self.scope.get("user")
        if self.user is None or not self.user.is_authenticated:
            await self.close(code=CLOSE_FORBIDDEN)
            return
        self.event = await load_public_event(self.scope["url_route"]["kwargs"]["slug"])
        if self.event is None:
            await self.close(code=CLOSE_NO_SUCH_EVENT)
            return
        self.group_name = my_event_group_name(self.event.pk)
        await self.channel_layer.group_add(self.group_name, self.channel_name)
        await self.join_announcements(self.event.pk)
        await self.accept()
        await self.send_page(force=True)
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
        await self.send_page(force=True)

    async def my_event_changed(self, message: dict) -> None:
        """Group message from ``notify_my_event_changed``: send the page again if it changed for this user."""
        await self.send_page()

    async def send_page(self, force: bool = False) -> None:
        html, step = await live_part(self.event, self.user)
        if html == self.last_html and not force:
            return
        self.last_html = html
        await self.send_json({"type": "my_event", "step": step, "html": html})

    async def send_error(self, error: str) -> None:
        await self.send_json({"type": "error", "error": error})

    send_rate_error = send_error  # `FrameLimitsMixin`: too many frames
