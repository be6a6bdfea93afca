"""What a page may send on the tournament's own sockets (the event's leaderboard, "My event", the live round
view): ``{"type": "refresh"}`` and nothing else. One check for the three, so each refuses the same frames
with the same words (the answer is an ``error`` message; the socket stays open).

Before that check, every frame passes the limits the table sockets apply (`games.socket_limits.FrameLimitsMixin`): a frame too large closes the socket (4413), too many frames are answered with an
error and then, past twice the rate, close it (4429)."""

from __future__ import annotations

import json

MAX_MESSAGE_BYTES = 256
MIN_SECONDS_BETWEEN_REFRESHES = 1.0
REFRESH = {"type": "refresh"}


def refusal(text_data: str | None) -> str | None:
    """Why this frame is not a refresh request, in words for the page; None when it is one."""
    if text_data is None:
        return "send JSON text, not binary data"
    if len(text_data.encode()) > MAX_MESSAGE_BYTES:
        return f"message too large (limit {MAX_MESSAGE_BYTES} bytes)"
    try:
        content = json.loads(text_data)
    except ValueError:
        return "message is not valid JSON"
    if content != REFRESH:
        return 'unknown message; the only message accepted is {"type": "refresh"}'
    return None


def too_soon(last_refresh: float, now: float) -> str | None:
    """Why a refresh at `now` (monotonic seconds) is refused after one at `last_refresh`; None if it is not."""
    if now - last_refresh < MIN_SECONDS_BETWEEN_REFRESHES:
        return "refreshing too often; wait a second"
    return None

