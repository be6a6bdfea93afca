"""Bad input of every kind through the real ASGI app: thousands of generated websocket messages (junk text,
binary frames, JSON of every shape, wrong field types, unknown actions, cards not held, other seats,
oversized messages, stale and future versions, legal moves mixed in) from every seat and a spectator.

Every message gets its answer (an `error`, `ack`, `pong` or `state`), nothing is logged at ERROR, the cards
are conserved after every accepted move, and the game still plays to the end afterwards. The default run
sends a few thousand messages; FUZZ_EXAMPLES=1000 (batches of 40 to 80 messages) for a longer one.
"""

import json
import logging
import os
from collections import Counter

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import engine
from games.engine.decks import deck_cards
from games.models import LiveGame
from games.services import timers
from games.services.seats import turn_game_seat
from tests.games.factories import Socket, engine_game_of, make_tournament_game, session_cookie
from tournament.services.live_tables import live_game_for

pytestmark = [pytest.mark.django_db(transaction=True)]

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "70"))
CARD_CODES = sorted(engine.CARD_ID)
ACTION_KINDS = ["play", "draw", "pass", "call_uno", "catch", "challenge", "accept", "choose_colour"]

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-2**70, 2**70) | st.floats(allow_nan=False) | st.text(max_size=30),
    lambda children: st.lists(children, max_size=5) | st.dictionaries(st.text(max_size=10), children, max_size=5),
    max_leaves=20,
)
fuzzy_action = st.one_of(
    json_values,
    st.fixed_dictionaries({"type": st.sampled_from(ACTION_KINDS) | st.text(max_size=12)},
                          optional={"card": st.sampled_from(CARD_CODES) | json_values,
                                    "colour": st.sampled_from(["R", "G", "B", "Y", "W", "x"]) | json_values,
                                    "seat": st.integers(-3, 6) | json_values,
                                    "target": st.integers(-3, 6) | json_values,
                                    "extra": json_values}),
)
version = st.one_of(st.just("current"), st.just("current"), st.integers(-5, 10**6), json_values)
message = st.one_of(
    st.tuples(st.just("text"), st.text(max_size=200)),
    st.tuples(st.just("bytes"), st.binary(max_size=200)),
    st.tuples(st.just("json"), json_values),
    st.tuples(st.just("json"), st.fixed_dictionaries(
        {"type": st.sampled_from(["move", "sync", "ping", "hello", "MOVE", ""]) | json_values},
        optional={"version": version, "action": fuzzy_action, "id": st.text(max_size=80) | json_values,
                  "echo": json_values, "seat": json_values})),
    st.tuples(st.just("move"), st.fixed_dictionaries({"version": version, "action": fuzzy_action},
                                                     optional={"id": st.text(max_size=70)})),
    st.tuples(st.just("huge"), st.integers(4097, 80000)),
    st.tuples(st.just("legal"), st.integers(0, 20)),
)
senders = st.integers(0, 3)  # seats 0..2 (seat 2 a bot's: its socket is a spectator's), 3: anonymous


def _frame(kind, payload, state) -> str | bytes:
    current = state["version"] if state else 0
    if kind == "text":
        return payload
    if kind == "bytes":
        return payload
    if kind == "huge":
        return json.dumps({"type": "ping", "echo": "x" * payload})
    if kind == "legal":
        legal = (state or {}).get("view", {}) or {}
        actions = legal.get("legal_actions") or [{"type": "draw"}]
        action = {k: v for k, v in actions[payload % len(actions)].items() if k != "seat"}
        return json.dumps({"type": "move", "version": current, "action": action})
    if kind == "move":
        out = {"type": "move", **payload}
        if out["version"] == "current":
            out["version"] = current
        return json.dumps(out)
    return json.dumps(payload)


ANSWERS = {"error", "ack", "pong", "state"}


def _check_cards(pk) -> str:
    live = LiveGame.objects.get(pk=pk)
    game = engine.Game.from_dict(live.state)
    hand = game.hand
    if hand is not None:
        held = [c for h in hand.hands for c in h] + list(hand.pile) + list(hand.discard)
        assert Counter(held) == Counter(deck_cards(game.rules)), "cards not conserved"
        assert all(0 <= t < hand.seats for t in [hand.turn])
    return live.status


def _sweep_all() -> None:
    for _ in range(20):
        if not timers.sweep_once(timezone.now()):
            return


async def _send_batch(live_id, cookies, batch, stats) -> None:
    sockets = [Socket(live_id, c) for c in cookies] + [Socket(live_id)]
    for s in sockets:
        await s.connect()
    for sender, (kind, payload) in batch:
        sock = sockets[sender]
        frame = _frame(kind, payload, sock.state)
        # (send_input: the communicator's send_to refuses empty frames, a browser may send them)
        await sock.comm.send_input({"type": "websocket.receive",
                                    **({"bytes": frame} if isinstance(frame, bytes) else {"text": frame})})
        stats["sent"] += 1
        if kind == "huge" and len(frame) > 65536:
            closed = await sock.comm.receive_output(timeout=3)
            while closed["type"] == "websocket.send":  # updates or presence sent before it
                closed = await sock.comm.receive_output(timeout=3)
            assert closed["type"] == "websocket.close" and closed["code"] == 4413 and closed.get("reason")
            stats["closed"] += 1
            await sock.comm.disconnect()
            sockets[sender] = Socket(live_id, cookies[sender] if sender < len(cookies) else None)
            await sockets[sender].connect()
            continue
        answer = await sock.receive_until(lambda m: m["type"] in ANSWERS)
        stats[answer["type"] + ":" + answer.get("code", "")] += 1
        if answer["type"] == "error":
            assert answer["code"] in {"malformed", "forbidden", "stale", "illegal", "already_played", "game_over"}, answer
            assert answer["message"]
            if answer["code"] == "stale":
                await sock.receive_until(lambda m: m["type"] == "state")
        if answer["type"] == "ack":
            await database_sync_to_async(_check_cards)(live_id)
            await database_sync_to_async(_sweep_all)()
            await database_sync_to_async(_check_cards)(live_id)
        for s in sockets:  # keep every socket's view current
            await s.drain(0.0)
    for s in sockets:
        await s.close()


def test_generated_bad_messages_are_all_answered_and_the_game_survives(caplog, live_settings):
    live_settings.LIVE_SPECTATOR_RATE_LIMIT = (10_000, 1.0)  # the limits have their own tests
    stats = Counter()
    table = {}

    def new_table() -> None:
        """A game to 500 with two students and a bot (seat 2: its "socket" is a spectator's)."""
        tgame, users = make_tournament_game(2, bots=1, target_score=500)
        table["live"] = live_game_for(tgame, seed=31 + stats["games"])
        table["cookies"] = [session_cookie(u) for u in users] + [None]
        stats["games"] += 1

    new_table()
    caplog.set_level(logging.WARNING)

    @settings(max_examples=EXAMPLES, deadline=None, database=None, derandomize=True,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                     HealthCheck.function_scoped_fixture])
    @given(st.lists(st.tuples(senders, message), min_size=40, max_size=80))
    def run(batch):
        # A long run (FUZZ_EXAMPLES=1000) plays a game to its end with the legal moves it mixes in: the
        # next batches go to a fresh game, so every message hits a running one.
        if _check_cards(table["live"].pk) != LiveGame.Status.RUNNING:
            new_table()
        async_to_sync(_send_batch)(table["live"].pk, table["cookies"][:3], batch, stats)

    run()
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert not errors, [r.getMessage() for r in errors]
    assert stats["sent"] >= EXAMPLES * 40
    assert stats["error:malformed"] and stats["ack:"] and stats["error:forbidden"] and stats["closed"]
    live = table["live"]
    # the game still plays to the end: players play their first legal action, bots and deals are swept
    # (the default run leaves its one game running; a long run's last batch may have ended its game itself)
    if stats["games"] == 1 or _check_cards(live.pk) == LiveGame.Status.RUNNING:
        async_to_sync(_play_to_the_end)(live.pk, table["cookies"][:2])
    assert _check_cards(live.pk) == LiveGame.Status.FINISHED
    print(f"fuzz: {dict(stats)}")


async def _play_to_the_end(live_id, cookies) -> None:
    players = [Socket(live_id, c) for c in cookies]
    for p in players:
        await p.connect()
    for _ in range(10_000):
        await database_sync_to_async(_sweep_all)()
        live = await database_sync_to_async(LiveGame.objects.get)(pk=live_id)
        if live.status == LiveGame.Status.FINISHED:
            break
        game = await engine_game_of(live)
        seat = turn_game_seat(game, live.hand_seats)
        if seat is None or seat >= 2:  # a deal or the bot: swept above
            continue
        sock = players[seat]
        if sock.state["version"] != live.version:
            await sock.send({"type": "sync"})
            await sock.receive_until(lambda m: m["type"] == "state")
        action = {k: v for k, v in sock.state["view"]["legal_actions"][0].items() if k != "seat"}
        await sock.send({"type": "move", "version": live.version, "action": action})
        reply = await sock.receive_until(lambda m: m["type"] in ("ack", "error"))
        assert reply["type"] == "ack", reply
        await database_sync_to_async(_check_cards)(live_id)
    for p in players:
        await p.close()


async def _closed_with(sock) -> dict:
    out = await sock.comm.receive_output(timeout=3)
    while out["type"] == "websocket.send":
        out = await sock.comm.receive_output(timeout=3)
    return out


async def test_a_flooding_socket_is_closed_with_a_reason(live_settings):
    live_settings.LIVE_SOCKET_RATE_LIMIT = (5, 60.0)
    tgame, users = await database_sync_to_async(make_tournament_game)(2)
    live = await database_sync_to_async(live_game_for)(tgame, seed=3)
    from tests.games.factories import login_socket

    sock = await login_socket(live.pk, users[0])
    await sock.connect()
    for n in range(5):
        await sock.send({"type": "ping", "echo": n})
        assert (await sock.receive())["type"] == "pong"
    for _ in range(5):  # over the limit: refused, still open
        await sock.send({"type": "ping"})
        assert (await sock.receive())["code"] == "rate_limited"
    await sock.send({"type": "ping"})  # twice the limit: closed
    closed = await _closed_with(sock)
    assert closed["type"] == "websocket.close" and closed["code"] == 4429
    assert closed["reason"] == "too many messages (limit 5 per 60 s): slow down, then reconnect"
    await sock.comm.disconnect()


async def test_players_and_spectators_have_their_own_limits(live_settings):
    live_settings.LIVE_SOCKET_RATE_LIMIT = (50, 60.0)
    live_settings.LIVE_SPECTATOR_RATE_LIMIT = (3, 60.0)
    tgame, users = await database_sync_to_async(make_tournament_game)(2)
    live = await database_sync_to_async(live_game_for)(tgame, seed=3)
    from tests.games.factories import login_socket

    player, watcher = await login_socket(live.pk, users[0]), Socket(live.pk)
    await player.connect()
    await watcher.connect()
    for n in range(3):
        await watcher.send({"type": "ping", "echo": n})
        assert (await watcher.receive())["type"] == "pong"
    await watcher.send({"type": "sync"})
    assert (await watcher.receive())["code"] == "rate_limited"
    for n in range(10):  # the player's limit is the players' one
        await player.send({"type": "ping", "echo": n})
        assert (await player.receive())["type"] == "pong"
    for _ in range(3):
        await watcher.send({"type": "ping"})
    closed = await _closed_with(watcher)
    assert closed["code"] == 4429 and "limit 3 per 60 s" in closed["reason"]
    await watcher.comm.disconnect()
    await player.close()


async def test_a_huge_message_closes_the_socket_with_a_reason():
    tgame, users = await database_sync_to_async(make_tournament_game)(2)
    live = await database_sync_to_async(live_game_for)(tgame, seed=3)
    watcher = Socket(live.pk)
    await watcher.connect()
    await watcher.send("x" * 5000)
    assert (await watcher.receive())["message"] == "message too large (limit 4096 bytes)"
    await watcher.send("x" * 70_000)
    closed = await _closed_with(watcher)
    assert closed["code"] == 4413 and closed["reason"] == "frame too large (over 65536 bytes): send smaller messages"
    await watcher.comm.disconnect()
