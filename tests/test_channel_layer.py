"""config/channel_layer.py: a group message is decoded once per process, whatever the number of its sockets."""

import asyncio
import os
import secrets

import pytest

from config.channel_layer import KEEP, SharedDecodingPubSubLayer


def layer_with_key() -> SharedDecodingPubSubLayer:
    return SharedDecodingPubSubLayer(hosts=[{"address": "redis://127.0.0.1:6379/0"}],
                                     symmetric_encryption_keys=[secrets.token_urlsafe(40)])


def test_the_same_bytes_are_decoded_once_and_equal_bytes_apart(monkeypatch):
    layer = layer_with_key()
    payload = layer.serialize({"type": "game.changed", "version": 3, "change": {"state": {"hands": [[1, 2]]}}})
    calls = []
    real = type(layer._serializer).deserialize

    def counted(serializer, message):
        calls.append(message)
        return real(serializer, message)

    monkeypatch.setattr(type(layer._serializer), "deserialize", counted)
    first = layer.deserialize(payload)
    assert layer.deserialize(payload) is first and len(calls) == 1
    assert first == {"type": "game.changed", "version": 3, "change": {"state": {"hands": [[1, 2]]}}}
    copy = bytes(bytearray(payload))  # equal, but not what Redis delivered to these sockets
    assert layer.deserialize(copy) == first and len(calls) == 2


def test_only_the_newest_messages_are_kept():
    layer = layer_with_key()
    payloads = [layer.serialize({"type": "x", "n": n}) for n in range(KEEP + 10)]
    for payload in payloads:
        layer.deserialize(payload)
    assert len(layer._decoded) == KEEP
    assert layer.deserialize(payloads[0]) == {"type": "x", "n": 0}  # dropped, decoded again


@pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="needs Redis: set REDIS_URL (CI's second run does)")
async def test_sockets_of_one_process_in_a_group_share_one_decoded_message():
    layer = SharedDecodingPubSubLayer(hosts=[{"address": os.environ["REDIS_URL"]}],
                                      prefix=f"shared-{secrets.token_hex(4)}",
                                      symmetric_encryption_keys=[secrets.token_urlsafe(40)])
    try:
        channels = [await layer.new_channel() for _ in range(3)]
        for channel in channels:
            await layer.group_add("table-9", channel)
        await layer.group_send("table-9", {"type": "game.changed", "version": 5})
        received = [await asyncio.wait_for(layer.receive(c), 5) for c in channels]
        assert received[0] == {"type": "game.changed", "version": 5}
        assert all(r is received[0] for r in received)
    finally:
        await layer.flush()


@pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="needs Redis: set REDIS_URL (CI's second run does)")
async def test_a_message_sealed_with_another_key_is_dropped_and_the_next_one_read(caplog):
    prefix = f"keys-{secrets.token_hex(4)}"
    ours, theirs = (SharedDecodingPubSubLayer(hosts=[{"address": os.environ["REDIS_URL"]}], prefix=prefix,
                                              symmetric_encryption_keys=[secrets.token_urlsafe(40)])
                    for _ in range(2))
    try:
        channel = await ours.new_channel()
        await ours.group_add("table-7", channel)
        await theirs.group_send("table-7", {"type": "game.changed", "version": 1})  # another site's key
        await ours.group_send("table-7", {"type": "game.changed", "version": 2})
        assert await asyncio.wait_for(ours.receive(channel), 5) == {"type": "game.changed", "version": 2}
        assert "sealed with another key" in caplog.text
    finally:
        await ours.flush()
        await theirs.flush()
