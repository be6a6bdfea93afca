"""The one-statement move's connections (`games.services.move_sql`): asyncpg connections on the worker's
event loop, at most `LIVE_MOVE_SQL_CONNECTIONS` per loop, each with the move's statement prepared.

Why asyncpg here, when Django and everything else use psycopg: this path runs once per move, on the event
loop that also serves every socket of the worker, and what it costs the worker there is what counts.
Measured in place (bench/live's relay with one trivial prepared statement per move, 10 tables x 4 at the
game's pace, two workers): psycopg's async connection through its pool added about 200 us of the
workers' CPU per move, asyncpg's prepared statement about 70 us. psycopg adds the socket to the event loop
and removes it again at every wait, arms and cancels a timer for it and polls for writability with
select(); asyncpg keeps its socket registered (an asyncio protocol) and encodes and parses in Cython.

Why a pool of its own: asyncpg's `Pool` resets each connection it takes back and wraps every acquire in
more tasks than the statement costs (measured: 183 us of CPU per statement through it, 66 us without); a
connection here only ever runs the one autocommitted statement, which leaves nothing behind to reset. A
connection that fails is dropped and the next request opens another.
"""

from __future__ import annotations

import asyncio
import collections
import logging
import weakref
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

from django.db import connections

logger = logging.getLogger(__name__)

CONNECT_TIMEOUT = 5.0  # seconds for a new connection (a request waits at most its own timeout for it)
APPLICATION_NAME = "live-moves"  # as PostgreSQL lists these connections (pg_stat_activity)
SERVER_SETTINGS = {"application_name": APPLICATION_NAME}


@dataclass
class Held:
    """An open connection and the move's statement prepared on it."""
    conn: Any  # asyncpg.Connection
    statement: Any  # asyncpg.prepared_stmt.PreparedStatement
    server: int  # its server process's id
    used: int = 0  # statements it has answered


class MovePool:
    """Connections for one event loop. `getconn` gives an idle one, opens one while fewer than `size` are
    open, else waits for one to come back; `putconn` gives it back (or drops it if it failed)."""

    def __init__(self, size: int, sql: str) -> None:
        self.size = max(1, size)
        self.sql = sql
        self.idle: list[Held] = []
        self.opened = 0  # connections open or being opened
        self.waiters: collections.deque[asyncio.Future] = collections.deque()
        self.servers: set[int] = set()  # the server processes of the open connections (`close_abandoned`)
        self.held: weakref.WeakSet = weakref.WeakSet()  # the asyncpg connections, open or not

    @property
    def all_busy(self) -> bool:
        """Every connection open (or opening) and in use: the worker is loaded, the database is there."""
        return self.opened >= self.size and not self.idle

    async def getconn(self, timeout: float) -> Held:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            while self.idle:
                held = self.idle.pop()
                if not held.conn.is_closed():
                    return held
                self._dropped(held)
            if self.opened < self.size:
                self.opened += 1
                try:
                    return await asyncio.wait_for(self._open(), max(0.0, deadline - loop.time()))
                except BaseException:
                    self.opened -= 1
                    raise
            held = await self._wait(loop, deadline - loop.time())
            if held is not None:
                return held  # else a connection was dropped: open another in its place

    async def _wait(self, loop: asyncio.AbstractEventLoop, timeout: float) -> Held | None:
        waiter = loop.create_future()
        self.waiters.append(waiter)
        timer = loop.call_later(max(0.0, timeout), _expire, waiter)
        try:
            return await waiter
        except asyncio.CancelledError:
            if waiter.done() and not waiter.cancelled() and waiter.exception() is None and waiter.result():
                self.putconn(waiter.result())  # handed over just as the caller went away
            raise
        finally:
            timer.cancel()

    def putconn(self, held: Held) -> None:
        if held.conn.is_closed():
            self._dropped(held)
            self._hand_over(None)
        else:
            self._hand_over(held)

    def drop(self, held: Held) -> None:
        """A connection that failed: ended, and no longer counted."""
        try:
            held.conn.terminate()
        except Exception:  # noqa: BLE001 - already gone
            logger.debug("terminating a live moves' connection failed", exc_info=True)
        self._dropped(held)
        self._hand_over(None)

    def _hand_over(self, held: Held | None) -> None:
        """To the first request still waiting (None: it may open a connection in place of one dropped),
        else back to the idle ones."""
        while self.waiters:
            waiter = self.waiters.popleft()
            if not waiter.done():
                waiter.set_result(held)
                return
        if held is not None:
            self.idle.append(held)

    def _dropped(self, held: Held) -> None:
        self.opened -= 1
        self.servers.discard(held.server)

    async def _open(self) -> Held:
        import asyncpg

        # asyncpg's statement cache stays on: without it `prepare` leaves no statement prepared on the
        # server, which parsed and planned the move's statement at every execution (twice its CPU per move).
        conn = await asyncpg.connect(**connect_kwargs(), timeout=CONNECT_TIMEOUT, server_settings=SERVER_SETTINGS)
        try:
            statement = await conn.prepare(self.sql)
        except BaseException:
            conn.terminate()
            raise
        held = Held(conn, statement, conn.get_server_pid())
        self.servers.add(held.server)
        self.held.add(conn)
        return held

    async def close(self) -> None:
        for waiter in self.waiters:
            if not waiter.done():
                waiter.set_exception(ConnectionError("the live moves' pool closed"))
        self.waiters.clear()
        idle, self.idle = self.idle, []
        for held in idle:
            self.opened -= 1
            try:
                await asyncio.wait_for(held.conn.close(), 0.1)
            except Exception:  # noqa: BLE001 - the loop is going away: end it without the goodbye
                held.conn.terminate()
        for conn in list(self.held):  # those in use: ended without waiting for their statement
            if not conn.is_closed():
                conn.terminate()
        self.servers.clear()


def _expire(waiter: asyncio.Future) -> None:
    if not waiter.done():
        waiter.set_exception(TimeoutError("no live moves' connection came free in time"))


def connect_kwargs() -> dict[str, Any]:
    """asyncpg's connection arguments for the default database, as Django connects: its NAME, USER,
    PASSWORD, HOST and PORT, and the libpq options among its OPTIONS that asyncpg reads from a DSN
    (sslmode, sslrootcert...)."""
    db = connections["default"].settings_dict
    kwargs: dict[str, Any] = {"database": db["NAME"]}
    for key, name in (("USER", "user"), ("PASSWORD", "password"), ("HOST", "host"), ("PORT", "port")):
        if db.get(key):
            kwargs[name] = int(db[key]) if key == "PORT" else db[key]
    ssl = {k: v for k, v in (db.get("OPTIONS") or {}).items() if k.startswith("ssl")}
    if ssl:
        kwargs["dsn"] = "postgresql://?" + "&".join(f"{quote(k)}={quote(str(v))}" for k, v in ssl.items())
    return kwargs
