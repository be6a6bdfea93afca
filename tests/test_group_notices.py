"""Group messages go out once the change commits, never for a change rolled back, and a layer that cannot
send is logged, not raised (config/group_notices.py, used by every app's notices)."""

import asyncio
import logging

import pytest
from asgiref.sync import async_to_sync
from channels.layers import InMemoryChannelLayer
from django.db import transaction

from config import group_notices

pytestmark = pytest.mark.django_db(transaction=True)


async def drained(layer: InMemoryChannelLayer, channel: str) -> list[dict]:
    got = []
    while True:
        try:
            got.append(await asyncio.wait_for(layer.receive(channel), 0.1))
        except TimeoutError:
            return got


def test_sent_after_commit_and_never_for_a_rollback(monkeypatch):
    layer = InMemoryChannelLayer()
    monkeypatch.setattr(group_notices, "get_channel_layer", lambda: layer)
    channel = async_to_sync(layer.new_channel)()
    async_to_sync(layer.group_add)("notices-test", channel)
    with transaction.atomic():
        group_notices.send_after_commit([("notices-test", {"type": "x.kept"})], what="a test")
        assert async_to_sync(drained)(layer, channel) == []  # not before the commit
    with pytest.raises(RuntimeError), transaction.atomic():
        group_notices.send_after_commit([("notices-test", {"type": "x.dropped"})], what="a test")
        raise RuntimeError("rolled back")
    assert [m["type"] for m in async_to_sync(drained)(layer, channel)] == ["x.kept"]


def test_a_layer_that_cannot_send_is_logged_not_raised(monkeypatch, caplog):
    class Down:
        async def group_send(self, group, message):
            raise ConnectionError("redis is down")

    monkeypatch.setattr(group_notices, "get_channel_layer", lambda: Down())
    with caplog.at_level(logging.WARNING, logger="config.group_notices"):
        group_notices.send_now([("g1", {"type": "a"}), ("g2", {"type": "b"})], what="a test")
    assert [r.getMessage() for r in caplog.records] == ["could not send a test to group g1",
                                                        "could not send a test to group g2"]


def _no_loop_of_its_own(*args, **kwargs):
    raise AssertionError("a notice started an event loop of its own (async_to_sync)")


def test_a_thread_working_for_an_event_loop_sends_through_it_without_waiting(monkeypatch):
    """A background thread of a worker (`through_loop`) hands its notices to the worker's loop: no event
    loop of its own per notice (in a loaded worker, a new channel-layer connection and a walk through
    every task of the process each time), and it does not wait for the send."""
    layer = InMemoryChannelLayer()
    monkeypatch.setattr(group_notices, "get_channel_layer", lambda: layer)
    monkeypatch.setattr(group_notices, "async_to_sync", _no_loop_of_its_own)

    async def scenario() -> list[dict]:
        channel = await layer.new_channel()
        await layer.group_add("notices-test", channel)
        loop = asyncio.get_running_loop()

        def in_thread() -> None:
            with group_notices.through_loop(loop):
                group_notices.send_now([("notices-test", {"type": "x.one"}), ("notices-test", {"type": "x.two"})],
                                       what="a test")

        await asyncio.to_thread(in_thread)
        return await drained(layer, channel)

    assert [m["type"] for m in asyncio.run(scenario())] == ["x.one", "x.two"]


def test_a_loop_that_has_stopped_is_passed_by(monkeypatch):
    """The loop a thread was working for has ended (a test's, a worker shutting down): the notice is sent
    from the thread as anywhere else, not handed to a loop that would never run it."""
    layer = InMemoryChannelLayer()
    monkeypatch.setattr(group_notices, "get_channel_layer", lambda: layer)
    channel = async_to_sync(layer.new_channel)()
    async_to_sync(layer.group_add)("notices-test", channel)
    ended = asyncio.new_event_loop()
    ended.close()
    with group_notices.through_loop(ended):
        group_notices.send_now([("notices-test", {"type": "x.sent"})], what="a test")
    assert [m["type"] for m in async_to_sync(drained)(layer, channel)] == ["x.sent"]
