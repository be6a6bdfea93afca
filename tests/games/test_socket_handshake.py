"""What a client sees on a real server (Daphne, as in production) when the table socket is refused: every
refusal at connect (foreign or missing Origin, no such game, someone else's practice game) is an HTTP 403
answer to the handshake, not a close code; an open socket the server closes gets its close code."""

import asyncio

import pytest

from tests.games.factories import make_tournament_game
from tests.protocol_schema import check_server_frame
from tournament.services.live_tables import live_game_for

pytestmark = [pytest.mark.django_db(transaction=True)]


async def _handshake(url: str, origin: str | None):
    import websockets

    try:
        async with websockets.connect(url, origin=origin, open_timeout=10) as ws:
            first = await asyncio.wait_for(ws.recv(), 10)
            await ws.send("x" * 70_000)
            try:
                await asyncio.wait_for(ws.recv(), 10)
            except websockets.ConnectionClosed as closed:
                return "open", first, closed.rcvd.code if closed.rcvd else None
            return "open", first, None
    except websockets.InvalidStatus as refused:
        return "refused", refused.response.status_code, None


def test_refusals_at_connect_are_a_403_and_closes_after_it_are_codes(live_asgi):
    tgame, _ = make_tournament_game(2)
    live = live_game_for(tgame, seed=3)
    base = live_asgi.url.replace("http://", "ws://")
    origin = live_asgi.url

    async def run():
        return [
            await _handshake(f"{base}/ws/games/{live.pk}/", origin),
            await _handshake(f"{base}/ws/games/{live.pk}/", "http://evil.example"),
            await _handshake(f"{base}/ws/games/{live.pk}/", None),
            await _handshake(f"{base}/ws/games/{live.pk + 1000}/", origin),
        ]

    opened, foreign, missing, unknown = asyncio.run(run())
    assert opened[0] == "open" and opened[2] == 4413
    check_server_frame(f"/ws/games/{live.pk}/", opened[1])  # the first frame is a `state`
    assert opened[1].startswith('{"type":"state"')
    assert foreign == ("refused", 403, None)
    assert missing == ("refused", 403, None)
    assert unknown == ("refused", 403, None)
