"""An event page's socket's part in the organizer's announcements, shared by the consumers of the live
leaderboard (``tournament.consumers``) and of "My event" (``tournament.my_event_socket``).

Every event page shows the latest announcement as a banner that ``static/js/announcements.js`` keeps up to
date from the page's socket, so each of these sockets joins the event's announcement group
(``tournament.page_notices.event_announce_group``) before it accepts, forwards each announcement
(``tournament.services.announcements``) as ``{"type": "announcement", "id", "text", "at", "ends_at",
"ended"}`` (``"ended": true`` when an organizer ended it: the page drops it), sends the latest once after
its first message (a page served before it was made still shows it; one that is over is sent as ended, so
a page reconnecting after it ended drops it) and leaves the group on disconnect. The tables' sockets do the same in ``games.consumers``, which knows the group only by name.
"""

from __future__ import annotations

from channels.db import database_sync_to_async

from games.signals import announcement_frame
from tournament.page_notices import event_announce_group
from tournament.services import announcements


@database_sync_to_async
def latest_announcement(event_id: int) -> dict | None:
    """The event's latest announcement as the socket sends it, or None when it has none."""
    return announcements.as_message(announcements.latest(event_id))


class AnnouncementsMixin:
    """For an ``AsyncJsonWebsocketConsumer`` of an event page: call ``join_announcements`` in ``connect``
    before accepting, ``send_latest_announcement`` after the first message, ``leave_announcements`` in
    ``disconnect``; ``announcement`` handles the group's messages."""

    announce_group: str | None = None

    async def join_announcements(self, event_id: int) -> None:
        self.announce_group = event_announce_group(event_id)
        await self.channel_layer.group_add(self.announce_group, self.channel_name)

    async def leave_announcements(self) -> None:
        if self.announce_group:
            await self.channel_layer.group_discard(self.announce_group, self.channel_name)

    async def send_latest_announcement(self, event_id: int) -> None:
        latest = await latest_announcement(event_id)
        if latest is not None:
            await self.send_json(latest)

    async def announcement(self, message: dict) -> None:
        """An organizer's announcement to the event (`tournament.services.announcements`): a banner."""
        await self.send_json(announcement_frame(message))
