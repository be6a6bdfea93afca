"""The bare relay: the live table protocol's shape with nothing behind it, to put our move path's cost
as a ratio (`bench/live/` runs both in the same server and the same run).

A socket at ``ws/bench/relay/<table>/`` joins the table's group and gets a ``state`` (version 0). A
``move`` is acknowledged at once (``ack`` with ``version`` + 1) and a numbered ``update`` goes to the
table's group through the channel layer, which every socket of the table forwards to its client. No
rule check, no database, no per-viewer view: only parsing, the channel layer and the sockets.

Mounted only when the setting or environment variable ``BENCH_RELAY`` is on (config/websocket_urls.py).
"""

from __future__ import annotations

import json

from channels.generic.websocket import AsyncWebsocketConsumer

from games.consumers import GameConsumer


def relay_group(table: int) -> str:
    return f"bench-relay-{table}"


class RelayConsumer(AsyncWebsocketConsumer):
    # The game's dispatch: without Channels' hop to its database thread before every message, which the
    # game's sockets skip too (it was 16% of a relay worker's time, and every socket's messages queued on
    # that one thread: the relay's own tail).
    dispatch = GameConsumer.dispatch

    async def connect(self) -> None:
        self.group = relay_group(int(self.scope["url_route"]["kwargs"]["table"]))
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        await self.send(text_data=json.dumps({"type": "state", "version": 0, "role": "player"}))

    async def disconnect(self, code) -> None:
        await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data=None, bytes_data=None) -> None:
        try:
            message = json.loads(text_data or "")
        except ValueError:
            message = None
        if not isinstance(message, dict) or message.get("type") not in ("move", "ping"):
            await self.send(text_data=json.dumps({"type": "error", "code": "malformed", "message": "move or ping"}))
            return
        if message["type"] == "ping":
            await self.send(text_data=json.dumps({"type": "pong", "echo": message.get("echo")}))
            return
        version = int(message.get("version", 0)) + 1
        await self.send(text_data=json.dumps({"type": "ack", "id": message.get("id", ""), "version": version}))
        await self.channel_layer.group_send(self.group, {
            "type": "relay.update", "version": version, "seat": message.get("seat"),
            "action": message.get("action"),
        })

    async def relay_update(self, event: dict) -> None:
        await self.send(text_data=json.dumps({
            "type": "update", "version": event["version"], "by": {"seat": event["seat"], "actor": "player"},
            "events": [{"kind": "relayed", "action": event["action"]}],
        }, separators=(",", ":")))
