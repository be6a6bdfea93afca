"""Counting a process's round trips to PostgreSQL, for the live bench (`bench/live_settings.py`) and the
tests of the one-statement move (tests/games/test_move_sql.py).

PostgreSQL counts statements only with pg_stat_statements loaded at its start, which a shared server may
not have. psycopg, which Django's connections use, makes each round trip in one of two generators: a
query (`BaseCursor._maybe_prepare_gen`: one round trip, one more the first time a connection prepares it)
or a command (`BaseConnection._exec_command`: BEGIN, COMMIT, ROLLBACK, SAVEPOINT). asyncpg, which the
one-statement move uses (games/services/move_pool.py), makes one per prepared statement's `fetchrow` (and
one per connection when it opens, to prepare it: part of opening it, like the connection's own start-up,
not counted). All are wrapped here to count, in this process (`total`) and in the context of a call
(`counting`: a list in a context variable, which asyncio's tasks and asgiref's threads inherit).
"""

from __future__ import annotations

import contextlib
import contextvars
import threading

_installed = threading.Lock()
_done: list[bool] = []
_lock = threading.Lock()
_total = [0]
_in_context: contextvars.ContextVar[list[int] | None] = contextvars.ContextVar("round_trips", default=None)


def install() -> None:
    """Wrap psycopg's two generators and asyncpg's prepared statements (once per process)."""
    from psycopg._connection_base import BaseConnection
    from psycopg._cursor_base import BaseCursor

    with _installed:
        if _done:
            return
        _done.append(True)
        query, command = BaseCursor._maybe_prepare_gen, BaseConnection._exec_command

        def counted_query(self, *args, **kwargs):
            _count()
            return (yield from query(self, *args, **kwargs))

        def counted_command(self, *args, **kwargs):
            _count()
            return (yield from command(self, *args, **kwargs))

        BaseCursor._maybe_prepare_gen = counted_query
        BaseConnection._exec_command = counted_command

        from asyncpg.prepared_stmt import PreparedStatement

        fetchrow = PreparedStatement.fetchrow

        async def counted_fetchrow(self, *args, **kwargs):
            _count()
            return await fetchrow(self, *args, **kwargs)

        PreparedStatement.fetchrow = counted_fetchrow


def _count() -> None:
    with _lock:
        _total[0] += 1
    mine = _in_context.get()
    if mine is not None:
        mine[0] += 1


def total() -> int:
    """Round trips this process has made since `install`."""
    return _total[0]


@contextlib.contextmanager
def counting():
    """`with counting() as trips:` trips[0] is the round trips made in this context (and the tasks and
    database threads it starts) meanwhile."""
    trips = [0]
    token = _in_context.set(trips)
    try:
        yield trips
    finally:
        _in_context.reset(token)
