"""At most one mail of a kind per account per interval: a form that sends mail on request (the link that
verifies an address, the password-reset link) cannot flood anyone's mailbox.

The mark lives in the cache (Redis in production, shared by every worker) and expires by itself; the key
holds the account's creation time, so a deleted account's mark does not hold back a new one of the same id.
"""

from __future__ import annotations

from django.core.cache import cache

INTERVAL_SECONDS = 60  # one mail of a kind a minute per account


def may_send(kind: str, user, seconds: int | None = None) -> bool:
    """True (and the interval starts) when no ``kind`` mail went to ``user`` in the last ``seconds``
    (default ``INTERVAL_SECONDS``; 0: always)."""
    seconds = INTERVAL_SECONDS if seconds is None else seconds
    if not seconds:
        return True
    return cache.add(f"mail-sent:{kind}:{user.pk}:{user.date_joined.timestamp()}", True, timeout=seconds)
