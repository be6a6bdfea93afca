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
