"""games/db_threads.py: database work off the event loop, its table signals sent from the loop after
the commit, and one load per process for a change that several sockets need."""

import asyncio

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer

from games import db_threads, engine
from games.services import broadcast, snapshots
from games.services.moves import submit_move
from tests.games.factories import make_tournament_game
from tournament.services.live_tables import live_game_for

pytestmark = [pytest.mark.django_db(transaction=True)]


def a_move(live_id: int, users) -> tuple:
    from games.models import LiveGame

    live = LiveGame.objects.get(pk=live_id)
    game = engine.Game.from_dict(live.state)
    action = engine.legal_actions(game.hand, game.hand.turn)[0].to_dict()
    del action["seat"]
    return users[live.hand_seats[game.hand.turn]], live.version, action


async def test_a_move_is_announced_from_the_loop_after_its_commit(live_settings, monkeypatch):
    tgame, users = await database_sync_to_async(make_tournament_game)(3)
    live = await database_sync_to_async(live_game_for)(tgame, seed=5)

    def from_the_thread(*args):
        raise AssertionError("announced with async_to_sync from the database thread")

    monkeypatch.setattr(broadcast, "_send", from_the_thread)
    layer = get_channel_layer()
    channel = await layer.new_channel()
    await layer.group_add(broadcast.table_group_name(live.pk), channel)
    user, version, action = await database_sync_to_async(a_move)(live.pk, users)
    done = await db_threads.run(submit_move, live.pk, user, version, action, "x-1")
    assert done.version == version + 1
    # sent before `run` returned, from this loop: the message is already waiting
    message = await asyncio.wait_for(layer.receive(channel), timeout=1)
    assert message["type"] == broadcast.GAME_CHANGED and message["version"] == done.version
    # across processes (Redis) the change itself goes with the signal; in one process it is cached already
    assert ("change" in message) == broadcast.carries_changes()


async def test_a_refused_move_announces_nothing(live_settings):
    tgame, users = await database_sync_to_async(make_tournament_game)(3)
    live = await database_sync_to_async(live_game_for)(tgame, seed=5)
    layer = get_channel_layer()
    channel = await layer.new_channel()
    await layer.group_add(broadcast.table_group_name(live.pk), channel)
    user, version, action = await database_sync_to_async(a_move)(live.pk, users)
    from games.services.moves import MoveRefused

    with pytest.raises(MoveRefused):
        await db_threads.run(submit_move, live.pk, user, version + 5, action, "x-2")
    with pytest.raises(asyncio.TimeoutError):
        await asyncio.wait_for(layer.receive(channel), timeout=0.2)


async def test_sockets_hearing_of_a_change_made_elsewhere_load_it_once(live_settings, monkeypatch):
    tgame, users = await database_sync_to_async(make_tournament_game)(3)
    live = await database_sync_to_async(live_game_for)(tgame, seed=5)
    user, version, action = await database_sync_to_async(a_move)(live.pk, users)
    done = await database_sync_to_async(submit_move)(live.pk, user, version, action, "x-3")
    snapshots.forget_all()  # as in a process that did not make the move
    calls = []
    real = snapshots.changes_since

    def counted(*args):
        calls.append(args)
        return real(*args)

    monkeypatch.setattr(snapshots, "changes_since", counted)
    loaded = await asyncio.gather(*(db_threads.load_changes(live.pk, version, done.version) for _ in range(4)))
    assert [snap.version for snap, _ in loaded] == [done.version] * 4 and len(calls) == 1
    assert all(found is loaded[0] for found in loaded)  # one load, shared
    snap, moves = snapshots.cached_changes(live.pk, version, done.version)
    assert snap.version == done.version and [m.version for m in moves] == [done.version]


async def test_a_database_call_hands_the_notices_its_commit_sends_to_the_loop(live_settings, monkeypatch):
    """The tournament's notices sent when a database call commits (an event's scores changed at a hand's
    end) are handed to the calling loop: the database thread does not wait for the loop to send them
    (`async_to_sync` did, while the loop was busy with everything else)."""
    from channels.layers import InMemoryChannelLayer
    from django.db import transaction

    from config import group_notices

    layer = InMemoryChannelLayer()
    monkeypatch.setattr(group_notices, "get_channel_layer", lambda: layer)

    def no_wait(*args, **kwargs):
        raise AssertionError("the database thread waited for a notice (async_to_sync)")

    monkeypatch.setattr(group_notices, "async_to_sync", no_wait)
    channel = await layer.new_channel()
    await layer.group_add("scores-test", channel)

    def commit_with_a_notice() -> None:
        with transaction.atomic():
            group_notices.send_after_commit([("scores-test", {"type": "scores.changed"})], what="a test")

    await db_threads.run(commit_with_a_notice)
    assert (await asyncio.wait_for(layer.receive(channel), 2))["type"] == "scores.changed"
