"""Everything the table socket refuses: out-of-turn and illegal moves, acting for another seat or as a
spectator, malformed messages, stale versions, duplicates. Each gets an error naming what was wrong and
leaves the game unchanged; reconnecting mid-hand shows exactly the same view."""

import asyncio
import json

import pytest
from channels.db import database_sync_to_async

from games.models import LiveConnection, LiveGame, LiveMove, LiveWatcher
from tests.games.factories import Socket, login_socket, make_tournament_game
from tests.games.test_table_play import play_one, setup_table, without_seat
from tournament.services.live_tables import live_game_for

pytestmark = [pytest.mark.django_db(transaction=True)]


async def stored_version(live) -> tuple[int, int]:
    game = await database_sync_to_async(LiveGame.objects.get)(pk=live.pk)
    moves = await database_sync_to_async(LiveMove.objects.filter(live_game=live).count)()
    return game.version, moves


def on_turn(sockets):
    turn = sockets[0].state["view"]["turn"]
    mover = next(s for s in sockets if s.state["hand_seat"] == turn)
    others = [s for s in sockets if s is not mover]
    return mover, others


async def test_out_of_turn_and_illegal_moves_are_refused_and_change_nothing():
    game, live, users, sockets, states = await setup_table()
    mover, others = on_turn(sockets)
    before = await stored_version(live)
    waiting = others[0]
    await waiting.send({"type": "move", "version": 1, "action": {"type": "draw"}, "id": "x1"})
    error = await waiting.receive()
    assert error == {"type": "error", "code": "illegal", "message": "it is not your turn", "id": "x1", "version": 1}
    # a card the player does not hold
    held = set(mover.state["view"]["hand"])
    missing = next(c for c in ("R0", "G0", "B0", "Y0", "R1", "G1") if c not in held)
    await mover.send({"type": "move", "version": 1, "action": {"type": "play", "card": missing}})
    error = await mover.receive()
    assert error["code"] == "illegal" and error["message"] == f"you do not hold {missing}"
    # a card that is not a card
    await mover.send({"type": "move", "version": 1, "action": {"type": "play", "card": "ZZ"}})
    error = await mover.receive()
    assert error["code"] == "malformed" and "'card' must be a card code" in error["message"]
    assert await stored_version(live) == before
    for s in sockets:
        assert await s.drain() == []  # nothing was broadcast
        await s.close()


async def test_a_player_cannot_act_for_another_seat_nor_a_spectator_at_all():
    game, live, users, sockets, states = await setup_table()
    mover, others = on_turn(sockets)
    intruder = others[0]
    action = dict(mover.state["view"]["legal_actions"][0])  # includes the mover's seat
    await intruder.send({"type": "move", "version": 1, "action": action})
    error = await intruder.receive()
    assert error["code"] == "forbidden"
    assert error["message"] == f"you may only act for your own seat ({intruder.state['hand_seat']})"
    watcher = Socket(live.pk)
    await watcher.connect()
    await watcher.send({"type": "move", "version": 1, "action": without_seat(action)})
    error = await watcher.receive()
    assert error["code"] == "forbidden" and error["message"].startswith("spectators cannot act")
    assert await stored_version(live) == (1, 1)
    for s in [*sockets, watcher]:
        await s.close()


@pytest.mark.parametrize(("frame", "expected"), [
    ("not json", "message is not valid JSON"),
    ("[1, 2]", "a message must be a JSON object"),
    ('"sync"', "a message must be a JSON object"),
    ('{"type": "fly"}', "unknown message type 'fly'"),
    ('{"kind": "sync"}', "unknown message type None"),
    ('{"type": 5}', "unknown message type 5"),
    ('{"type": "sync", "extra": 1}', "unexpected field(s) for 'sync': extra"),
    ('{"type": "move", "action": {"type": "draw"}}', "'version' must be the game version"),
    ('{"type": "move", "version": "1", "action": {"type": "draw"}}', "'version' must be the game version"),
    ('{"type": "move", "version": true, "action": {"type": "draw"}}', "'version' must be the game version"),
    ('{"type": "move", "version": -1, "action": {"type": "draw"}}', "'version' must be the game version"),
    ('{"type": "move", "version": 1}', "'action' must be an object"),
    ('{"type": "move", "version": 1, "action": "draw"}', "'action' must be an object"),
    ('{"type": "move", "version": 1, "action": {"type": "draw"}, "id": 7}', "'id' must be a string"),
    ('{"type": "move", "version": 1, "action": {"type": "draw"}, "id": "' + "x" * 65 + '"}', "'id' must be a string"),
    # Found by the fuzz on PostgreSQL: a NUL in the id reached the database and was answered 'unavailable'.
    ('{"type": "move", "version": 1, "action": {"type": "draw"}, "id": "a\\u0000b"}', "printable characters"),
    ('{"type": "move", "version": 1, "action": {"type": "jump"}}', "unknown action type 'jump'"),
    ('{"type": "move", "version": 1, "action": {"type": "draw", "card": "R1"}}', "unexpected field(s) for 'draw'"),
    ('{"type": "move", "version": 1, "action": {"type": "catch", "target": "x"}}', "'target' must be a seat"),
    ('{"type": "ping", "echo": "' + "x" * 5000 + '"}', "message too large (limit 4096 bytes)"),
    # 4,096 bytes counted in UTF-8: 2,000 characters of 3 bytes each are too large
    ('{"type": "ping", "echo": "' + "\u20ac" * 2000 + '"}', "message too large (limit 4096 bytes)"),
    # Nested arrays under the size limit: Python's parser recursed once per level (RecursionError).
    ("[" * 1500, "nested more than 16 levels deep"),
    ('{"type": "ping", "echo": ' + "[" * 1500 + "]" * 1500 + "}", "nested more than 16 levels deep"),
    # Numbers JSON does not have (JavaScript's JSON.parse cannot read them back in a pong).
    ('{"type": "ping", "echo": NaN}', "NaN is not a JSON number"),
    ('{"type": "ping", "echo": Infinity}', "Infinity is not a JSON number"),
    ('{"type": "ping", "echo": -Infinity}', "-Infinity is not a JSON number"),
    ('{"type": "ping", "echo": 1e999}', "the number 1e999 is too large"),
    ('{"type": "ping", "echo": [-1E400]}', "the number -1E400 is too large"),
])
async def test_malformed_messages_get_an_error_naming_the_problem(frame, expected):
    game, live, users, sockets, states = await setup_table()
    mover, _ = on_turn(sockets)
    await mover.send(frame)
    error = await mover.receive()
    assert error["type"] == "error" and error["code"] == "malformed", error
    assert expected in error["message"], error["message"]
    # the socket still works afterwards, and nothing was stored
    await mover.send({"type": "ping", "echo": [1]})
    assert await mover.receive() == {"type": "pong", "echo": [1]}
    assert await stored_version(live) == (1, 1)
    for s in sockets:
        await s.close()


async def test_binary_frames_are_refused():
    game, live, users, sockets, states = await setup_table()
    await sockets[0].comm.send_to(bytes_data=b"\x00\x01")
    error = await sockets[0].receive()
    assert error["code"] == "malformed" and "binary" in error["message"]
    for s in sockets:
        await s.close()


async def test_a_stale_version_is_refused_with_the_fresh_state():
    game, live, users, sockets, states = await setup_table()
    await play_one(sockets, 1)
    mover, _ = on_turn(sockets)
    await mover.send({"type": "move", "version": 1, "action": without_seat(mover.state["view"]["legal_actions"][0])})
    error = await mover.receive()
    assert error["code"] == "stale" and error["version"] == 2
    state = await mover.receive()
    assert state["type"] == "state" and state["version"] == 2
    assert await stored_version(live) == (2, 2)
    for s in sockets:
        await s.close()


async def test_a_version_from_the_future_is_told_apart_from_a_stale_one():
    """A client that acts on a version it was never sent (a bug in a bot) hears that its version is ahead,
    not that "the game has moved on"; the current state follows as for any stale move."""
    game, live, users, sockets, states = await setup_table()
    mover, _ = on_turn(sockets)
    await mover.send({"type": "move", "version": 9, "action": without_seat(mover.state["view"]["legal_actions"][0])})
    error = await mover.receive()
    assert error["code"] == "stale" and error["version"] == 1
    assert "version 9 is ahead of the game" in error["message"] and "moved on" not in error["message"]
    assert (await mover.receive())["type"] == "state"
    assert await stored_version(live) == (1, 1)
    for s in sockets:
        await s.close()


async def test_a_socket_at_a_deleted_game_is_closed_with_its_reason():
    game, live, users, sockets, states = await setup_table(players=2)
    for _ in range(50):  # both sockets' presence rows are stored (after their state): then delete the game
        if await database_sync_to_async(LiveConnection.objects.filter(live_game_id=live.pk).count)() == 2:
            break
        await asyncio.sleep(0.1)
    await database_sync_to_async(LiveGame.objects.filter(pk=live.pk).delete)()
    await sockets[0].send({"type": "sync"})
    error = await sockets[0].receive()
    assert error["code"] == "not_found"
    closed = await sockets[0].comm.receive_output(timeout=3)
    assert closed == {"type": "websocket.close", "code": 4404, "reason": "this game does not exist any more"}


async def test_a_move_sent_twice_is_played_once():
    game, live, users, sockets, states = await setup_table()
    mover, _ = on_turn(sockets)
    action = without_seat(mover.state["view"]["legal_actions"][0])
    await play_one(sockets, 1)  # plays exactly this action with id "m1"
    # the same move again, same id (a client retrying after a lost ack)
    await mover.send({"type": "move", "version": 1, "action": action, "id": "m1"})
    error = await mover.receive()
    assert error["code"] == "already_played" and error["id"] == "m1"
    # the same action for the version it already moved on from, without an id
    await mover.send({"type": "move", "version": 1, "action": action})
    error = await mover.receive()
    assert error["code"] == "already_played"
    assert await stored_version(live) == (2, 2)
    for s in sockets:
        await s.close()


async def test_a_used_move_id_for_another_move_is_refused_as_reused_not_as_played():
    """A bot restarted mid-game that numbers its ids from 1 again: `already_played` would tell it its move
    was applied when it was not. The id is refused as reused, nothing is applied, and the same move under
    a new id is taken."""
    game, live, users, sockets, states = await setup_table(players=2)
    ids_used, version = {}, 1
    while True:  # play until the seat on turn is one that already sent a move with an id
        mover, _ = on_turn(sockets)
        if mover in ids_used:
            break
        ids_used[mover] = f"m{version}"  # play_one's id
        await play_one(sockets, version)
        version += 1
    action = without_seat(mover.state["view"]["legal_actions"][0])
    used = ids_used[mover]
    await mover.send({"type": "move", "version": version, "action": action, "id": used})
    error = await mover.receive_until(lambda m: m["type"] == "error")
    assert error["code"] == "id_reused" and error["id"] == used and "already used" in error["message"]
    assert await stored_version(live) == (version, version)
    await mover.send({"type": "move", "version": version, "action": action, "id": "restarted-1"})
    assert (await mover.receive_until(lambda m: m["type"] == "ack"))["version"] == version + 1
    for s in sockets:
        await s.close()


def without_presence(game: dict) -> dict:
    return {**game, "seats": [{k: v for k, v in seat.items() if k != "connected"} for seat in game["seats"]]}


async def test_reconnecting_mid_hand_gives_exactly_the_same_view():
    game, live, users, sockets, states = await setup_table()
    for version in range(1, 6):
        await play_one(sockets, version)
    before = [s.state for s in sockets]
    for s in sockets:
        await s.close()
    from tests.games.factories import login_socket

    again = [await login_socket(live.pk, u) for u in users]
    fresh = [await s.connect() for s in again]
    for old, new in zip(before, fresh, strict=True):
        assert new["version"] == old["version"] == 6
        assert new["view"] == old["view"]
        assert without_presence(new["game"]) == without_presence(old["game"])
    # and a sync on an open socket gives the same again
    await again[0].send({"type": "sync"})
    synced = await again[0].receive()
    assert synced["type"] == "state" and synced["view"] == fresh[0]["view"]
    assert json.dumps(synced["log"])  # the recent events, as this seat may see them
    for s in again:
        await s.close()


async def test_unknown_and_private_games_refuse_the_socket(django_user_model):
    from games.services.lifecycle import start_practice_game
    from tests.tournament.organizer_factories import make_user

    sock = Socket(999999)
    connected, code = await sock.comm.connect()
    assert not connected and code == 4404
    owner = await database_sync_to_async(make_user)("owner1")
    other = await database_sync_to_async(make_user)("other1")
    live = await database_sync_to_async(start_practice_game)(owner, "uno-official", 2, seed=3)
    stranger = Socket(live.pk)
    connected, code = await stranger.comm.connect()
    assert not connected and code == 4403
    from tests.games.factories import login_socket

    nosy = await login_socket(live.pk, other)
    connected, code = await nosy.comm.connect()
    assert not connected and code == 4403
    mine = await login_socket(live.pk, owner)
    state = await mine.connect()
    assert state["role"] == "player" and state["seat"] == 0 and len(state["view"]["hand"]) == 7
    await mine.close()


async def test_too_many_messages_are_refused(live_settings):
    live_settings.LIVE_SOCKET_RATE_LIMIT = (5, 60.0)
    game, live, users, sockets, states = await setup_table()
    for n in range(5):
        await sockets[0].send({"type": "ping", "echo": n})
        assert (await sockets[0].receive())["type"] == "pong"
    await sockets[0].send({"type": "ping"})
    error = await sockets[0].receive()
    assert error == {"type": "error", "code": "rate_limited", "message": "too many messages; slow down"}
    for s in sockets:
        await s.close()


@pytest.mark.parametrize("role", ["player", "spectator"])
async def test_a_game_deleted_while_its_socket_opens_closes_the_socket_with_its_reason(role, monkeypatch):
    """The organizer deletes the game after the socket read it but before its presence (or watcher) row is
    stored: that row would refer to a game no longer there. The socket is closed as at a deleted game, and
    nothing is left behind."""
    from games.services import presence, watchers
    game, users = await database_sync_to_async(make_tournament_game)(2)
    live = await database_sync_to_async(live_game_for)(game, seed=3)
    module, name = (presence, "socket_opened") if role == "player" else (watchers, "watcher_opened")
    record = getattr(module, name)

    def deleted_first(live_game_id, *args):
        LiveGame.objects.filter(pk=live_game_id).delete()
        return record(live_game_id, *args)

    monkeypatch.setattr(module, name, deleted_first)
    sock = await login_socket(live.pk, users[0]) if role == "player" else Socket(live.pk)
    connected, _ = await sock.comm.connect(timeout=10)
    assert connected
    assert json.loads(await sock.comm.receive_from(timeout=5))["type"] == "state"  # read before the deletion
    closed = await sock.comm.receive_output(timeout=5)
    assert closed == {"type": "websocket.close", "code": 4404, "reason": "this game does not exist any more"}
    assert not await database_sync_to_async(LiveConnection.objects.exists)()
    assert not await database_sync_to_async(LiveWatcher.objects.exists)()
