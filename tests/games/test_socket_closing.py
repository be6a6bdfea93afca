"""The server closing a table socket (4413 too large, 4429 flood): it sends nothing more on it, even while
moves go on being broadcast to the table, and the seat stops counting as connected at once, without
waiting for the client's side of the close. Sizes are counted in UTF-8 bytes."""

import pytest
from autobahn.exception import Disconnected
from channels.db import database_sync_to_async

from games.consumers import GameConsumer
from games.services import presence
from tests.games.test_table_play import play_one, setup_table
from tests.games.test_table_refusals import on_turn

pytestmark = [pytest.mark.django_db(transaction=True)]


async def _closed_with(sock) -> dict:
    out = await sock.comm.receive_output(timeout=3)
    while out["type"] == "websocket.send":  # what was sent before the close
        out = await sock.comm.receive_output(timeout=3)
    return out


async def _too_large(sock) -> int:
    await sock.send("x" * 70_000)
    return 4413


async def _flood(sock) -> int:
    for n in range(5):  # limit 2 per minute: 2 pongs, 2 rate_limited, then closed
        await sock.send({"type": "ping", "echo": n})
    return 4429


@pytest.mark.parametrize("offence", [_too_large, _flood])
async def test_a_closed_socket_is_sent_nothing_more_and_its_seat_is_away_at_once(live_settings, offence):
    if offence is _flood:
        live_settings.LIVE_SOCKET_RATE_LIMIT = (2, 60.0)
    game, live, users, sockets, states = await setup_table()
    mover, others = on_turn(sockets)
    victim, third = others
    seat = victim.state["seat"]
    assert seat in await database_sync_to_async(presence.connected_seats)(live.pk)
    code = await offence(victim)
    closed = await _closed_with(victim)
    assert closed["type"] == "websocket.close" and closed["code"] == code
    # the client has not finished its side of the close: the server already counts the seat as away...
    assert seat not in await database_sync_to_async(presence.connected_seats)(live.pk)
    assert await _presence_without(third, seat)  # the table is told
    # ...and a move broadcast to the table now is not sent on the closed socket
    await play_one([mover, third], 1)
    assert await victim.comm.receive_nothing(timeout=0.3)
    await victim.comm.disconnect()  # the client's side of the close: nothing runs twice
    assert seat not in await database_sync_to_async(presence.connected_seats)(live.pk)
    for s in (mover, third):
        await s.close()


async def _presence_without(sock, seat) -> dict:
    """The first `presence` message that no longer lists `seat` (a receive times out if none comes)."""
    while True:
        message = await sock.receive(timeout=3, presence=True)
        if message["type"] == "presence" and seat not in message["connected"]:
            return message


async def test_the_closing_size_is_counted_in_utf8_bytes():
    game, live, users, sockets, states = await setup_table(players=2)
    sock = sockets[0]
    await sock.send('{"type": "ping", "echo": "' + "\u20ac" * 30_000 + '"}')  # 30,000 characters, 90,000 bytes
    closed = await _closed_with(sock)
    assert closed["code"] == 4413 and closed["reason"] == "frame too large (over 65536 bytes): send smaller messages"
    await sock.comm.disconnect()
    await sockets[1].close()


@pytest.mark.parametrize("refusal", [Disconnected("Attempt to send on a closed protocol"),  # Daphne
                                     OSError("client disconnected")])  # uvicorn's ClientDisconnected
async def test_a_broadcast_reaching_a_socket_whose_client_just_closed_is_dropped(refusal):
    """A presence change (or an update) can reach a socket after its client closed and before the server
    reports it: the server refuses the send. That is no error of the consumer's: nothing is raised (the
    consumer lives on to handle the disconnect report) and nothing more is sent on it."""
    consumer = GameConsumer()
    sent = []

    async def refuse(message):
        sent.append(message)
        raise refusal

    consumer.base_send = refuse
    await consumer.presence_changed({"connected": [0]})
    await consumer.presence_changed({"connected": [0, 1]})
    assert consumer.closed and len(sent) == 1
