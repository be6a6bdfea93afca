"""A change travels with its signal across workers (games/services/broadcast.py, change_messages): the
move's action and the game's small columns, never the engine state. A worker that did not make it
replays the action (or a deal's seed) on its own copy of the previous version and builds every viewer's
update from that, reading nothing back from the database; an ordinary move's message carries only what
its statement wrote; and production refuses a Redis layer that would carry the cards unencrypted."""

import dataclasses
import json
from datetime import timedelta

import msgpack
import pytest
from channels.db import database_sync_to_async
from django.core import checks
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import db_threads, engine
from games.models import LiveGame
from games.services import broadcast, change_messages, game_log, snapshots, timers
from games.services.moves import submit_move
from games.services.seats import turn_game_seat
from games.services.update_frames import sent_in, update_frames
from tests.games.factories import make_tournament_game
from tests.games.test_db_threads import a_move
from tests.games.test_table_play import play_one, setup_table
from tournament.services.live_tables import live_game_for

pytestmark = [pytest.mark.django_db(transaction=True)]


def without_clock(messages):
    return [{k: v for k, v in m.items() if k != "now"} for m in messages]


def updates_for(before, version, upto, users) -> list[list[dict]] | None:
    """Each viewer's updates from the cache alone (None if it lacks something), for sockets that were
    sent `before` (a snapshot)."""
    found = snapshots.cached_changes(before.live_id, version, upto)
    if found is None:
        return None
    out = []
    for user in users:
        sent = sent_in(snapshots.state_message(before, before.seat_of(user), []))
        out.append(without_clock([json.loads(t) for t in update_frames(*found, sent, ())[1]]))
    return out


def test_a_change_message_rebuilds_every_viewers_update_with_no_query(live_settings):
    tgame, users = make_tournament_game(3)
    live = live_game_for(tgame, seed=5)
    user, version, action = a_move(live.pk, users)
    before = snapshots.load_snapshot(live.pk)  # what another worker's sockets at the table were last sent
    done = submit_move(live.pk, user, version, action, "c-1")  # caches the change in this process
    snap = snapshots._snapshots.get((live.pk, done.version))
    move = snapshots.cached_moves(live.pk, version, done.version)[0]
    viewers = [*users, None]
    expected = updates_for(before, version, done.version, viewers)

    # through the layer's own serialisation (channels-redis uses msgpack), into a process that lacks it
    data = msgpack.unpackb(msgpack.packb(change_messages.change_message(snap, move, False)), raw=False)
    assert "state" not in data and "checkpoint" not in str(data["move"])  # the change, not the game
    snapshots.forget_all()
    snapshots.remember(before, [])
    assert snapshots.cached_changes(live.pk, version, done.version) is None
    with CaptureQueriesContext(connection) as queries:
        change_messages.remember_change(data)
        rebuilt = updates_for(before, version, done.version, viewers)
    assert len(queries) == 0
    assert rebuilt == expected
    assert "hand" not in rebuilt[-1][0]["view"]  # the spectator's
    whole = snapshots.view_for(snap, None)
    assert all(len(frames[0]["view"]) < len(whole) for frames in rebuilt)  # only the fields that moved
    assert snapshots._snapshots.get((live.pk, done.version)).game == snap.game  # replayed to the same game


def one_move(move_id: str):
    """A table and one move made in this process: (live game, version before, the move's result, the
    snapshot and the stored move this process cached for it)."""
    tgame, users = make_tournament_game(3)
    live = live_game_for(tgame, seed=5)
    user, version, action = a_move(live.pk, users)
    done = submit_move(live.pk, user, version, action, move_id)
    snap = snapshots._snapshots.get((live.pk, done.version))
    return live, version, done, snap, snapshots.cached_moves(live.pk, version, done.version)[0]


def test_without_the_previous_version_a_change_message_leaves_the_load_to_the_consumer(live_settings):
    live, version, done, snap, move = one_move("c-4")
    snapshots.forget_all()
    change_messages.remember_change(change_messages.change_message(snap, move, False))
    assert snapshots._snapshots.get((live.pk, done.version)) is None
    loaded, moves = snapshots.changes_since(live.pk, version, done.version)
    assert loaded.game == snap.game and [m.version for m in moves] == [done.version]


def test_remember_change_keeps_what_this_process_has(live_settings):
    live, version, done, snap, move = one_move("c-2")
    change_messages.remember_change(change_messages.change_message(snap, move, False))
    assert snapshots._snapshots.get((live.pk, done.version)) is snap  # not parsed again


async def test_a_socket_in_a_worker_that_did_not_make_the_move_updates_from_the_signal(live_settings, monkeypatch):
    """As on the worker that did not make the move: nothing cached at commit, and reading the change back
    from the database fails the test; every socket still gets its update, from the signal's change."""
    monkeypatch.setattr(broadcast, "carries_changes", lambda: True)
    monkeypatch.setattr(snapshots, "remember", lambda *args: None)

    async def no_load(*args):
        raise AssertionError("the change was read back from the database")

    monkeypatch.setattr(db_threads, "load_changes", no_load)
    game, live, users, sockets, states = await setup_table()
    await play_one(sockets, states[0]["version"])
    await play_one(sockets, states[0]["version"] + 1)


def test_deploy_check_refuses_an_unencrypted_redis_layer(settings):
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
                                           "CONFIG": {"hosts": [{"address": "redis://127.0.0.1:6379/0"}]}}}
    found = checks.run_checks(include_deployment_checks=True, tags=[checks.Tags.security])
    assert "games.E001" in [m.id for m in found]
    settings.CHANNEL_LAYERS["default"]["CONFIG"]["symmetric_encryption_keys"] = ["k" * 40]
    found = checks.run_checks(include_deployment_checks=True, tags=[checks.Tags.security])
    assert "games.E001" not in [m.id for m in found]


async def test_a_move_through_the_loop_sends_its_change_only_across_processes(live_settings):
    tgame, users = await database_sync_to_async(make_tournament_game)(3)
    live = await database_sync_to_async(live_game_for)(tgame, seed=5)
    user, version, action = await database_sync_to_async(a_move)(live.pk, users)
    from channels.layers import get_channel_layer

    layer = get_channel_layer()
    channel = await layer.new_channel()
    await layer.group_add(broadcast.table_group_name(live.pk), channel)
    done = await db_threads.run(submit_move, live.pk, user, version, action, "c-3")
    message = await layer.receive(channel)
    if broadcast.carries_changes():  # PostgreSQL + Redis run: through Redis, decrypted
        assert message["change"]["version"] == done.version and message["change"]["live_id"] == live.pk
    else:
        assert "change" not in message


def test_sockets_opening_at_one_version_share_its_snapshot(live_settings):
    """Each socket opening at a table reads the game afresh; while nothing about it changed, every one of
    them gets the same snapshot (its views and game facts built once, not held once per socket)."""
    from games.models import LiveGame

    tgame, users = make_tournament_game(3)
    live = live_game_for(tgame, seed=5)
    snapshots.forget_all()
    first = snapshots.load_snapshot(live.pk)
    view = snapshots.view_for(first, 0)
    again = snapshots.load_snapshot(live.pk)
    assert again is first and snapshots.view_for(again, 0) is view
    LiveGame.objects.filter(pk=live.pk).update(missed_turns=[1, 0, 0])  # a change that keeps the version
    changed = snapshots.load_snapshot(live.pk)
    assert changed is not first and changed.version == first.version and changed.missed_turns == [1, 0, 0]
    assert snapshots.load_snapshot(live.pk) is changed


def replayed_elsewhere(before, message) -> tuple:
    """`message` through the layer's serialisation into a process that holds only `before` (and the table's
    facts as it read them then): (the snapshot it built, the queries it made)."""
    data = msgpack.unpackb(msgpack.packb(message), raw=False)
    snapshots.forget_all()
    snapshots.remember(before, [])
    game_log.keep_facts(LiveGame.objects.get(pk=before.live_id))
    with CaptureQueriesContext(connection) as queries:
        change_messages.remember_change(data)
    return snapshots.snapshot_at(before.live_id, message["version"]), len(queries)


def test_an_ordinary_moves_message_carries_only_what_its_statement_wrote(live_settings):
    """However many hands the game has had (each adds a shuffle record with its secrets), the message of
    an ordinary move is the move and the columns the one statement writes; the other worker takes the
    rest from its previous version and builds the same snapshot as from the whole message."""
    live, version, done, snap, move = one_move("c-5")
    before = snapshots.snapshot_at(live.pk, version)
    many = tuple({"hand": n, "commitment": "c" * 64, "seed": str(10**18 + n), "salt": "s" * 32,
                  "version": n, "seats": 3, "dealer": 0} for n in range(40))
    long_game = dataclasses.replace(snap, shuffles=many)
    long_before = dataclasses.replace(before, shuffles=many)
    ordinary = change_messages.ordinary_change_message(long_game, move)
    whole = change_messages.change_message(long_game, move, False)
    assert set(ordinary["fields"]) == set(change_messages.ORDINARY_FIELDS)
    assert len(msgpack.packb(ordinary)) < 600 and len(msgpack.packb(whole)) > 10 * len(msgpack.packb(ordinary))
    from_ordinary, queries = replayed_elsewhere(long_before, ordinary)
    assert queries == 0
    from_whole, _ = replayed_elsewhere(long_before, whole)
    assert from_ordinary == from_whole == long_game and from_ordinary.game == snap.game


def test_a_deal_is_dealt_again_from_its_message_not_loaded(live_settings, monkeypatch):
    """The sweeper's deal stores a checkpoint; the other workers deal the same hand from the seed its
    message carries (no query), reach the game the database holds, and count the next checkpoint from it."""
    tgame, users = make_tournament_game(3)
    live = live_game_for(tgame, seed=5)
    while live.next_hand_at is None:  # players' first legal actions until the hand is over
        game = engine.Game.from_dict(live.state)
        hand_seat = game.hand.turn
        action = engine.legal_actions(game.hand, hand_seat)[0].to_dict()
        del action["seat"]
        user = users[turn_game_seat(game, live.hand_seats)]
        submit_move(live.pk, user, live.version, action)
        live = LiveGame.objects.get(pk=live.pk)
    before = snapshots.snapshot_at(live.pk, live.version)
    sent = []
    monkeypatch.setattr(broadcast, "carries_changes", lambda: True)
    monkeypatch.setattr(broadcast, "_send", lambda live_id, message: sent.append(message))
    assert timers.sweep_once(live.next_hand_at + timedelta(seconds=1)) == 1
    [message] = [m["change"] for m in sent]
    dealt = LiveGame.objects.get(pk=live.pk)
    assert message["checkpoint"] and message["deal_seed"] and dealt.checkpoint_version == dealt.version
    snap, queries = replayed_elsewhere(before, message)
    assert queries == 0
    assert snap is not None and snap.game == engine.Game.from_dict(dealt.state)
    assert snap.shuffles[-1]["version"] == dealt.version and snap.game.hand is not None
    assert game_log.facts(live.pk).checkpoint_version == dealt.version


def test_a_checkpoint_that_is_not_a_deal_is_left_to_the_consumer(live_settings):
    live, version, done, snap, move = one_move("c-6")
    before = snapshots.snapshot_at(live.pk, version)
    built, queries = replayed_elsewhere(before, change_messages.change_message(snap, move, True))
    assert built is None and queries == 0
    assert snapshots.cached_move(live.pk, done.version) is not None  # the move is kept for the load
