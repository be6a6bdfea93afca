"""Giving a worker's freed memory back to the system: glibc's `malloc_trim`, from a thread of its own.

CPython hands its small-object arenas back when they empty, but larger blocks (a `state` message's text,
a game read from the database as it is parsed) come from glibc's malloc, which keeps what is freed inside
its heap for reuse and returns only what lies at the top of it. After a thousand sockets connect (each
reads its table and builds its first state), a worker kept about 8 KiB per socket this way: in the
500-table bench, 82 KiB per socket with the sockets open, 74 after a trim (the bare relay's 58 either way).

A daemon thread trims the heap within a second of the process growing by `GROWN_MIB` since the last trim,
and at least every `MALLOC_TRIM_SECONDS` otherwise. The call releases the GIL (ctypes), so the event loop
goes on; other threads' allocations from the same arena wait while it runs (20-45 ms for a heap of 900 MB
on the development machine). Only where the C library is glibc; ``MALLOC_TRIM_SECONDS=0`` turns it off.
Written here: it is one C call, and no maintained package does only this.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import threading
import time

from config.environment import number

CHECK_SECONDS = 1.0  # how often the thread looks at the process's size
GROWN_MIB = 8.0  # a trim once the process has grown this much since the last one
TRIM_SECONDS = 30.0  # and at least this often

_started: list[threading.Thread] = []


def _malloc_trim():
    """glibc's `malloc_trim`, or None (another C library)."""
    name = ctypes.util.find_library("c")
    if not name:
        return None
    try:
        trim = ctypes.CDLL(name).malloc_trim
    except (OSError, AttributeError):
        return None
    trim.argtypes, trim.restype = [ctypes.c_size_t], ctypes.c_int
    return trim


def rss_mib() -> float:
    """This process's resident memory (Linux), or 0.0 where it cannot be read."""
    try:
        with open(f"/proc/{os.getpid()}/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20
    except (OSError, ValueError, IndexError):
        return 0.0


def trim_now() -> bool:
    """Trim the heap now; False where there is no `malloc_trim`."""
    trim = _malloc_trim()
    if trim is None:
        return False
    trim(0)
    return True


def due(size: float, size_then: float, now: float, then: float, every: float) -> bool:
    """Whether to trim: grown by `GROWN_MIB` since the last trim (`size_then` MiB at `then`), or `every`
    seconds since it."""
    return size - size_then >= GROWN_MIB or now - then >= every


def start() -> bool:
    """Start the trimming thread (once per process); False when turned off or not on glibc."""
    every = number("MALLOC_TRIM_SECONDS", TRIM_SECONDS, minimum=0.0)
    trim = _malloc_trim()
    if not every or trim is None:
        return False
    if not _started:
        thread = threading.Thread(target=_trim_forever, args=(trim, every), daemon=True, name="malloc-trim")
        _started.append(thread)
        thread.start()
    return True


def _trim_forever(trim, every: float) -> None:
    size_then, then = rss_mib(), time.monotonic()
    while True:
        time.sleep(CHECK_SECONDS)
        size, now = rss_mib(), time.monotonic()
        if due(size, size_then, now, then, every):
            trim(0)
            size_then, then = rss_mib(), time.monotonic()
