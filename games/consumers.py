"""The live table's websocket consumer (`ws/games/<id>/`).

The table consumer is thin: it validates each message, asks the services, and sends each viewer only what
that viewer may see. The protocol is described in docs/protocol.md.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time

from channels.consumer import get_handler_name
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.db import DatabaseError, InterfaceError

from games import db_threads, signals
from games.models import LiveGame
from games.services import arrival, missed_changes, nudges, presence, resync, snapshots, timers, watchers
from games.services.broadcast import table_group_name
from games.services.moves import STALE, UNAVAILABLE, MoveRefused, player_returned, submit_move
from games.services.seats import viewer_of
from games.socket_messages import MAX_MESSAGE_BYTES, BadMessage, parse_message, utf8_size

logger = logging.getLogger(__name__)
DB_ERRORS = (DatabaseError, InterfaceError)  # the database unreachable or the connection lost

CLOSE_MESSAGE_BYTES = 65536  # larger: the socket is closed (4413)
RATE_LIMIT = (30, 5.0)  # players: at most 30 messages per 5 seconds (setting LIVE_SOCKET_RATE_LIMIT)
SPECTATOR_RATE_LIMIT = (20, 5.0)  # spectators only sync and ping (setting LIVE_SPECTATOR_RATE_LIMIT)
FLOOD_FACTOR = 2  # a socket that goes on sending past twice its limit in one window is closed (4429)

CLOSE_NOT_FOUND = 4404
CLOSE_FORBIDDEN = 4403
CLOSE_TOO_LARGE = 4413
CLOSE_FLOOD = 4429

def _open(live_id: int, user, via_token: bool = False) -> tuple[int | None, dict | None]:
    """(close code, None) or (None, the first `state`): practice games are their owner's only; tournament
    and exhibition tables anyone may watch. A player opening their table has arrived (`arrival`)."""
    snap = snapshots.load_snapshot(live_id)
    if snap is None:
        return CLOSE_NOT_FOUND, None
    if snap.kind == "practice" and not (user is not None and user.is_authenticated and user.pk == snap.owner_id):
        return CLOSE_FORBIDDEN, None
    snap = arrival.on_open(snap, user, via_token=via_token)
    state = snapshots.state_message(snap, snap.seat_of(user), snapshots.recent_moves(live_id, snap.version))
    state["connected"] = presence.connected_seats(live_id)
    state["groups"] = _outside_groups(live_id)
    state["announcement"] = _latest_announcement(live_id) if state["groups"][1] else None
    return None, state


def _outside_groups(live_id: int) -> tuple[str, str]:
    """(the group watching this table from outside it, the group of its event's announcements): plain
    names the tournament stored on the live game when it opened the table ("" for other games)."""
    row = LiveGame.objects.filter(pk=live_id).values_list("watch_group", "announce_group").first()
    return row or ("", "")


def _latest_announcement(live_id: int) -> dict | None:
    """The latest announcement to show at this table, as the app that makes them answers (`games.signals`)."""
    for _receiver, answer in signals.latest_announcement.send(LiveGame, live_id=live_id):
        if isinstance(answer, dict):
            return answer
    return None


def _state(live_id: int, user) -> dict | None:
    snap = snapshots.load_snapshot(live_id)
    if snap is None:
        return None
    state = snapshots.state_message(snap, snap.seat_of(user), snapshots.recent_moves(live_id, snap.version))
    state["connected"] = presence.connected_seats(live_id)
    return state


def _move(live_id: int, user, version: int, action: dict, move_id: str, via_token: bool):
    return submit_move(live_id, user, version, action, move_id, via_token=via_token)


def _returned(live_id: int, user, via_token: bool) -> bool:
    return player_returned(live_id, user, via_token=via_token)


class GameConsumer(AsyncWebsocketConsumer):
    """One socket at a live table. Role and seat are decided by the database on every message and every
    change (an organizer may replace a player while the socket is open)."""

    live_id: int = 0
    group: str | None = None
    sent_version: int = 0  # the newest version this socket has been sent
    role: str = "spectator"  # as in the last state or update this socket was sent
    connected: list[int] = []  # seats with a player's socket open, as last heard
    watching: bool = False  # opened as a spectator: counted in `games.services.watchers`
    closed: bool = False  # the server closed this socket: nothing more is sent on it
    watch_group: str = ""  # told when a player arrives or leaves (LiveGame.watch_group)
    announce_group: str = ""  # the event's announcements (LiveGame.announce_group)

    async def dispatch(self, message) -> None:
        """As Channels' own, without its `close_old_connections` before every message: that is a hop to
        Channels' database thread per message (a large share of a loaded worker's time), and this
        consumer's database calls check their connections themselves (`games.db_threads`)."""
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def connect(self) -> None:
        self.live_id = int(self.scope["url_route"]["kwargs"]["live_game_id"])
        self.user = self.scope.get("user")
        self.viewer = viewer_of(self.user)  # who this socket's updates are for (`game_changed`)
        # Opened with a personal access token (access_tokens.websocket): the player's bot; its moves are marked.
        self.via_token = self.scope.get("access_token_id") is not None
        self.recent: list[float] = []
        self.updating = asyncio.Lock()  # one update at a time: a broadcast, a ping's or a missed change's
        self.pings: set[asyncio.Task] = set()  # pings waiting for their answer (`answer_ping`)
        # Join the group before reading the state, so no change falls between the two: a change the
        # state already holds is skipped by its version, a later one arrives as an update.
        self.group = table_group_name(self.live_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        code, state = await db_threads.run(_open, self.live_id, self.user, self.via_token)
        if code is not None:
            await self.channel_layer.group_discard(self.group, self.channel_name)
            self.group = None
            await self.close(code=code)
            return
        self.watch_group, self.announce_group = state.pop("groups")
        if self.announce_group:  # the event's announcements (joined before the first state is sent)
            await self.channel_layer.group_add(self.announce_group, self.channel_name)
        await self.accept()
        self.sent_version = state["version"]
        self.connected = state.pop("connected")
        announcement = state.pop("announcement")
        await self.send_message(state)
        if announcement is not None:
            await self.send_message(announcement)
        if state["seat"] is not None:
            await self.announce_presence(
                await db_threads.run(presence.socket_opened, self.live_id, state["seat"], self.channel_name))
        else:  # a spectator: counted among the table's watchers until the socket closes
            self.watching = True
            await db_threads.run(watchers.watcher_opened, self.live_id, self.channel_name)
        timers.ensure_sweeper()
        presence.ensure_heartbeat()  # keeps this worker's presence rows fresh, clears those of dead workers
        missed_changes.watch(self)  # a change whose broadcast never came reaches this socket all the same

    async def disconnect(self, code) -> None:
        await self.leave_table()

    async def close(self, code=None, reason=None) -> None:
        """Close once, leaving the table first: from here on the socket is sent nothing more (a broadcast
        handled before the server reports the disconnect would send on a closed socket), and its seat has
        stopped counting as connected by the time the close frame goes out, even if that report never
        comes."""
        if self.closed:
            return
        self.closed = True
        await self.leave_table()
        await super().close(code=code, reason=reason)

    async def send(self, text_data=None, bytes_data=None, close=False) -> None:
        if self.closed:
            return
        await super().send(text_data=text_data, bytes_data=bytes_data, close=close)

    async def leave_table(self) -> None:
        """Leave the table's groups and drop this socket's presence (once: on close or on disconnect)."""
        missed_changes.unwatch(self)
        for task in list(getattr(self, "pings", ())):
            task.cancel()
        announce_group, self.announce_group = self.announce_group, ""
        if announce_group:
            try:
                await self.channel_layer.group_discard(announce_group, self.channel_name)
            except Exception:  # noqa: BLE001 - e.g. Redis is down: its group entries expire
                logger.warning("could not leave the announcements of live game %s", self.live_id, exc_info=True)
        group, self.group = self.group, None
        if group is None:
            return
        try:
            await self.channel_layer.group_discard(group, self.channel_name)
        except Exception:  # noqa: BLE001 - e.g. Redis is down: its group entries expire; presence still goes
            logger.warning("could not leave the group of live game %s", self.live_id, exc_info=True)
        if self.watching:  # opened without a seat: a watcher row, never a presence row
            try:
                await db_threads.run(watchers.watcher_closed, self.channel_name)
            except DB_ERRORS:  # not refreshed by this worker any more: it stops counting within the TTL
                logger.warning("could not drop a watcher of live game %s", self.live_id, exc_info=True)
            return
        try:
            was_player, connected = await db_threads.run(presence.socket_closed, self.live_id, self.channel_name)
        except DB_ERRORS:  # the row is no longer refreshed by this worker: it expires within the TTL
            logger.warning("could not drop the presence of a socket at live game %s", self.live_id, exc_info=True)
            return
        if was_player:
            await self.announce_presence(connected)

    async def announce_presence(self, connected: list[int]) -> None:
        """Tell the table which seats have a player's socket open (public: no card in it). A hint only:
        if the channel layer is unreachable the table hears of it later."""
        try:
            await self.channel_layer.group_send(table_group_name(self.live_id),
                                                {"type": "presence.changed", "connected": connected})
        except Exception:  # noqa: BLE001 - e.g. Redis is down; play goes on without the hint
            logger.warning("could not announce presence at live game %s", self.live_id, exc_info=True)
        nudges.nudge_soon(self.watch_group, self.live_id)  # the organizer's live round view

    async def announcement(self, message: dict) -> None:
        """An organizer's announcement to the event (group `announce_group`): shown as a banner."""
        await self.send_message({"type": "announcement", "text": str(message.get("text", "")),
                                 "at": message.get("at")})

    async def presence_changed(self, message: dict) -> None:
        self.connected = list(message.get("connected", []))
        await self.send_message({"type": "presence", "connected": self.connected})

    async def send_message(self, message: dict) -> None:
        if "role" in message:
            self.role = message["role"]
        game = message.get("game")
        if game is not None:  # the presence this socket last heard of, on every seat (a copy: shared)
            message["game"] = {**game, "seats": [{**seat, "connected": seat["seat"] in self.connected}
                                                 for seat in game["seats"]]}
        await self.send(text_data=json.dumps(message, separators=(",", ":")))

    async def send_error(self, code: str, message: str, move_id: str | None = None, version=None) -> None:
        out = {"type": "error", "code": code, "message": message}
        if move_id:
            out["id"] = move_id
        if version is not None:
            out["version"] = version
        await self.send_message(out)

    async def send_state(self) -> None:
        state = await db_threads.run(_state, self.live_id, self.user)
        if state is None:
            await self.send_error("not_found", "this game does not exist any more")
            await self.close(code=CLOSE_NOT_FOUND)
            return
        self.sent_version = max(self.sent_version, state["version"])
        self.connected = state.pop("connected")
        await self.send_message(state)

    def rate_limit(self) -> tuple[int, float]:
        """(messages, seconds) for this socket's role: players and spectators have their own limits."""
        if self.role == "player":
            return getattr(settings, "LIVE_SOCKET_RATE_LIMIT", RATE_LIMIT)
        return getattr(settings, "LIVE_SPECTATOR_RATE_LIMIT", SPECTATOR_RATE_LIMIT)

    def _count(self) -> int:
        """Count this message; the number of messages in the current window."""
        limit, window = self.rate_limit()
        now = time.monotonic()
        self.recent = [t for t in self.recent if now - t < window]
        self.recent.append(now)
        return len(self.recent)

    async def receive(self, text_data=None, bytes_data=None) -> None:
        if self.closed:  # frames the client sent before it heard of the close
            return
        size = utf8_size(text_data) if text_data is not None else len(bytes_data or b"")
        if size > CLOSE_MESSAGE_BYTES:
            await self.close(code=CLOSE_TOO_LARGE, reason=f"message too large (limit {MAX_MESSAGE_BYTES} bytes)")
            return
        count, (limit, window) = self._count(), self.rate_limit()
        if count > limit * FLOOD_FACTOR:
            await self.close(code=CLOSE_FLOOD, reason=f"too many messages (limit {limit} per {window:g} s)")
            return
        if count > limit:
            await self.send_error("rate_limited", "too many messages; slow down")
            return
        try:
            message = parse_message(text_data, bytes_data)
        except BadMessage as bad:
            await self.send_error("malformed", str(bad))
            return
        kind = message["type"]
        try:
            if kind == "ping":  # answered in a task: its reading may take half a second (`answer_ping`)
                task = asyncio.get_running_loop().create_task(self.answer_ping(message.get("echo")))
                self.pings.add(task)
                task.add_done_callback(self.pings.discard)
            elif kind == "sync":
                await db_threads.run(_returned, self.live_id, self.user, self.via_token)
                await self.send_state()
            else:
                await self.handle_move(message)
        except DB_ERRORS:  # the database is briefly unreachable: say so, keep the socket
            logger.warning("database error at live game %s", self.live_id, exc_info=True)
            await self.send_error("unavailable", "the server could not reach its database; nothing was "
                                  "applied, try again", message.get("id") or None)

    async def answer_ping(self, echo) -> None:
        """Send what this socket missed (a lost broadcast), then the `pong`. The stored version comes with
        the worker's next check of its tables (`resync`: up to half a second), so this runs beside the
        socket's other messages: a move sent just after the page's keep-alive does not wait for it."""
        stored = await resync.stored_version(self.live_id)
        if stored is not None and stored > self.sent_version:
            await self.game_changed({"version": stored})
        await self.send_message({"type": "pong", "echo": echo})

    async def handle_move(self, message: dict) -> None:
        move_id = message["id"]
        try:
            async with db_threads.in_arrival_order(self.live_id):
                done = await db_threads.run(_move, self.live_id, self.user, message["version"],
                                                message["action"], move_id, self.via_token)
        except MoveRefused as refused:
            await self.send_error(refused.code, refused.message, move_id, refused.version)
            if refused.code == STALE:
                await self.send_state()
            return
        except DB_ERRORS:  # e.g. the database is briefly unreachable: the transaction rolled back
            logger.warning("move in live game %s not taken: database error", self.live_id, exc_info=True)
            await self.send_error(UNAVAILABLE, "the server could not take the move; nothing was applied, "
                                  "try again", move_id)
            return
        except Exception:  # noqa: BLE001 - a bug: logged as one; the client is told nothing was applied
            logger.exception("move in live game %s failed", self.live_id)
            await self.send_error(UNAVAILABLE, "the server could not take the move; nothing was applied, "
                                  "try again", move_id)
            return
        await self.send_message({"type": "ack", "id": move_id, "version": done.version})

    async def game_changed(self, message: dict) -> None:
        """Group message "changed, version N": send this viewer what changed, as it may see it. Built from
        this process's snapshots (its own change, or another process's replayed from the message), else
        from one database read per process for all its sockets at the table."""
        version = message.get("version", 0)
        change = message.get("change")
        if change is not None:  # made by another process: replayed here once, no database read
            snapshots.remember_change(change)
        async with self.updating:
            if version <= self.sent_version:
                return
            found = snapshots.cached_updates(self.live_id, self.sent_version, version, self.viewer)
            if found is None:
                try:
                    snap, moves = await db_threads.load_changes(self.live_id, self.sent_version, version)
                except DB_ERRORS:  # the next change, or the check for missed changes, catches this socket up
                    logger.warning("could not read live game %s for an update", self.live_id, exc_info=True)
                    return
                if snap is None:
                    return
                found = snapshots.updates_from(snap, moves, self.sent_version, self.viewer)
            newest, messages = found
            for out in messages:
                await self.send_message(out)
            self.sent_version = max(self.sent_version, newest)
