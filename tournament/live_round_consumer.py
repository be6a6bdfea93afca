"""Websocket of the organizer's live round view (``ws/organizer/rounds/<id>/``).

Only an organizer of the round's event (or a superuser) with the permission to view rounds may open it;
the same check is made again on every message and every update, so a socket whose user lost the event
is closed (4403). The round's live tables nudge the group ``round-<id>-live`` after each change and each
player arriving or leaving (`games.services.nudges`), and score changes reach it through the event's
group; on each the consumer re-reads the round's compact summary (`tournament.services.live_round`) and
sends it rendered, at most once a second. The only message it accepts is ``{"type": "refresh"}``; the
organizer's actions are the page's forms (plain POSTs through the admin, permission-checked there). Its
frames pass the limits of the table sockets first (`games.socket_limits`): a flood or a huge frame closes
it before any database work.
"""

from __future__ import annotations

import asyncio
import time

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.contrib.auth import get_user_model
from django.template.loader import render_to_string

from games.socket_limits import FrameLimitsMixin
from tournament import refresh_requests
from tournament.admin.scoping import in_events
from tournament.models import Round
from tournament.page_notices import event_group_name, round_live_group
from tournament.services.live_round import round_live
from tournament.services.round_control import reserves

MIN_SECONDS_BETWEEN_SENDS = 1.0
CLOSE_FORBIDDEN = 4403
TABLES_TEMPLATE = "admin/tournament/_live_round_tables.html"


def allowed_round(user, round_id: int) -> Round | None:
    """The round if `user` may watch it live: an active staff user with the view permission on rounds
    who runs the round's event (superusers run every event)."""
    if user is None or not user.is_authenticated or not user.is_active or not user.is_staff:
        return None
    if not user.has_perm("tournament.view_round"):
        return None
    return in_events(Round.objects.select_related("event"), "event", user).filter(pk=round_id).first()


def _fresh_user(user):
    """The user as the database has them now (a permission or staff flag removed since the socket opened)."""
    if user is None or not user.is_authenticated:
        return user
    return get_user_model().objects.filter(pk=user.pk).first()


@database_sync_to_async
def check(user, round_id: int) -> Round | None:
    return allowed_round(_fresh_user(user), round_id)


@database_sync_to_async
def summary_message(user, round_id: int) -> dict | None:
    """The rendered summary, or None if the user may no longer watch the round."""
    user = _fresh_user(user)
    round_ = allowed_round(user, round_id)
    if round_ is None:
        return None
    live = round_live(round_)
    can_change = user.has_perm("tournament.change_round")
    html = render_to_string(TABLES_TEMPLATE, {"live": live, "can_change": can_change,
                                              "reserves": reserves(round_) if can_change else []})
    return {"type": "round", "round": round_.pk, "status": round_.status, "time_left": live.time_left_seconds,
            "counts": live.counts, "html": html}


class LiveRoundConsumer(FrameLimitsMixin, AsyncJsonWebsocketConsumer):
    round_id: int = 0
    groups_joined: tuple[str, ...] = ()
    last_sent: float = float("-inf")
    scheduled: asyncio.TimerHandle | None = None

    async def connect(self) -> None:
        self.round_id = int(self.scope["url_route"]["kwargs"]["round_id"])
        self.user = self.scope.get("user")
        round_ = await check(self.user, self.round_id)
        if round_ is None:
            await self.close(code=CLOSE_FORBIDDEN)
            return
        self.groups_joined = (round_live_group(round_.pk), event_group_name(round_.event_id))
        for group in self.groups_joined:
            await self.channel_layer.group_add(group, self.channel_name)
        await self.accept()
        await self.send_summary()

    async def disconnect(self, code) -> None:
        if self.scheduled is not None:
            self.scheduled.cancel()
        for group in self.groups_joined:
            await self.channel_layer.group_discard(group, self.channel_name)

    async def receive(self, text_data=None, bytes_data=None) -> None:
        if await self.frame_refused(text_data, bytes_data):  # too large, too many
            return
        if await check(self.user, self.round_id) is None:
            await self.close(code=CLOSE_FORBIDDEN, reason="only the event's organizers may watch this round live")
            return
        if error := refresh_requests.refusal(text_data):
            await self.send_error(error)
            return
        await self.changed()

    async def table_changed(self, message: dict) -> None:
        """A table of the round changed, or a player arrived or left (`games.services.nudges`)."""
        await self.changed()

    async def scores_changed(self, message: dict) -> None:
        """The event's scores changed (a hand recorded by hand, a game finished by an organizer)."""
        await self.changed()

    async def changed(self) -> None:
        """Send the summary now, or when a second has passed since the last one (one for many changes)."""
        if self.scheduled is not None:
            return
        wait = self.last_sent + MIN_SECONDS_BETWEEN_SENDS - time.monotonic()
        if wait <= 0:
            await self.send_summary()
            return
        loop = asyncio.get_running_loop()
        self.scheduled = loop.call_later(wait, lambda: loop.create_task(self.send_scheduled()))

    async def send_scheduled(self) -> None:
        self.scheduled = None
        await self.send_summary()

    async def send_summary(self) -> None:
        self.last_sent = time.monotonic()
        message = await summary_message(self.user, self.round_id)
        if message is None:
            await self.close(code=CLOSE_FORBIDDEN, reason="only the event's organizers may watch this round live")
            return
        await self.send_json(message)

    async def send_error(self, error: str) -> None:
        await self.send_json({"type": "error", "error": error})

    send_rate_error = send_error  # `FrameLimitsMixin`: too many frames
