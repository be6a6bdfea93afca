"""The bare relay of bench/relay.py answers the live protocol's shape: a move is acknowledged with the next
version and every socket of the table (and only that table) gets the numbered update."""

import importlib

import pytest
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.urls import path

from bench.relay import RelayConsumer

app = URLRouter([path("ws/bench/relay/<int:table>/", RelayConsumer.as_asgi())])


async def open_socket(table: int) -> WebsocketCommunicator:
    comm = WebsocketCommunicator(app, f"/ws/bench/relay/{table}/")
    connected, _ = await comm.connect()
    assert connected
    assert await comm.receive_json_from() == {"type": "state", "version": 0, "role": "player"}
    return comm


async def test_a_move_is_acked_and_relayed_to_the_whole_table_only():
    mover, other, elsewhere = await open_socket(3), await open_socket(3), await open_socket(4)
    try:
        await mover.send_json_to({"type": "move", "version": 7, "id": "m1", "seat": 0, "action": {"type": "draw"}})
        assert await mover.receive_json_from() == {"type": "ack", "id": "m1", "version": 8}
        expected = {"type": "update", "version": 8, "by": {"seat": 0, "actor": "player"},
                    "events": [{"kind": "relayed", "action": {"type": "draw"}}]}
        assert await mover.receive_json_from() == expected
        assert await other.receive_json_from() == expected
        assert await elsewhere.receive_nothing(timeout=0.2)
        await other.send_to(text_data="not json")
        assert (await other.receive_json_from())["code"] == "malformed"
    finally:
        for comm in (mover, other, elsewhere):
            await comm.disconnect()


def test_relay_route_is_mounted_only_when_asked(monkeypatch, settings):
    import config.websocket_urls as urls

    def relay_mounted() -> bool:
        return any("bench/relay" in str(p.pattern) for p in importlib.reload(urls).websocket_urlpatterns)

    try:
        monkeypatch.delenv("BENCH_RELAY", raising=False)
        settings.BENCH_RELAY = False
        assert not relay_mounted()
        monkeypatch.setenv("BENCH_RELAY", "1")
        assert relay_mounted()
        monkeypatch.delenv("BENCH_RELAY")
        settings.BENCH_RELAY = True
        assert relay_mounted()
    finally:
        monkeypatch.delenv("BENCH_RELAY", raising=False)
        settings.BENCH_RELAY = False
        importlib.reload(urls)


pytestmark = [pytest.mark.filterwarnings("ignore::DeprecationWarning")]
