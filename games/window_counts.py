"""Counts of events per key in fixed time windows, kept in the cache: shared by every worker and machine
when the cache is Redis (`REDIS_URL`), this process's memory otherwise. A window's count expires with it,
so nothing has to be cleaned up and a dead worker leaves nothing behind. Used for the caps on socket
openings (`config.socket_caps`) and practice-game starts (`games.services.practice_caps`)."""

from __future__ import annotations

import logging

from django.core.cache import cache

logger = logging.getLogger(__name__)


def count_one(key: str, window: float) -> int | None:
    """Count one more event for `key`; how many there were in its current window (this one included), or
    None if the cache could not be reached (the caller's other caps still hold)."""
    name = f"window-count:{key}"
    try:
        cache.add(name, 0, timeout=window)
        return cache.incr(name)
    except ValueError:  # the window ended between the two calls: this is the first of a new one
        cache.add(name, 1, timeout=window)
        return 1
    except Exception:  # noqa: BLE001 - e.g. Redis down
        logger.warning("could not count %s in the cache", key, exc_info=True)
        return None
