"""The bots' stream (`ws/bots/stream/`, docs/bots.md): one socket per bot, opened with its access token,
that tells it at once when a table is ready for it and when an event it is registered for opens
check-in; the table's own socket does the rest. As lichess's bot event stream: the bot need not poll.

Frames (docs/protocol.schema.json, `bot_stream_server`): `hello` on connect; `table_ready` for every
table the bot's user plays (running tournament games, running practice games), once per table and
socket, with the event, round, stage, table, seat, rules and the socket to open; `checkin_open` for an
event whose check-in is open while the user is registered and not checked in. The client may send only
`ping` (answered `pong`).

What wakes it: a round or stage started, check-in opened (`tournament.signals`) and a practice game
started (`games.signals.practice_started`) nudge the user's group after the commit
(`tournament.services.bot_stream_nudges`); the stream then lists the user's tables again, as
`/api/my-tables/` does (`tournament.services.my_tables`). As a backstop for a nudge that cannot come (a
change made in a process the channel layer does not reach, a message Redis lost) each stream also looks
again every `BOT_STREAM_RECHECK_SECONDS` (default 10; 0: never).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings

from access_tokens import socket_watch
from access_tokens.models import READ_TABLES
from games.socket_limits import FrameLimitsMixin
from tournament.services import my_tables
from tournament.services.bot_stream_nudges import stream_group

logger = logging.getLogger(__name__)

CLOSE_FORBIDDEN = 4403
DEFAULT_RECHECK_SECONDS = 10.0


def _ready(user) -> tuple[list[dict], list[str]]:
    tables = my_tables.tournament_tables(user) + [
        t for t in my_tables.practice_tables(user, finished=0) if t["bot_seat"]]
    return tables, my_tables.check_in_events(user)


class BotStreamConsumer(FrameLimitsMixin, AsyncWebsocketConsumer):
    group = ""
    token_group = ""
    watching = False
    recheck: asyncio.Task | None = None

    async def connect(self) -> None:
        self.user = self.scope.get("user")
        self.announced: set[int] = set()
        self.checkins: set[str] = set()
        if self.scope.get("access_token_id") is None or READ_TABLES not in self.scope.get("access_token_scopes", ()):
            await self.accept()
            await self.close(code=CLOSE_FORBIDDEN, reason="the bots' stream needs an access token that may "
                             "read your tables (Authorization: Bearer <token>)")
            return
        self.token_group = self.scope.get("access_token_group") or ""
        if self.token_group:  # closed when the token stops being valid (access_tokens.revocation)
            await self.channel_layer.group_add(self.token_group, self.channel_name)
        self.group = stream_group(self.user.pk)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        socket_watch.watch(self, self.scope["access_token_id"])
        self.watching = True
        await self.send_json({"type": "hello", "user": self.user.get_username()})
        await self.send_ready()
        seconds = float(getattr(settings, "BOT_STREAM_RECHECK_SECONDS", DEFAULT_RECHECK_SECONDS))
        if seconds > 0:
            self.recheck = asyncio.get_running_loop().create_task(self.look_again_every(seconds))

    async def look_again_every(self, seconds: float) -> None:
        while True:
            await asyncio.sleep(seconds)
            try:
                await self.send_ready()
            except asyncio.CancelledError:
                raise
            except Exception:  # noqa: BLE001 - the database restarting: the next look tries again
                logger.warning("the bots' stream of user %s could not look again", self.user.pk, exc_info=True)

    async def disconnect(self, code) -> None:
        if self.recheck is not None:
            self.recheck.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.recheck
        if self.watching:
            socket_watch.unwatch(self, self.scope["access_token_id"])
        for group in (self.group, self.token_group):
            if group:
                await self.channel_layer.group_discard(group, self.channel_name)

    async def send_json(self, message: dict) -> None:
        await self.send(text_data=json.dumps(message, separators=(",", ":")))

    async def send_rate_error(self, text: str) -> None:
        await self.send_json({"type": "error", "code": "rate_limited", "message": text})

    async def receive(self, text_data=None, bytes_data=None) -> None:
        if await self.frame_refused(text_data, bytes_data):
            return
        try:
            message = json.loads(text_data) if text_data is not None else None
        except ValueError:
            message = None
        if not isinstance(message, dict) or message.get("type") != "ping" or set(message) - {"type", "echo"}:
            await self.send_json({"type": "error", "code": "malformed",
                                  "message": "this stream takes only {\"type\": \"ping\"}: it tells, the table "
                                             "sockets play"})
            return
        await self.send_json({"type": "pong", "echo": message.get("echo")})

    async def send_ready(self) -> None:
        """Every table and check-in not yet told on this socket."""
        tables, checkins = await database_sync_to_async(_ready)(self.user)
        for table in tables:
            if table["game"] not in self.announced:
                self.announced.add(table["game"])
                await self.send_json({"type": "table_ready", **table})
        for slug in checkins:
            if slug not in self.checkins:
                self.checkins.add(slug)
                await self.send_json({"type": "checkin_open", "event": slug,
                                      "check_in": f"/api/events/{slug}/check-in/"})

    async def bot_stream_changed(self, message: dict) -> None:
        """A nudge (`bot_stream_nudges`): something may be ready for this user now."""
        if message.get("checkin_closed"):
            self.checkins.discard(message["checkin_closed"])
        await self.send_ready()

    async def access_token_revoked(self, message: dict) -> None:
        """The socket's token stopped being valid (`access_tokens.revocation`): close it with its code."""
        await self.close(code=int(message.get("code", CLOSE_FORBIDDEN)), reason=str(message.get("reason", "")))
