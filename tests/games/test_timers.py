"""The turn timer in the database and the sweeper: a turn that runs out is played for the seat (stored and
broadcast like any move), a bot takes over after the event's number of missed turns and hands the seat
back when the player returns; sweeping twice is harmless."""

from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.utils import timezone

from games.models import LiveGame, LiveMove
from games.services import timers
from games.services.seats import turn_game_seat
from tests.games.test_table_play import play_one, setup_table

pytestmark = [pytest.mark.django_db(transaction=True)]


@database_sync_to_async
def expire(live_id: int) -> None:
    LiveGame.objects.filter(pk=live_id).update(deadline=timezone.now() - timedelta(seconds=1))


@database_sync_to_async
def sweep() -> int:
    return timers.sweep_once(timezone.now())


@database_sync_to_async
def reload(live_id: int) -> LiveGame:
    return LiveGame.objects.get(pk=live_id)


@database_sync_to_async
def moves_after(live_id: int, version: int) -> list[LiveMove]:
    return list(LiveMove.objects.filter(live_game_id=live_id, version__gt=version).order_by("version"))


@database_sync_to_async
def seat_on_turn(live: LiveGame) -> int:
    from games import engine

    return turn_game_seat(engine.Game.from_dict(live.state), live.hand_seats)


async def catch_up(sockets, version):
    for s in sockets:
        if s.state["version"] < version:
            await s.receive_until(lambda m: m["type"] in ("update", "state") and m["version"] == version)


async def test_a_turn_that_runs_out_is_played_by_the_timer_and_broadcast():
    game, live, users, sockets, states = await setup_table(turn_seconds=30)
    live = await reload(live.pk)
    assert live.deadline is not None and live.deadline > timezone.now() + timedelta(seconds=25)
    assert states[0]["deadline"] == live.deadline.isoformat()
    # not due yet: the sweeper does nothing
    assert await sweep() == 0
    seat = await seat_on_turn(live)
    await expire(live.pk)
    assert await sweep() == 1
    assert await sweep() == 0  # a second sweep finds nothing due any more
    moves = await moves_after(live.pk, 1)
    assert moves and all(m.actor == "timer" and m.seat == seat for m in moves)
    assert moves[0].action["type"] in ("draw", "accept", "choose_colour")
    after = await reload(live.pk)
    assert after.missed_turns[seat] == 1 and after.bot_takeover[seat] is False
    assert await seat_on_turn(after) != seat
    assert after.deadline > timezone.now() + timedelta(seconds=25)  # the next player's fresh timer
    await catch_up(sockets, after.version)
    for s in sockets:
        timer_updates = [f for f in s.frames if f["type"] == "update" and f["by"]["actor"] == "timer"]
        assert [f["version"] for f in timer_updates] == [m.version for m in moves]
    for s in sockets:
        await s.close()


def test_default_actions():
    from games import engine
    from tests.engine.helpers import deal

    # a pending Wild Draw 4 is accepted
    hand = deal("uno-official", [["WD4", "R1"], ["G2", "G3"]], ["B5"], dealer=1)
    engine.apply(hand, engine.Play(0, "WD4", "G"))
    assert timers.default_action(hand, 1) == engine.Accept(1)
    # a first-card wild: the colour held most is chosen
    hand = deal("uno-official", [["R1", "B2"], ["G2", "G3", "Y7"]], ["W"], dealer=0)
    assert hand.turn == 1 and timers.default_action(hand, 1) == engine.ChooseColour(1, "G")
    # otherwise draw, then pass
    hand = deal("uno-official", [["R1", "B2"], ["G2", "G3"]], ["G5"], draws=["G9"], dealer=1)
    assert timers.default_action(hand, 0) == engine.Draw(0)
    engine.apply(hand, engine.Draw(0))
    assert timers.default_action(hand, 0) == engine.Pass(0)


async def test_a_bot_takes_over_after_missed_turns_until_the_player_returns(live_settings):
    game, live, users, sockets, states = await setup_table(turn_seconds=30, missed_turns_before_bot=2)
    live = await reload(live.pk)
    absent = await seat_on_turn(live)
    absent_socket = sockets[absent]
    misses = 0
    version = live.version
    for _ in range(60):
        live = await reload(live.pk)
        await catch_up(sockets, live.version)
        if live.bot_takeover[absent]:
            break
        seat = await seat_on_turn(live)
        if seat == absent:
            await expire(live.pk)
            assert await sweep() == 1
            misses += 1
        else:
            await play_one(sockets, live.version)
    else:
        pytest.fail("the seat was never taken over")
    assert misses == 2
    notices = [m for m in await moves_after(live.pk, version) if m.events and m.events[0]["kind"] == "takeover_started"]
    assert len(notices) == 1 and notices[0].seat == absent
    assert sockets[0].state["game"]["seats"][absent]["takeover"] is True
    # the bot now plays the seat at its think time (0 in tests) without waiting for the turn timer
    for _ in range(60):
        live = await reload(live.pk)
        await catch_up(sockets, live.version)
        if await seat_on_turn(live) == absent:
            assert live.deadline <= timezone.now()
            assert await sweep() == 1
            break
        await play_one(sockets, live.version)
    bot_moves = [m for m in await moves_after(live.pk, live.version - 1) if m.actor == "bot"]
    assert bot_moves and bot_moves[0].seat == absent
    # the player comes back: a sync ends the takeover
    live = await reload(live.pk)
    await catch_up(sockets, live.version)
    await absent_socket.send({"type": "sync"})
    state = await absent_socket.receive_until(lambda m: m["type"] == "state")
    assert state["game"]["seats"][absent]["takeover"] is False
    back = await reload(live.pk)
    assert back.bot_takeover[absent] is False and back.missed_turns[absent] == 0
    ended = await moves_after(live.pk, live.version)
    assert [m.events[0]["kind"] for m in ended] == ["takeover_ended"]
    for s in sockets:
        await s.close()


async def test_the_next_hand_is_dealt_after_the_pause(live_settings):
    live_settings.LIVE_NEXT_HAND_SECONDS = 60
    game, live, users, sockets, states = await setup_table(seed=11)
    version = 1
    while sockets[0].state["view"]["phase"] != "over":
        await play_one(sockets, version)
        version += 1
    live = await reload(live.pk)
    assert live.next_hand_at > timezone.now() + timedelta(seconds=50) and live.deadline is None
    assert await sweep() == 0  # not yet
    await database_sync_to_async(LiveGame.objects.filter(pk=live.pk).update)(next_hand_at=timezone.now())
    assert await sweep() == 1
    assert await sweep() == 0
    await catch_up(sockets, version + 1)
    for s in sockets:
        assert s.state["by"]["actor"] == "system"
        assert s.state["game"]["status"] == "playing" and s.state["game"]["hand_number"] == 2
        assert len(s.state["view"]["hand"]) == 7
        kinds = [e["kind"] for e in s.state["events"]]
        assert "hand_started" in kinds and "first_card" in kinds
    for s in sockets:
        await s.close()


async def test_the_sweeper_skips_paused_games_and_the_in_process_loop_plays_bots(live_settings):
    import asyncio

    from games.services.lifecycle import create_demo_bot_table
    from tests.games.factories import Socket

    live = await database_sync_to_async(create_demo_bot_table)(seats=4, seed=5)
    live_settings.LIVE_SWEEPER_IN_PROCESS = True
    live_settings.LIVE_SWEEP_INTERVAL = 0.01
    watcher = Socket(live.pk)
    state = await watcher.connect()  # starts the sweeper in this event loop
    assert state["role"] == "spectator"
    await watcher.receive_until(lambda m: m["type"] == "update" and m["by"]["actor"] == "bot", timeout=5)
    live_settings.LIVE_SWEEPER_IN_PROCESS = False
    for task in asyncio.all_tasks():
        if task.get_name() == "live-game-sweeper":
            task.cancel()
    await watcher.close()


async def test_a_silent_bot_in_a_bot_league_makes_the_least_move_and_is_never_taken_over(live_settings):
    """In a bot league the seats take moves only through their owners' tokens; a bot that stays silent has
    its turns played by the timer with the least move (draw, then pass...) however many it misses: no
    built-in bot plays for it, so it wins nothing it did not play for."""
    game, live, users, sockets, states = await setup_table(turn_seconds=30, missed_turns_before_bot=2,
                                                           entrants="bots")
    live = await reload(live.pk)
    assert live.token_moves_only
    silent_moves = []
    for _ in range(12):
        live = await reload(live.pk)
        if live.status != LiveGame.Status.RUNNING or (await seat_on_turn(live)) is None:
            break
        version = live.version
        await expire(live.pk)
        assert await sweep() == 1
        silent_moves += await moves_after(live.pk, version)
    live = await reload(live.pk)
    assert not any(live.bot_takeover) and max(live.missed_turns) >= 3  # past the limit of 2, still no bot
    played = [m for m in silent_moves if m.actor != LiveMove.Actor.SYSTEM]
    assert played and {m.actor for m in played} == {LiveMove.Actor.TIMER}
    assert {m.action["type"] for m in played if m.action} <= {"draw", "pass", "accept", "choose_colour"}
    assert not [m for m in silent_moves if m.events and m.events[0]["kind"] == "takeover_started"]
