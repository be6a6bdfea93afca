"""The live table's websocket consumer (`ws/games/<id>/`).

The table consumer is thin: it validates each message, asks the services, and sends each viewer only what
that viewer may see. The protocol is described in docs/protocol.md.
"""

from __future__ import annotations

import asyncio
import logging

from autobahn.exception import Disconnected
from channels.consumer import get_handler_name
from channels.generic.websocket import AsyncWebsocketConsumer
from django.db import DatabaseError, InterfaceError

from access_tokens import socket_watch
from access_tokens.models import PLAY_TABLES
from games import db_threads, signals
from games.direct_send import DirectSendMixin
from games.frame_encoding import encode
from games.models import LiveGame
from games.services import (
    arrival,
    change_messages,
    missed_changes,
    nudges,
    presence,
    resync,
    snapshots,
    timers,
    watchers,
)
from games.services.broadcast import table_group_name
from games.services.moves import STALE, UNAVAILABLE, MoveRefused, player_returned
from games.services.seats import resolved_user, viewer_of
from games.services.socket_moves import play_move
from games.services.update_frames import Sent, sent_in, update_frames
from games.socket_limits import FrameLimitsMixin, player_rate, reader_rate
from games.socket_messages import BadMessage, parse_message
from games.view_changes import NeedsState

logger = logging.getLogger(__name__)
DB_ERRORS = (DatabaseError, InterfaceError)  # the database unreachable or the connection lost

CLOSE_NOT_FOUND = 4404
CLOSE_FORBIDDEN = 4403
GONE_REASON = "this game does not exist any more"
NOT_YOUR_TABLE_REASON = "an access token opens only its account's own tables"
NO_SUCH_GAME_REASON = "there is no such game"
READ_ONLY_TOKEN = "this access token may only read your tables: make one that may play (/account/tokens/)"

def _open(live_id: int, user, via_token: bool = False, may_play: bool = True) -> tuple[int | None, dict | None]:
    """(close code, None) or (None, the first `state`): practice games are their owner's only; tournament
    and exhibition tables anyone may watch, but an access token opens only its user's own tables. A player
    opening their table has arrived (`arrival`), unless through a token that may only read."""
    snap = snapshots.load_snapshot(live_id)
    if snap is None:
        return CLOSE_NOT_FOUND, None
    if snap.kind == "practice" and not (user is not None and user.is_authenticated and user.pk == snap.owner_id):
        return CLOSE_FORBIDDEN, None
    if via_token and snap.seat_of(user) is None:
        return CLOSE_FORBIDDEN, None
    if may_play:
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


def _returned(live_id: int, user, via_token: bool) -> bool:
    return player_returned(live_id, user, via_token=via_token)


class GameConsumer(DirectSendMixin, FrameLimitsMixin, AsyncWebsocketConsumer):
    """One socket at a live table. Role and seat are decided by the database on every message and every
    change (an organizer may replace a player while the socket is open)."""

    live_id: int = 0
    group: str | None = None
    sent_version: int = 0  # the newest version this socket has been sent
    sent: Sent | None = None  # what its client holds: the base of its next update (`update_frames`)
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
        self.user = resolved_user(self.scope.get("user"))
        self.viewer = viewer_of(self.user)  # who this socket's updates are for (`game_changed`)
        # Opened with a personal access token (access_tokens.websocket): the player's bot; its moves are marked.
        self.via_token = self.scope.get("access_token_id") is not None
        self.may_play = not self.via_token or PLAY_TABLES in self.scope.get("access_token_scopes", ())
        # Its token's group: the socket is closed when the token stops being valid (access_tokens.revocation).
        self.token_group = self.scope.get("access_token_group") or ""
        self.updating = asyncio.Lock()  # one update at a time: a broadcast, a ping's or a missed change's
        self.pings: set[asyncio.Task] = set()  # pings waiting for their answer (`answer_ping`)
        self.told_unreachable = False  # `answer_ping` told this socket its database is out of reach
        # Join the group before reading the state, so no change falls between the two: a change the
        # state already holds is skipped by its version, a later one arrives as an update.
        if self.token_group:
            await self.channel_layer.group_add(self.token_group, self.channel_name)
        self.group = table_group_name(self.live_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        code, state = await db_threads.run(_open, self.live_id, self.user, self.via_token, self.may_play)
        if code is not None:
            await self.channel_layer.group_discard(self.group, self.channel_name)
            self.group = None
            if self.via_token:  # a bot reads the code and the reason (a browser's page knows its table)
                await self.accept()
                await self.close(code=code,
                                 reason=NOT_YOUR_TABLE_REASON if code == CLOSE_FORBIDDEN else NO_SUCH_GAME_REASON)
                return
            await self.close(code=code)
            return
        self.watch_group, self.announce_group = state.pop("groups")
        if self.announce_group:  # the event's announcements (joined before the first state is sent)
            await self.channel_layer.group_add(self.announce_group, self.channel_name)
        await self.accept()
        self.sent_version = state["version"]
        self.sent = sent_in(state)
        self.connected = state.pop("connected")
        announcement = state.pop("announcement")
        await self.send_message(state)
        if announcement is not None:
            await self.send_message(announcement)
        if state["seat"] is not None:
            connected = await db_threads.run(
                presence.socket_opened, self.live_id, state["seat"], self.channel_name, self.via_token)
            if connected is None:  # the game was deleted meanwhile (an organizer in the admin)
                await self.close(code=CLOSE_NOT_FOUND, reason=GONE_REASON)
                return
            await self.announce_presence(connected)
            await self.tell_if_a_bot_plays_here(state["seat"])
        else:  # a spectator: counted among the table's watchers until the socket closes
            self.watching = await db_threads.run(watchers.watcher_opened, self.live_id, self.channel_name)
            if not self.watching:  # the game was deleted meanwhile
                await self.close(code=CLOSE_NOT_FOUND, reason=GONE_REASON)
                return
        timers.ensure_sweeper()
        presence.ensure_heartbeat()  # keeps this worker's presence rows fresh, clears those of dead workers
        missed_changes.watch(self)  # a change whose broadcast never came reaches this socket all the same
        if self.via_token:  # closed within seconds when its token stops being valid, however that happens
            socket_watch.watch(self, self.scope["access_token_id"])

    async def tell_if_a_bot_plays_here(self, seat: int) -> None:
        """A second socket at a seat that the player's bot already plays through its access token is told
        so (`seat_shared`): both sockets get every update, and a move is taken once, from whichever comes
        first at its version."""
        bots = await db_threads.run(presence.token_sockets_at, self.live_id, seat, self.channel_name)
        if not bots:
            return
        text = ("another socket of your bot (the same access token's user) is already playing this seat"
                if self.via_token else "your bot is already playing this seat through your access token")
        await self.send_message({"type": "seat_shared", "token_sockets": bots, "message": text})

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
        """Send unless closed. A client that has just gone is not an error: a broadcast (a presence change,
        an update) can reach this socket after the client closed and before the server's report of it,
        and the server then refuses the send (uvicorn: an OSError; Daphne: autobahn's `Disconnected`).
        The report follows and cleans up as usual (`disconnect`)."""
        if self.closed:
            return
        try:
            if text_data is not None and bytes_data is None and not close:
                await self.send_text(text_data)  # the usual frame (`games.direct_send`)
            else:
                await super().send(text_data=text_data, bytes_data=bytes_data, close=close)
        except (OSError, Disconnected):
            self.closed = True

    async def leave_table(self) -> None:
        """Leave the table's groups and drop this socket's presence (once: on close or on disconnect)."""
        missed_changes.unwatch(self)
        if getattr(self, "via_token", False):
            socket_watch.unwatch(self, self.scope["access_token_id"])
        token_group, self.token_group = getattr(self, "token_group", ""), ""
        if token_group:
            try:
                await self.channel_layer.group_discard(token_group, self.channel_name)
            except Exception:  # noqa: BLE001 - e.g. Redis is down: its group entries expire
                logger.warning("could not leave the group of an access token", exc_info=True)
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

    async def access_token_revoked(self, message: dict) -> None:
        """The socket's token stopped being valid (`access_tokens.revocation`): close it with its code."""
        await self.close(code=int(message.get("code", CLOSE_FORBIDDEN)), reason=str(message.get("reason", "")))

    async def announcement(self, message: dict) -> None:
        """An organizer's announcement to the event (group `announce_group`): shown as a banner."""
        await self.send_message(signals.announcement_frame(message))

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
        await self.send(text_data=encode(message))

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
            await self.send_error("not_found", GONE_REASON)
            await self.close(code=CLOSE_NOT_FOUND, reason=GONE_REASON)
            return
        if state["version"] >= self.sent_version:
            self.sent_version, self.sent = state["version"], sent_in(state)
        self.connected = state.pop("connected")
        await self.send_message(state)

    def frame_rate(self) -> tuple[int, float]:
        """(messages, seconds) for this socket's role: players and spectators have their own limits."""
        return player_rate() if self.role == "player" else reader_rate()

    async def send_rate_error(self, reason: str) -> None:
        await self.send_error("rate_limited", reason)

    async def receive(self, text_data=None, bytes_data=None) -> None:
        if self.closed:  # frames the client sent before it heard of the close
            return
        if await self.frame_refused(text_data, bytes_data):  # too large, too many (`games.socket_limits`)
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
                if self.may_play:
                    await db_threads.run(_returned, self.live_id, self.user, self.via_token)
                await self.send_state()
            elif not self.may_play:
                await self.send_error("forbidden", READ_ONLY_TOKEN, message.get("id") or None)
            else:
                await self.handle_move(message)
        except DB_ERRORS:  # the database is briefly unreachable: say so, keep the socket
            logger.warning("database error at live game %s", self.live_id, exc_info=True)
            await self.send_error("unavailable", "the server could not reach its database; nothing was "
                                  "applied, try again", message.get("id") or None)

    async def answer_ping(self, echo) -> None:
        """The `pong` at once (it says the socket is alive, whatever the database), then what this socket
        missed (a lost broadcast). The stored version comes with the worker's next check of its tables
        (`resync`: up to half a second), so this runs beside the socket's other messages: a move sent just
        after the page's keep-alive does not wait for it. If the database cannot be read, the socket is
        told so once, until a reading succeeds again."""
        await self.send_message({"type": "pong", "echo": echo})
        stored = await resync.stored_version(self.live_id)
        if stored is resync.UNREACHABLE:
            if not self.told_unreachable:
                self.told_unreachable = True
                await self.send_error(UNAVAILABLE, "the server cannot reach its database just now: this "
                                      "table catches up by itself when it is back")
            return
        self.told_unreachable = False
        if stored is not None and stored > self.sent_version:
            await self.game_changed({"version": stored})

    async def handle_move(self, message: dict) -> None:
        move_id = message["id"]
        try:
            async with db_threads.in_arrival_order(self.live_id):  # stored in one statement, or on a thread
                done = await play_move(self.live_id, self.user, message["version"], message["action"], move_id,
                                       via_token=self.via_token)
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
        from one database read per process for all its sockets at the table; each distinct frame built
        once per process and shared by the sockets of the same viewer (`update_frames`)."""
        version = message.get("version", 0)
        change = message.get("change")
        if change is not None:  # made by another process: replayed here once, no database read
            change_messages.remember_change(change)
        async with self.updating:
            if version <= self.sent_version:
                return
            found = snapshots.cached_changes(self.live_id, self.sent_version, version)
            if found is None:
                try:
                    found = await db_threads.load_changes(self.live_id, self.sent_version, version)
                except DB_ERRORS:  # the next change, or the check for missed changes, catches this socket up
                    logger.warning("could not read live game %s for an update", self.live_id, exc_info=True)
                    return
                if found[0] is None:
                    return
            snap, moves = found
            seat = snap.seat_of(self.viewer)
            if snap.version - self.sent_version > snapshots.MAX_CATCH_UP:  # `moves` is its log
                state = snapshots.state_message(snap, seat, moves)
                self.sent_version, self.sent = snap.version, sent_in(state)
                await self.send_message(state)
                return
            try:
                if self.sent is None or seat != self.sent.seat:
                    raise NeedsState  # a new role or seat (an organizer's change): the whole picture
                self.sent, texts = update_frames(snap, moves, self.sent, tuple(self.connected))
            except NeedsState:
                try:
                    await self.send_state()
                except DB_ERRORS:  # the next change, or the check for missed changes, catches this socket up
                    logger.warning("could not read live game %s for a state", self.live_id, exc_info=True)
                return
            for text in texts:
                await self.send(text_data=text)
            self.sent_version = max(self.sent_version, self.sent.version)
