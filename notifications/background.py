"""Where notifications are sent: background threads of the process that made the change, after it committed.

A receiver calls `after_commit(job, *args)` inside the service's or the move's transaction; once it
commits, the job is queued to this process's builder thread, so neither the request nor the move waits for
a database read of the recipients, a push service or an SMTP server (a rolled-back change queues nothing).
The builder reads who is told what and hands the notices to `per_student(job, notices)`: each student's go
to one of `NOTIFICATION_THREADS` sender threads (default 4), always the same one for the same student. So a
big round's pushes go out on every sender at once, while one student's notices keep their order and their
mail's rate is decided one at a time (within a process).

Threads rather than the sweeper process: the sweeper polls the database for due work, which would need a
queue table and would add its polling delay to "your table is ready"; a thread starts at once and needs
nothing stored. The price: a process killed between the commit and the send loses that notification, and
the student's page still shows the change when opened. Each job closes its database connection when done
(it goes back to the pool on PostgreSQL).
"""

from __future__ import annotations

import logging
import threading
from collections import defaultdict
from concurrent.futures import Future, ThreadPoolExecutor, wait

from django.conf import settings
from django.db import close_old_connections, connection, transaction

logger = logging.getLogger(__name__)

_builder: ThreadPoolExecutor | None = None
_senders: list[ThreadPoolExecutor] = []
_pending: set[Future] = set()
_lock = threading.RLock()  # a future done already runs its callback (_forget) at once, in this thread


def after_commit(job, *args) -> None:
    """Run `job(*args)` on the builder thread once the current transaction commits (at once outside one);
    nothing with the setting NOTIFY_STUDENTS off."""
    if settings.NOTIFY_STUDENTS:
        transaction.on_commit(lambda: submit(job, *args))


def submit(job, *args) -> Future:
    """Run `job(*args)` on the builder thread."""
    global _builder
    with _lock:
        if _builder is None:
            _builder = ThreadPoolExecutor(max_workers=1, thread_name_prefix="notifications-build")
        return _queue(_builder, job, args)


def per_student(job, notices: list) -> None:
    """Run `job(part)` for each student's part of `notices`, on the sender thread of that student."""
    parts: dict[int, list] = defaultdict(list)
    with _lock:
        if not _senders:
            _senders.extend(ThreadPoolExecutor(max_workers=1, thread_name_prefix=f"notifications-send-{n}")
                            for n in range(settings.NOTIFICATION_THREADS))
        for notice in notices:
            parts[notice.user_id % len(_senders)].append(notice)
        for shard, part in parts.items():
            _queue(_senders[shard], job, (part,))


def _queue(executor: ThreadPoolExecutor, job, args) -> Future:
    try:
        future = executor.submit(_run, job, *args)
    except RuntimeError:  # the interpreter is exiting (a command that just ended): send now, in this thread
        future = Future()
        _run(job, *args)
        future.set_result(None)
        return future
    _pending.add(future)
    future.add_done_callback(_forget)
    return future


def _forget(future: Future) -> None:
    with _lock:
        _pending.discard(future)


def _run(job, *args) -> None:
    close_old_connections()
    try:
        job(*args)
    except Exception:  # noqa: BLE001 - a notification lost must never break the next one
        logger.exception("notification job %s failed", getattr(job, "__name__", job))
    finally:
        connection.close()


def flush(timeout: float = 30.0) -> None:
    """Wait until every job queued so far, and every job they queued, has run (tests, and a command that
    exits right after)."""
    while True:
        with _lock:
            pending = set(_pending)
        if not pending:
            return
        wait(pending, timeout=timeout)
