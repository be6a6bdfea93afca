"""The nudge to a table's outside watchers (`LiveGame.watch_group`): at most one a second per group, the
last never dropped; a move made through a socket nudges the group after it commits."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.utils import timezone

from games.engine import get_preset
from games.models import LiveConnection
from games.services import nudges, presence
from games.services.lifecycle import open_tournament_table
from tests.games.factories import login_socket, make_tournament_game

pytestmark = [pytest.mark.usefixtures("live_settings")]


class Listener:
    """A channel of the layer joined to `group`, read by one task for the whole test (a receive cancelled
    by a timeout may lose its message on the Redis layer)."""

    def __init__(self, layer, group: str) -> None:
        self.layer, self.group = layer, group
        self.queue: asyncio.Queue = asyncio.Queue()

    async def __aenter__(self):
        self.channel = await self.layer.new_channel()
        await self.layer.group_add(self.group, self.channel)
        self.task = asyncio.get_running_loop().create_task(self._read())
        return self

    async def _read(self) -> None:
        while True:
            await self.queue.put(await self.layer.receive(self.channel))

    async def __aexit__(self, *exc) -> None:
        self.task.cancel()
        await self.layer.group_discard(self.group, self.channel)

    async def received(self, wait: float) -> list[dict]:
        """What arrives within `wait` seconds."""
        await asyncio.sleep(wait)
        got = []
        while not self.queue.empty():
            got.append(self.queue.get_nowait())
        return got


async def test_many_nudges_inside_a_second_make_one_now_and_one_when_the_second_is_over(settings):
    settings.LIVE_WATCH_NUDGE_SECONDS = 0.5
    async with Listener(get_channel_layer(), "round-test-live") as listener:
        for _ in range(10):  # before the first is sent: one nudge covers them all
            nudges.nudge_soon("round-test-live", 7)
        assert await listener.received(0.2) == [{"type": "table.changed", "live_id": 7}]
        for _ in range(5):  # inside the second after it: held back, then one
            nudges.nudge_soon("round-test-live", 7)
        assert await listener.received(0.1) == []
        assert await listener.received(0.6) == [{"type": "table.changed", "live_id": 7}]
        nudges.nudge_soon("", 7)  # no group: nothing
        assert await listener.received(0.6) == []


@pytest.mark.django_db(transaction=True)
async def test_a_move_through_a_socket_nudges_the_watch_group_after_it_commits():
    def table():
        game, users = make_tournament_game(players=3)
        live = open_tournament_table(game, get_preset("uno-official"), 3, "t", turn_seconds=0,
                                     missed_turns_before_bot=0, seed=5, watch_group="round-w-live")
        return live, users
    live, users = await database_sync_to_async(table)()
    async with Listener(get_channel_layer(), "round-w-live") as listener:
        sockets = [await login_socket(live.pk, user) for user in users]
        states = [await s.connect() for s in sockets]
        await listener.received(1.2)  # the arrivals' nudges
        mover = next(i for i, s in enumerate(states) if s["view"] and s["view"]["legal_actions"])
        action = {k: v for k, v in states[mover]["view"]["legal_actions"][0].items() if k != "seat"}
        await sockets[mover].send({"type": "move", "version": states[mover]["version"], "action": action,
                                   "id": "m1"})
        await sockets[mover].receive_until(lambda m: m["type"] == "ack")
        assert {"type": "table.changed", "live_id": live.pk} in await listener.received(1.5)
        for s in sockets:
            await s.close()


@pytest.mark.django_db(transaction=True)
async def test_a_seat_whose_worker_died_nudges_the_watch_group(settings):
    settings.LIVE_PRESENCE_HEARTBEAT = 0.05
    settings.LIVE_PRESENCE_TTL = 0.1

    def table():
        game, _users = make_tournament_game(players=3)
        live = open_tournament_table(game, get_preset("uno-official"), 3, "t", turn_seconds=0,
                                     missed_turns_before_bot=0, seed=5, watch_group="round-dead-live")
        LiveConnection.objects.create(live_game=live, seat=1, channel_name="dead.1",
                                      last_seen=timezone.now() - timedelta(seconds=60))
        return live
    live = await database_sync_to_async(table)()
    async with Listener(get_channel_layer(), "round-dead-live") as listener:
        beating = asyncio.get_running_loop().create_task(presence.heartbeat_forever())
        try:
            assert {"type": "table.changed", "live_id": live.pk} in await listener.received(1.0)
        finally:
            beating.cancel()
