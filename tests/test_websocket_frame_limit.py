"""uvicorn as `make prod` runs it refuses a websocket frame larger than the app reads, itself (1009),
instead of reading up to 16 MiB before the app closes the socket; frames up to that size reach the app."""

import asyncio
import json

import pytest
import websockets

from games.socket_limits import CLOSE_MESSAGE_BYTES
from tests.live_asgi import makefile_ws_max_size

pytestmark = pytest.mark.django_db(transaction=True)


def test_make_prod_limits_frames_to_what_the_app_reads():
    assert makefile_ws_max_size() == CLOSE_MESSAGE_BYTES


def test_uvicorn_closes_a_socket_sending_a_frame_over_the_limit(live_uvicorn):
    server = live_uvicorn()

    async def exchange() -> tuple[dict, int]:
        url = server.url.replace("http://", "ws://") + "/ws/health/"
        async with websockets.connect(url, origin=server.url, max_size=None) as socket:
            await socket.recv()  # hello
            await socket.send("x" * CLOSE_MESSAGE_BYTES)  # read by the app, which answers an error
            answer = json.loads(await socket.recv())
            await socket.send("x" * (CLOSE_MESSAGE_BYTES + 1))
            with pytest.raises(websockets.ConnectionClosed) as closed:
                await asyncio.wait_for(socket.recv(), 10)
            return answer, closed.value.rcvd.code

    answer, code = asyncio.run(exchange())
    assert answer["type"] == "error"
    assert code == 1009  # message too big, from uvicorn
