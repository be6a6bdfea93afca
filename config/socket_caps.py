"""Caps on websockets per account and per client address, in front of every consumer.

Each socket counts against its account when its user is logged in (session or access token), else
against its client address (`scope["client"]`: the proxy's `X-Forwarded-For` once uvicorn runs with
`--proxy-headers`, as `make prod` does). Two caps, each answered by accepting the handshake and closing
at once with `CLOSE_TOO_MANY_SOCKETS` and a reason that says which:

- sockets opened per window (`SOCKET_OPEN_RATE`, default 30 per 10 s; every attempt counts, a refused
  one too): counted in the cache, so with
  Redis (`REDIS_URL`) the count is shared by every worker and machine; the counter is a fixed window
  that expires by itself.
- sockets open at once (`SOCKET_MAX_OPEN_PER_ACCOUNT`, default 12; `SOCKET_MAX_OPEN_PER_ADDRESS` for
  anonymous sockets, default 60): counted in this worker's memory, so a count can never outlive the
  sockets it counts (a worker that dies takes its count with it). With N workers the most one account
  can hold open is N times the cap; the opening rate, which is shared, still holds across them.
- logged-in sockets open at once per client address (`SOCKET_MAX_OPEN_PER_ADDRESS_LOGGED_IN`, default
  400), counted like the one above: one person with many accounts cannot multiply the account cap
  without bound. It is a separate, larger count than the anonymous one because a campus network may put
  a whole hall of students behind one address.

The cache is called as it is, from the event loop (one Redis round trip per opening, well under a
millisecond): a hop to a thread would queue behind the database work of Channels' thread.

A campus network may put many people behind one address: the address caps are settings to raise for
such a site (docs/security.md).
"""

from __future__ import annotations

from collections import Counter

from django.conf import settings

from config.socket_refusal import refuse
from games.window_counts import count_one

CLOSE_TOO_MANY_SOCKETS = 4430
DEFAULT_OPEN_RATE = (30, 10)  # sockets opened per account (or anonymous address) per 10 seconds
DEFAULT_MAX_OPEN_PER_ACCOUNT = 12
DEFAULT_MAX_OPEN_PER_ADDRESS = 60
DEFAULT_MAX_OPEN_PER_ADDRESS_LOGGED_IN = 400

_open: Counter = Counter()  # this worker's open sockets per account or address


def who(scope) -> tuple[str, str] | None:
    """("account"|"address", key) the socket counts against, or None (no user and no address known)."""
    user = scope.get("user")
    if user is not None and getattr(user, "is_authenticated", False):
        return "account", f"user:{user.pk}"
    client = scope.get("client")
    if client and client[0]:
        return "address", f"addr:{client[0]}"
    return None


def logged_in_address(scope) -> str | None:
    """The key a logged-in socket also counts against (its client address), or None."""
    user = scope.get("user")
    client = scope.get("client")
    if user is None or not getattr(user, "is_authenticated", False) or not client or not client[0]:
        return None
    return f"users-addr:{client[0]}"


def max_open_logged_in_per_address() -> int:
    return getattr(settings, "SOCKET_MAX_OPEN_PER_ADDRESS_LOGGED_IN", DEFAULT_MAX_OPEN_PER_ADDRESS_LOGGED_IN)


def max_open(kind: str) -> int:
    if kind == "account":
        return getattr(settings, "SOCKET_MAX_OPEN_PER_ACCOUNT", DEFAULT_MAX_OPEN_PER_ACCOUNT)
    return getattr(settings, "SOCKET_MAX_OPEN_PER_ADDRESS", DEFAULT_MAX_OPEN_PER_ADDRESS)


def opened_in_window(key: str) -> tuple[int, int, int]:
    """Count one more socket opened by `key`; (count in this window, limit, window seconds)."""
    limit, window = getattr(settings, "SOCKET_OPEN_RATE", DEFAULT_OPEN_RATE)
    return count_one(f"socket-opens:{key}", window) or 0, limit, window


class SocketCaps:
    """ASGI middleware for websockets (inside the authentication, so that the user is known)."""

    def __init__(self, app) -> None:
        self.app = app

    async def __call__(self, scope, receive, send):
        counted = who(scope)
        if counted is None:
            return await self.app(scope, receive, send)
        kind, key = counted
        count, limit, window = opened_in_window(key)  # every attempt counts, a refused one too
        if count > limit:
            return await refuse(receive, send, CLOSE_TOO_MANY_SOCKETS,
                                f"too many sockets opened by this {kind} (limit {limit} per {window:g} s): "
                                "wait a little, then try again")
        cap = max_open(kind)
        if _open[key] >= cap:
            return await refuse(receive, send, CLOSE_TOO_MANY_SOCKETS,
                                f"too many open sockets for this {kind} (limit {cap}): close some first")
        address = logged_in_address(scope)
        address_cap = max_open_logged_in_per_address()
        if address is not None and _open[address] >= address_cap:
            return await refuse(receive, send, CLOSE_TOO_MANY_SOCKETS,
                                f"too many open sockets of logged-in accounts from this address "
                                f"(limit {address_cap}): close some first")
        counted_keys = [key] if address is None else [key, address]
        for counted_key in counted_keys:
            _open[counted_key] += 1
        try:
            return await self.app(scope, receive, send)
        finally:
            for counted_key in counted_keys:
                _open[counted_key] -= 1
                if _open[counted_key] <= 0:
                    del _open[counted_key]
