"""Faults: the database briefly unreachable (a move is refused `unavailable` and nothing of it is stored;
the same move then goes through), and the channel layer (Redis) unreachable (moves are still stored and
acknowledged; sockets catch up without a gap once it is back, or at once with a `sync`)."""

import logging

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.db import InterfaceError, OperationalError

from games.models import LiveGame, LiveMove
from games.services import broadcast, move_sql, snapshots
from tests.games.test_table_play import setup_table, without_seat

pytestmark = [pytest.mark.django_db(transaction=True)]


@database_sync_to_async
def stored(pk):
    live = LiveGame.objects.get(pk=pk)
    return live.version, live.state, list(LiveMove.objects.filter(live_game=live).values_list("version", flat=True))


def mover_of(sockets):
    turn = sockets[0].state["view"]["turn"]
    return next(s for s in sockets if s.state["hand_seat"] == turn)


@pytest.mark.parametrize("error", [OperationalError, InterfaceError])
async def test_a_move_during_a_database_outage_is_refused_unavailable_and_nothing_is_half_applied(
        error, monkeypatch, caplog):
    game, live, users, sockets, states = await setup_table()
    before = await stored(live.pk)
    real = broadcast.announce_on_commit
    calls = []

    def fail_once(*args):  # runs inside the move's transaction, after the state and the move row were saved
        calls.append(args)
        if len(calls) == 1:
            raise error("server closed the connection unexpectedly")
        return real(*args)

    monkeypatch.setattr(broadcast, "announce_on_commit", fail_once)

    async def lost():  # PostgreSQL: the one-statement move's connection is lost too (games/services/move_sql.py)
        raise ConnectionResetError("server closed the connection unexpectedly")

    monkeypatch.setattr(move_sql, "_pool", lost)
    caplog.set_level(logging.WARNING)
    mover = mover_of(sockets)
    move = {"type": "move", "version": 1, "action": without_seat(mover.state["view"]["legal_actions"][0]), "id": "m-1"}
    await mover.send(move)
    refused = await mover.receive()
    assert refused["type"] == "error" and refused["code"] == "unavailable" and refused["id"] == "m-1"
    assert "nothing was applied" in refused["message"]
    assert await stored(live.pk) == before  # rolled back: same version, same state, no move row
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    for s in sockets:
        assert await s.drain() == []  # nobody heard of a change
    await mover.send(move)  # the same move, again: taken now
    assert await mover.receive() == {"type": "ack", "id": "m-1", "version": 2}
    for s in sockets:
        await s.receive_until(lambda m: m["type"] == "update" and m["version"] == 2)
    for s in sockets:
        await s.close()


async def test_a_sync_during_a_database_outage_is_answered_and_the_socket_stays(monkeypatch):
    game, live, users, sockets, states = await setup_table()

    def down(*args):
        raise OperationalError("could not connect to server")

    monkeypatch.setattr(snapshots, "load_snapshot", down)
    await sockets[0].send({"type": "sync"})
    error = await sockets[0].receive()
    assert error["code"] == "unavailable"
    monkeypatch.undo()
    await sockets[0].send({"type": "sync"})
    assert (await sockets[0].receive())["type"] == "state"
    for s in sockets:
        await s.close()


async def test_with_the_channel_layer_down_moves_are_stored_and_acknowledged_and_sockets_catch_up(
        monkeypatch, caplog):
    game, live, users, sockets, states = await setup_table()
    layer = get_channel_layer()

    async def unreachable(*args, **kwargs):
        raise ConnectionError("Redis is unreachable")

    monkeypatch.setattr(layer, "group_send", unreachable)
    mover = mover_of(sockets)
    await mover.send({"type": "move", "version": 1, "action": without_seat(mover.state["view"]["legal_actions"][0]),
                      "id": "a"})
    assert await mover.receive() == {"type": "ack", "id": "a", "version": 2}
    assert (await stored(live.pk))[0] == 2  # stored
    assert any("could not announce version 2" in r.getMessage() for r in caplog.records)
    others = [s for s in sockets if s is not mover]
    for s in sockets:
        assert await s.drain() == []  # the signal was lost
    # a socket that syncs (as a client does on reconnecting or on a gap) has it at once
    await others[0].send({"type": "sync"})
    state = await others[0].receive()
    assert state["type"] == "state" and state["version"] == 2
    monkeypatch.undo()  # Redis is back: the next change brings every socket up to date, with no gap
    nxt = next(s for s in sockets if s.state["hand_seat"] == state["view"]["turn"]) if state["view"] else None
    if nxt is not others[0]:
        await nxt.send({"type": "sync"})
        await nxt.receive_until(lambda m: m["type"] == "state")
    action = without_seat(nxt.state["view"]["legal_actions"][0])
    await nxt.send({"type": "move", "version": 2, "action": action, "id": "b"})
    assert (await nxt.receive_until(lambda m: m["type"] in ("ack", "error")))["type"] == "ack"
    for s in sockets:
        await s.receive_until(lambda m: m["type"] == "update" and m["version"] == 3)
        versions = [f["version"] for f in s.frames if f["type"] in ("update", "state")]
        assert versions == sorted(set(versions)) and versions[-1] == 3
        assert set(range(1, 4)) <= set(versions)  # 2 arrived (as an update or in a state): no gap
    for s in sockets:
        await s.close()
