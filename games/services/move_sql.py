"""An ordinary move stored in one SQL statement, from the socket's own event loop (PostgreSQL only).

Why this module leaves the ORM: through Django a move is six round trips to PostgreSQL (BEGIN, the
seats, the game row `SELECT ... FOR UPDATE`, the move's INSERT, the game's UPDATE, COMMIT), each from a
database thread that the event loop hands the move to and waits for. Most moves need none of that: the
worker already holds the table as it was at the version the player acted on (its engine game, its
snapshot, `game_log.TableFacts`), so what is left to the database is to check that nothing moved since
and to write. Here that is one statement, autocommitted (one statement is atomic) and prepared:

    WITH g AS (UPDATE the game's row SET its new small columns, seats_moved = seats_moved | the seat's bit
               FROM the same row as it was (o)
               WHERE id = ... AND version = the version acted on AND seats_version = as read
                     AND status = 'running' AND paused_at IS NULL RETURNING id, o.seats_moved & the seat's bit)
    INSERT INTO the moves SELECT ... FROM g RETURNING whether the seat's bit was set before

prepared once per connection and run on the worker's event loop (asyncpg, through the pool of
`games.services.move_pool`, which says why that driver here): no thread, no hop. The game row's
UPDATE takes the row's lock as `SELECT ... FOR UPDATE` did, so a move stored here and one stored by the
ORM path (the sweeper, a hand's end, another worker) are ordered the same way: whichever comes second
finds the version moved on. Zero rows (another worker moved first, a pause, a seat given to someone else:
anything that bumped `version` or `seats_version`), a doubled client move id (the move table's unique
constraint fails the whole statement) or a database error all leave the move to the ORM path
(`games.services.moves.submit_move`), which answers every refusal exactly as before, and finds out by
itself whether a statement whose answer was lost was stored (its version has moved on: `already_played`).

The statement also sets the seat's bit in `seats_moved` and answers whether it was set before: the
player's first own move at the seat (`games.services.first_moves`), decided by the database with no
further round trip. An UPDATE's RETURNING sees the new row, so the bit as it was comes from the row joined
as the statement's snapshot saw it (`o`); whenever the UPDATE matches, that is the row it changed, since
`seats_moved` only ever changes with `version` or `seats_version`, which the UPDATE checks.

Which moves are ordinary, and what runs after the statement, is `games.services.socket_moves.play_move`'s
business; this module owns the SQL, the pool and their counts. SQLite (the embedded default) never gets
here: `enabled()` is false and every move takes the ORM path.
"""

from __future__ import annotations

import asyncio
import collections
import logging
import re
import time
import weakref
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import asyncpg
from django.conf import settings
from django.db import connections

from games.frame_encoding import encode
from games.models import LiveGame, LiveMove
from games.services import move_pool

logger = logging.getLogger(__name__)

DEFAULT_CONNECTIONS = 8  # per worker process (setting LIVE_MOVE_SQL_CONNECTIONS; 0 turns the path off)
WAIT_FOR_CONNECTION = 0.5  # seconds; then, if the pool has no connection open, the database is away
WAIT_WHEN_BUSY = 10.0  # seconds more for a connection when every one is open and in use (a loaded worker)
REST_AFTER_ERROR = 1.0  # seconds without this path after a connection failed (the ORM path answers meanwhile)
STATEMENT_TIMEOUT = 10.0  # seconds for the statement's answer; then its outcome is the ORM path's to find out

# What happened to the moves offered here, per process (bench/live prints them): "stored", "not_taken"
# (zero rows: the row moved on), "doubled_id", "error", "resting"; "waited" (stored after every
# connection had been in use for WAIT_FOR_CONNECTION: the worker is loaded, not the database away) and
# "retried" (sent again on another connection: the first had been ended while idle).
counts: collections.Counter = collections.Counter()
_resting_until = [0.0]


def enabled() -> bool:
    """Whether moves may be stored here: on PostgreSQL, unless `LIVE_MOVE_SQL_CONNECTIONS` is 0. (Read from
    the settings: asking the connection for its vendor goes through asgiref's thread-critical local on
    every move.)"""
    return (settings.DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql"
            and int(getattr(settings, "LIVE_MOVE_SQL_CONNECTIONS", DEFAULT_CONNECTIONS) or 0) > 0)


@dataclass(frozen=True, slots=True)
class MoveRow:
    """A move's row as the statement inserts it: `LiveMove`'s columns (building that model took a few
    microseconds more a move)."""
    live_game_id: int
    version: int
    hand_number: int
    seat: int | None
    actor: str
    user_id: int | None
    action: dict[str, Any] | None
    events: list[dict[str, Any]]
    hand_seats: list[int]
    client_move_id: str
    via_token: bool
    created_at: datetime


@dataclass(frozen=True)
class OrdinaryMove:
    """One move's row and the game row's new columns: `move` is its row (a `MoveRow`, or an unsaved
    `LiveMove`; its `version` the new one), acting on `version - 1` with the row's `seats_version` as the
    worker knows it."""
    move: MoveRow | LiveMove
    seats_version: int
    deadline: datetime | None
    missed_turns: list[int]
    bot_takeover: list[bool]
    arrived: list[bool] | None  # None: the column is left as it is (a table without an arrival countdown)
    now: datetime


def _statement() -> str:
    game, move = LiveGame._meta, LiveMove._meta

    def g(name: str) -> str:
        return f'"{game.get_field(name).column}"'

    def m(name: str) -> str:
        return f'"{move.get_field(name).column}"'

    return (
        f'WITH g AS (UPDATE "{game.db_table}" AS l SET {g("version")} = %(version)s, {g("deadline")} = %(deadline)s, '
        f'{g("missed_turns")} = %(missed_turns)s::jsonb, {g("bot_takeover")} = %(bot_takeover)s::jsonb, '
        f'{g("arrived")} = COALESCE(%(arrived)s::jsonb, l.{g("arrived")}), {g("updated_at")} = %(now)s, '
        f'{g("seats_moved")} = l.{g("seats_moved")} | %(bit)s::bigint '
        f'FROM "{game.db_table}" AS o '
        f'WHERE l.{g("id")} = %(live_id)s AND o.{g("id")} = %(live_id)s AND l.{g("version")} = %(acted_on)s '
        f'AND l.{g("seats_version")} = %(seats_version)s AND l.{g("status")} = %(running)s '
        f'AND l.{g("paused_at")} IS NULL RETURNING l.{g("id")}, o.{g("seats_moved")} & %(bit)s::bigint AS moved) '
        f'INSERT INTO "{move.db_table}" ({m("live_game")}, {m("version")}, {m("hand_number")}, {m("seat")}, '
        f'{m("actor")}, {m("user")}, {m("action")}, {m("events")}, {m("hand_seats")}, {m("client_move_id")}, '
        f'{m("via_token")}, {m("created_at")}) '
        f'SELECT g.{g("id")}, %(version)s, %(hand_number)s, %(seat)s, %(actor)s, %(user_id)s, %(action)s::jsonb, '
        f'%(events)s::jsonb, %(hand_seats)s::jsonb, %(client_move_id)s, %(via_token)s, %(now)s FROM g '
        f'RETURNING (SELECT g.moved <> 0 FROM g)'
    )


_sql: list[tuple[str, list[str]]] = []


def statement() -> tuple[str, list[str]]:
    """The one statement (built from the models' table and column names) with PostgreSQL's own `$n`
    placeholders, and the names of its parameters in their order (each connection prepares it once)."""
    if not _sql:
        names: list[str] = []

        def number(match: re.Match) -> str:
            if match.group(1) not in names:
                names.append(match.group(1))
            return f"${names.index(match.group(1)) + 1}"

        _sql.append((re.sub(r"%\((\w+)\)s", number, _statement()), names))
    return _sql[0]


def parameters(row: OrdinaryMove) -> dict[str, Any]:
    """The statement's parameters by name; the JSON columns as their compact text, cast in the statement."""
    move = row.move
    text = encode  # compact JSON text, as the frames are encoded
    return {
        "live_id": move.live_game_id, "version": move.version, "acted_on": move.version - 1,
        "seats_version": row.seats_version, "running": LiveGame.Status.RUNNING,
        "deadline": row.deadline, "missed_turns": text(row.missed_turns), "bot_takeover": text(row.bot_takeover),
        "arrived": None if row.arrived is None else text(row.arrived), "now": row.now,
        "hand_number": move.hand_number, "seat": move.seat, "actor": move.actor, "user_id": move.user_id,
        "bit": LiveGame.seat_bit(move.seat) if move.actor == LiveMove.Actor.PLAYER else 0,
        "action": text(move.action), "events": text(move.events), "hand_seats": text(move.hand_seats),
        "client_move_id": move.client_move_id, "via_token": move.via_token,
    }


@dataclass(frozen=True)
class Stored:
    """The move is committed; `first_own_move`: the seat's bit in `seats_moved` was not set before (the
    player's first own move at the seat: `games.services.first_moves`)."""
    first_own_move: bool


async def store(row: OrdinaryMove) -> Stored | None:
    """Store the move and the game's new columns in one statement. `Stored`: committed. None: not stored
    here, for whatever reason (the row moved on, a doubled move id, the database unreachable; if the
    statement's answer was lost it may have been stored): the caller leaves the move to the ORM path.

    A connection that had served before and fails (the server ended it while it sat idle: a restart, an
    administrator) is dropped and the statement sent once more on another: it checks the version, so a
    first one that did commit only makes the second find the row moved on."""
    if time.monotonic() < _resting_until[0]:
        counts["resting"] += 1
        return None
    live_id = row.move.live_game_id
    try:
        pool = await _pool()
        values = parameters(row)
        args = [values[name] for name in statement()[1]]
        for again in (False, True):
            held = await _connection(pool)
            try:
                answer = await held.statement.fetchrow(*args, timeout=STATEMENT_TIMEOUT)
            except asyncpg.UniqueViolationError:  # the seat's client move id is used: the ORM path says how
                pool.putconn(held)
                counts["doubled_id"] += 1
                return None
            except _CONNECTION_ERRORS as error:
                pool.drop(held)
                if held.used and not again and not isinstance(error, TimeoutError):
                    counts["retried"] += 1
                    continue
                raise
            except asyncpg.PostgresError:
                pool.putconn(held)
                counts["error"] += 1
                logger.exception("one-statement move at live game %s failed", live_id)
                return None
            except BaseException:  # cancelled mid-statement: the connection's state is unknown
                pool.drop(held)
                raise
            held.used += 1
            pool.putconn(held)
            counts["stored" if answer is not None else "not_taken"] += 1
            return None if answer is None else Stored(first_own_move=not answer[0])
    except _CONNECTION_ERRORS as error:
        counts["error"] += 1
        _resting_until[0] = time.monotonic() + REST_AFTER_ERROR
        logger.warning("one-statement move at live game %s not taken: database unreachable (%s)",
                       live_id, error.__class__.__name__, exc_info=True)
    return None


_CONNECTION_ERRORS = (OSError, TimeoutError, asyncpg.PostgresConnectionError, asyncpg.InterfaceError,
                      asyncpg.InternalClientError, asyncpg.exceptions.OperatorInterventionError,
                      asyncpg.TooManyConnectionsError)


async def _connection(pool: move_pool.MovePool) -> move_pool.Held:
    try:
        return await pool.getconn(timeout=WAIT_FOR_CONNECTION)
    except TimeoutError:
        # Every connection open and in use: the worker is loaded (its event loop runs late, so each
        # statement holds its connection longer), not the database away. The move waits its turn here:
        # the ORM path would cost the loaded worker several times the CPU (a cascade).
        if not pool.all_busy:
            raise
        counts["waited"] += 1
        return await pool.getconn(timeout=WAIT_WHEN_BUSY)


# ---- the pool: one per event loop (a worker has one) ----------------------------------------------------

_pools: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # loop -> (pool, its closer)


async def _pool() -> move_pool.MovePool:
    loop = asyncio.get_running_loop()
    held = _pools.get(loop)
    if held is not None:
        return held[0]
    close_abandoned()
    size = int(getattr(settings, "LIVE_MOVE_SQL_CONNECTIONS", DEFAULT_CONNECTIONS))
    pool = move_pool.MovePool(size, statement()[0])
    closer = _closed_with_the_loop(pool)
    _pools[loop] = (pool, closer)
    await closer.__anext__()  # an async generator the loop closes when it shuts down (asyncio.run, uvicorn)
    return pool


async def _closed_with_the_loop(pool: move_pool.MovePool):
    """Closes `pool` when the event loop shuts its async generators down (or when `close` is called):
    its connections end with the worker, or with a test's loop, instead of lingering until collected."""
    try:
        yield
    finally:
        try:
            await pool.close()
        except Exception:  # noqa: BLE001 - the loop is going away: nothing more to do
            logger.debug("closing the live moves' pool failed", exc_info=True)


async def close() -> None:
    """Close this event loop's pool (tests; a worker's pool closes with its loop)."""
    held = _pools.pop(asyncio.get_running_loop(), None)
    if held is not None:
        await held[1].aclose()


def close_abandoned() -> None:
    """End the connections of pools whose event loop closed without shutting its async generators down (a
    test's loop may): their sockets cannot be closed without a loop, so PostgreSQL ends their sessions.
    Called when a new loop makes its pool, and by the test suite before the test database is dropped."""
    servers: set[int] = set()
    for loop, (pool, _) in list(_pools.items()):
        if loop.is_closed():
            _pools.pop(loop, None)
            servers |= pool.servers
    if servers:
        with connections["default"].cursor() as cursor:
            cursor.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE pid = ANY(%s)",
                           [sorted(servers)])


def connection_kwargs() -> dict[str, Any]:
    """psycopg's connection arguments for the default database, as Django connects (its NAME, USER,
    PASSWORD, HOST, PORT and driver OPTIONS), autocommitted: for the bench programs that read the
    database beside the site."""
    db = connections["default"].settings_dict
    options = {k: v for k, v in (db.get("OPTIONS") or {}).items()
               if k not in ("pool", "isolation_level", "assume_role", "server_side_binding", "cursor_factory",
                            "context")}
    kwargs: dict[str, Any] = {"dbname": db["NAME"], **options, "autocommit": True}
    for key, name in (("USER", "user"), ("PASSWORD", "password"), ("HOST", "host"), ("PORT", "port")):
        if db.get(key):
            kwargs[name] = db[key]
    return kwargs
