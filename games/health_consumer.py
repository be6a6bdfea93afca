"""The websocket health probe (`ws/health/`): lets a client or a probe check that websockets reach the site
through proxies and workers. Anyone may open it, so its frames pass the limits every socket applies
(`games.socket_limits`): a flood or a huge frame closes it."""

from __future__ import annotations

from channels.generic.websocket import AsyncJsonWebsocketConsumer

from games import strict_json
from games.socket_limits import FrameLimitsMixin
from games.socket_messages import utf8_size


class HealthConsumer(FrameLimitsMixin, AsyncJsonWebsocketConsumer):
    """Answers ``{"type": "ping"}`` with ``{"type": "pong"}``: lets a client or a probe check that
    websockets reach the site through proxies and workers. Anything else gets an error message."""

    async def connect(self) -> None:
        await self.accept()
        user = self.scope.get("user")
        await self.send_json(
            {"type": "hello", "user": user.get_username() if user and user.is_authenticated else None}
        )

    async def receive(self, text_data=None, bytes_data=None) -> None:
        if await self.frame_refused(text_data, bytes_data):  # too large, too many
            return
        if text_data is None or utf8_size(text_data) > 1024:
            await self.send_json({"type": "error", "error": "send a JSON text message under 1 KiB"})
            return
        await super().receive(text_data=text_data)

    async def decode_json(self, text_data):
        try:
            return strict_json.loads(text_data)
        except ValueError:
            return None

    async def receive_json(self, content, **kwargs) -> None:
        if isinstance(content, dict) and content.get("type") == "ping":
            await self.send_json({"type": "pong", "echo": content.get("echo")})
        else:
            await self.send_json({"type": "error", "error": 'unknown message; send {"type": "ping"}'})

    async def send_rate_error(self, reason: str) -> None:  # `FrameLimitsMixin`: too many frames
        await self.send_json({"type": "error", "error": reason})
