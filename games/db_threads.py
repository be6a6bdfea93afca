"""The live layer's database threads: where its database work runs when it is called from an event loop.

Channels' `database_sync_to_async` is thread-sensitive by default: every call of every socket of a worker
process runs in one thread, so a worker makes one move at a time and waits for the database in between.
On PostgreSQL the calls run instead on a pool of `LIVE_DB_THREADS` threads (each with its own
connection, kept for `CONN_MAX_AGE` seconds), so moves at different tables overlap; moves at one table
are still serialised by the game row's lock. SQLite allows one writer at a time: there (setting 0) the
calls keep Channels' one thread.

`in_arrival_order` keeps the moves a process receives for one table in the order they arrived (the
pool would otherwise let them race for the game row's lock); `load_changes` makes one such call per
process for a change that all of a table's sockets there need.

`run` also publishes the "changed, version N" signals the call commits (`games.services.broadcast`) from
the calling event loop, each as soon as its transaction has committed, instead of from the database
thread; the awaiting caller resumes once they are sent.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import functools
import threading
import weakref
from concurrent.futures import ThreadPoolExecutor

from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import close_old_connections

from games.services import broadcast, snapshots

_pool: ThreadPoolExecutor | None = None
_pool_lock = threading.Lock()


def thread_count() -> int:
    """Database threads per process; 0 or 1: Channels' one shared thread."""
    return int(getattr(settings, "LIVE_DB_THREADS", 0) or 0)


def _executor(size: int) -> ThreadPoolExecutor:
    global _pool
    with _pool_lock:
        if _pool is None:
            _pool = ThreadPoolExecutor(max_workers=size, thread_name_prefix="live-db")
        return _pool


def _with_fresh_connections(func):
    """As Channels' `database_sync_to_async`, connections past `CONN_MAX_AGE` (or broken) are closed
    after the call; done inside the call, in the context its queries ran in (from the thread handler
    around it, Channels' way, a pool thread's connection was never closed). Not also before it, as
    Channels does: that check costs a measurable share of a loaded worker's CPU, and a connection that
    aged while idle is closed after its next call instead."""
    @functools.wraps(func)
    def call(*args, **kwargs):
        try:
            return func(*args, **kwargs)
        finally:
            close_old_connections()
    return call


async def run(func, /, *args, **kwargs):
    """`func(*args, **kwargs)` on a database thread; its committed table changes announced from here."""
    size = thread_count()
    async with broadcast.announcing() as announcer:
        job = _with_fresh_connections(announcer.wrap(func))
        if size <= 1:
            return await sync_to_async(job)(*args, **kwargs)
        return await sync_to_async(job, thread_sensitive=False, executor=_executor(size))(*args, **kwargs)


_background: ThreadPoolExecutor | None = None


def in_background(func, /, *args) -> concurrent.futures.Future:
    """`func(*args)` on a thread of its own for a caller that does not wait for it: a future to watch.

    Not one of the threads `run` uses: asgiref leaves the event loop of the last `sync_to_async` call in
    such a thread's locals, and an `async_to_sync` there (a channel-layer send) would be handed to that
    loop, which may be busy waiting for this very work or already closed. On its own thread the send
    goes from a loop of its own, and the work runs to its end whatever became of the caller's loop."""
    global _background
    with _pool_lock:
        if _background is None:
            _background = ThreadPoolExecutor(max_workers=1, thread_name_prefix="live-background")
    return _background.submit(_with_fresh_connections(func), *args)


_loads: dict[tuple, asyncio.Future] = {}


async def load_changes(live_id: int, after: int, version: int) -> tuple[snapshots.Snapshot | None, list]:
    """`snapshots.changes_since` on a database thread (also filling this process's snapshot cache). The
    sockets of one table in a process hear of a change at the same moment and have usually been sent the
    same version: one database call serves them all (the first starts it, the others wait for it)."""
    loop = asyncio.get_running_loop()
    key = (id(loop), live_id, after, version)
    pending = _loads.get(key)
    if pending is None:
        pending = _loads[key] = asyncio.ensure_future(run(snapshots.changes_since, live_id, after, version))
        pending.add_done_callback(lambda _: _loads.pop(key, None))
    return await asyncio.shield(pending)


_move_queues: weakref.WeakValueDictionary = weakref.WeakValueDictionary()


def in_arrival_order(live_id: int) -> asyncio.Lock:
    """A lock per table in this process and event loop, to hold while a move is submitted: moves that
    reach one process for one table are taken in the order they arrived (asyncio's lock is first come,
    first served), as they were on Channels' one thread. It costs no overlap: moves at one table wait for
    the game row's lock anyway. Kept only while in use."""
    key = (id(asyncio.get_running_loop()), live_id)
    lock = _move_queues.get(key)
    if lock is None:
        lock = _move_queues[key] = asyncio.Lock()
    return lock
