"""A table socket's frames bypass Channels' session wrapper (`games.direct_send`), its user is resolved
once (`seats.resolved_user`), a frame is read with orjson (`strict_json`) and a version's snapshot is made
without `dataclasses.replace` (`snapshots.moved_on`): each as it was, only cheaper."""

import dataclasses
import json
import random

import pytest
from channels.auth import UserLazyObject
from channels.sessions import InstanceSessionWrapper
from django.contrib.auth.models import AnonymousUser

from games import strict_json
from games.direct_send import server_send
from games.services import snapshots
from games.services.seats import resolved_user
from tests.games.test_table_play import play_one, setup_table


def test_server_send_is_the_send_beneath_the_session_wrapper():
    async def the_server(message):
        pass

    wrapper = InstanceSessionWrapper({"type": "websocket", "cookies": {}}, the_server)
    assert server_send(wrapper.send) is the_server
    assert server_send(the_server) is the_server  # any other send is used as it is


@pytest.mark.django_db(transaction=True)
async def test_a_tables_frames_never_pass_the_session_wrapper(monkeypatch):
    seen = []
    wrapped_send = InstanceSessionWrapper.send

    async def counted(self, message):
        seen.append(message["type"])
        return await wrapped_send(self, message)

    monkeypatch.setattr(InstanceSessionWrapper, "send", counted)
    game, live, users, sockets, states = await setup_table()
    assert all(s["type"] == "state" for s in states)  # the sockets were opened through the session middleware
    await play_one(sockets, 1)
    await sockets[0].send({"type": "ping", "echo": 2**70})  # beyond 64 bits: read as a float, echoed
    pong = await sockets[0].receive_until(lambda m: m["type"] == "pong")
    assert pong["echo"] == float(2**70)
    for s in sockets:
        await s.close()
    assert seen == []


def test_the_user_behind_channels_lazy_user():
    lazy = UserLazyObject()
    assert resolved_user(lazy) is lazy  # not resolved yet: left as it is
    user = AnonymousUser()
    lazy._wrapped = user
    assert resolved_user(lazy) is user
    assert resolved_user(user) is user and resolved_user(None) is None


def test_the_nesting_read_on_the_value_is_the_texts():
    rng = random.Random(5)

    def value(depth):
        if depth == 0 or rng.random() < 0.2:
            return rng.choice([1, "[{", None, 2.5, "x]"])
        if rng.random() < 0.5:
            return [value(depth - 1) for _ in range(rng.randint(0, 3))]
        return {str(i): value(depth - 1) for i in range(rng.randint(0, 3))}

    for _ in range(500):
        text = json.dumps(value(rng.randint(0, 20)))
        for limit in (0, 3, 16):
            deeper = strict_json.nesting_depth(text) > limit
            assert strict_json.deeper_than(json.loads(text), limit) == deeper, text
            if deeper:
                with pytest.raises(ValueError, match=f"nested more than {limit} levels deep"):
                    strict_json.loads(text, limit)
            else:
                assert strict_json.loads(text, limit) == json.loads(text)


def test_moved_on_is_replace():
    snap = snapshots.Snapshot(1, 2, "tournament", "running", False, False, "T", None, [0, 1], [], None, None, 30,
                              [0, 0], [False, False], None, built={"x": 1})
    changes = {"version": 3, "deadline": None, "missed_turns": [1, 0], "arrived": (True,), "built": {}}
    moved = snapshots.moved_on(snap, **changes)
    assert moved == dataclasses.replace(snap, **changes) and moved.built == {} and snap.built == {"x": 1}
    assert snap.version == 2 and moved.version == 3
    with pytest.raises(TypeError, match="no field versoin"):
        snapshots.moved_on(snap, versoin=3)
    with pytest.raises(dataclasses.FrozenInstanceError):
        moved.version = 4
