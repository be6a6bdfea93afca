"""Limits on the frames a client sends on a socket, shared by every consumer that reads frames (the
table's, the live leaderboard's, "My event"'s, the organizer's live round view's, the bots' stream's, the
health probe's, through `FrameLimitsMixin`): a frame over
`CLOSE_MESSAGE_BYTES` closes the socket (4413); past its rate (`limit` frames per `window` seconds) a frame
is answered with an error, and past `FLOOD_FACTOR` times that rate in one window the socket is closed
(4429). Each close carries a reason.
"""

from __future__ import annotations

import time
from typing import NamedTuple

from django.conf import settings

from games.socket_messages import utf8_size

CLOSE_MESSAGE_BYTES = 65536  # larger: the socket is closed (4413)
FLOOD_FACTOR = 2  # a socket that goes on sending past twice its limit in one window is closed (4429)
CLOSE_TOO_LARGE = 4413
CLOSE_FLOOD = 4429
SLOW_DOWN = "too many messages; slow down"
RATE_LIMIT = (30, 5.0)  # players: at most 30 messages per 5 seconds (setting LIVE_SOCKET_RATE_LIMIT)
READER_RATE_LIMIT = (20, 5.0)  # spectators and pages only ask again (setting LIVE_SPECTATOR_RATE_LIMIT)


def player_rate() -> tuple[int, float]:
    return getattr(settings, "LIVE_SOCKET_RATE_LIMIT", RATE_LIMIT)


def reader_rate() -> tuple[int, float]:
    """The rate of a socket that only reads: a table's spectator, a leaderboard, "My event"."""
    return getattr(settings, "LIVE_SPECTATOR_RATE_LIMIT", READER_RATE_LIMIT)


class Refusal(NamedTuple):
    close_code: int | None  # None: answer the frame with an error (`reason`) and keep the socket
    reason: str


class FrameGate:
    """One socket's count of the frames it was sent in the current window."""

    def __init__(self) -> None:
        self.recent: list[float] = []

    def count(self, window: float) -> int:
        """Count this frame; the number of frames in the current window."""
        now = time.monotonic()
        self.recent = [t for t in self.recent if now - t < window]
        self.recent.append(now)
        return len(self.recent)

    def judge(self, text_data: str | None, bytes_data: bytes | None, rate: tuple[int, float]) -> Refusal | None:
        """None if the frame may be read; else what to do about it."""
        size = utf8_size(text_data) if text_data is not None else len(bytes_data or b"")
        if size > CLOSE_MESSAGE_BYTES:
            return Refusal(CLOSE_TOO_LARGE, f"frame too large (over {CLOSE_MESSAGE_BYTES} bytes): send smaller messages")
        limit, window = rate
        count = self.count(window)
        if count > limit * FLOOD_FACTOR:
            return Refusal(CLOSE_FLOOD, f"too many messages (limit {limit} per {window:g} s): slow down, then reconnect")
        if count > limit:
            return Refusal(None, SLOW_DOWN)
        return None


class FrameLimitsMixin:
    """For a websocket consumer with ``close(code, reason)`` and ``send_rate_error(text)``: call
    ``frame_refused`` first in ``receive`` and read nothing more when it says so."""

    frames: FrameGate | None = None
    closed_by_limit: bool = False

    def frame_rate(self) -> tuple[int, float]:
        """(frames, seconds) for this socket: a reader's unless the consumer says otherwise."""
        return reader_rate()

    async def frame_refused(self, text_data: str | None, bytes_data: bytes | None) -> bool:
        """Whether this frame is not to be read: the socket was closed for a limit, or this frame broke
        one (then the socket is closed, or the frame answered with an error)."""
        if self.closed_by_limit:  # frames the client sent before it heard of the close
            return True
        if self.frames is None:
            self.frames = FrameGate()
        refused = self.frames.judge(text_data, bytes_data, self.frame_rate())
        if refused is None:
            return False
        if refused.close_code is None:
            await self.send_rate_error(refused.reason)
            return True
        self.closed_by_limit = True
        await self.close(code=refused.close_code, reason=refused.reason)
        return True
