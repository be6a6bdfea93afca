"""A table socket's frames go straight to the server's send, beneath Channels' session wrapper.

A browser's socket passes Channels' `SessionMiddleware` (for the login it carries), whose wrapper looks at
the session on every message the consumer sends (`modified`, `is_empty()`, each through a lazy object) to
save it and set its cookie on an HTTP response; a websocket frame is never one, so the wrapper only
passes it on. At 50 tables of four that was 2 % of a worker's samples (py-spy), paid once per frame. The
consumer is handed the send beneath the wrapper, and sends a text frame as the ASGI message itself
(`send_text`), without `AsyncWebsocketConsumer.send`'s two calls. The session is still resolved at
connect (the user is read from it) and nothing else changes: the wrapper saves nothing for these messages.

`server_send` unwraps only `InstanceSessionWrapper` (Channels' own, which keeps the send it wraps as
`real_send`); any other send is used as it is, so a Channels release that renames it costs the saving
only (tests/games/test_direct_send.py notices that).
"""

from __future__ import annotations

from channels.sessions import InstanceSessionWrapper


def server_send(send):
    """The send beneath Channels' session wrapper, or `send` itself when it is not that wrapper's."""
    wrapper = getattr(send, "__self__", None)
    if isinstance(wrapper, InstanceSessionWrapper):
        real = getattr(wrapper, "real_send", None)
        if callable(real):
            return real
    return send


class DirectSendMixin:
    """For an `AsyncWebsocketConsumer`: its messages go to `server_send(send)`; `send_text` sends one
    text frame."""

    async def __call__(self, scope, receive, send):
        return await super().__call__(scope, receive, server_send(send))

    async def send_text(self, text: str) -> None:
        await self.base_send({"type": "websocket.send", "text": text})
