"""Arrival at a tournament table: a seat's turn clock does not run before its player has come (a socket at
their seat, or a move), or before the table's arrival countdown ends. Nothing is played for an absent
player before that: no timer move, no bot takeover. Bot seats and practice games are unaffected."""

import time
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.db import transaction
from django.utils import timezone

from games import engine
from games.models import LiveGame, LiveMove
from games.services import snapshots, timers
from games.services.lifecycle import start_practice_game, tournament_game_status_changed
from games.services.seats import turn_game_seat
from tests.games.factories import login_socket, make_tournament_game
from tests.tournament.organizer_factories import make_user
from tournament.services.live_tables import live_game_for

pytestmark = [pytest.mark.django_db(transaction=True)]

GRACE = 300
TURN = 30


def table(players: int = 3, bots: int = 0, **event_fields) -> tuple[LiveGame, list]:
    event_fields.setdefault("turn_seconds", TURN)
    event_fields.setdefault("arrival_grace_seconds", GRACE)
    game, users = make_tournament_game(players, bots, **event_fields)
    return live_game_for(game, seed=11), users


def reload(pk: int) -> LiveGame:
    return LiveGame.objects.get(pk=pk)


def on_turn(live: LiveGame) -> int:
    return turn_game_seat(engine.Game.from_dict(live.state), live.hand_seats)


def timer_played(live_id: int, seat: int, at) -> bool:
    """Sweep at `at` until the timer has played for `seat` (a sweeper skips a row another transaction
    holds for a moment, e.g. a socket's read on PostgreSQL: it acts on the next sweep)."""
    for _ in range(20):
        timers.sweep_once(at)
        if LiveMove.objects.filter(live_game_id=live_id, seat=seat, actor=LiveMove.Actor.TIMER).exists():
            return True
        time.sleep(0.1)
    return False


def sweep_until_quiet(at) -> int:
    """Sweep at the moment `at` until nothing more is due then (bots' think times are set from the real
    clock, so they are all due at a later `at`). Returns how many games changed."""
    total = 0
    for _ in range(200):
        changed = timers.sweep_once(at)
        if not changed:
            return total
        total += changed
    raise AssertionError("the sweeper never went quiet")


def test_the_clock_does_not_run_for_a_seat_whose_player_has_not_come():
    live, users = table()
    assert live.arrival_until is not None
    assert live.arrival_until - timezone.now() > timedelta(seconds=GRACE - 5)
    assert live.deadline == live.arrival_until + timedelta(seconds=TURN)
    start = timezone.now()
    # long past the turn's 30 seconds, still within the countdown: nothing is played for anyone
    for later in (31, 120, GRACE - 1, GRACE + TURN - 1):
        assert timers.sweep_once(start + timedelta(seconds=later)) == 0
    live = reload(live.pk)
    assert live.version == 1
    assert not LiveMove.objects.filter(live_game=live).exclude(actor=LiveMove.Actor.SYSTEM).exists()
    assert live.missed_turns == [0, 0, 0] and live.bot_takeover == [False] * 3


def test_the_countdown_ending_starts_a_full_clock_then_the_timer_plays():
    live, users = table()
    seat = on_turn(live)
    assert timers.sweep_once(live.arrival_until + timedelta(seconds=TURN - 1)) == 0
    assert timers.sweep_once(live.arrival_until + timedelta(seconds=TURN + 1)) == 1
    live = reload(live.pk)
    moves = list(LiveMove.objects.filter(live_game=live, version__gt=1))
    assert moves and {m.actor for m in moves} == {LiveMove.Actor.TIMER} and {m.seat for m in moves} == {seat}
    assert live.missed_turns[seat] == 1


def test_bots_never_play_for_an_absent_player_before_the_countdown_ends():
    # one student and two bot seats; a bot takes over after a single missed turn
    live, users = table(players=1, bots=2, missed_turns_before_bot=1)
    start = timezone.now()
    for later in (5, 60, 200, GRACE - 5):
        sweep_until_quiet(start + timedelta(seconds=later))
    live = reload(live.pk)
    assert LiveMove.objects.filter(live_game=live, actor=LiveMove.Actor.BOT).exists(), "bot seats play on"
    assert not LiveMove.objects.filter(live_game=live, seat=0).exists(), "nothing played for the student"
    assert live.bot_takeover[0] is False and live.missed_turns[0] == 0
    assert on_turn(live) == 0  # the bots have played up to the student, who is awaited
    assert live.deadline == live.arrival_until + timedelta(seconds=TURN)
    # once the countdown and a full turn are over, the timer plays and the bot takes over, as before
    assert timers.sweep_once(live.arrival_until + timedelta(seconds=TURN + 1)) == 1
    live = reload(live.pk)
    assert LiveMove.objects.filter(live_game=live, seat=0, actor=LiveMove.Actor.TIMER).exists()
    assert live.bot_takeover[0] is True


async def test_the_clock_starts_full_when_the_player_first_connects():
    live, users = await database_sync_to_async(table)()
    seat = on_turn(live)
    other = next(i for i in range(3) if i != seat)
    watcher = await login_socket(live.pk, users[other])
    first = await watcher.connect()
    assert first["game"]["arrival_until"] == live.arrival_until.isoformat()
    assert [s["arrived"] for s in first["game"]["seats"]] == [i == other for i in range(3)]
    assert first["deadline"] == (live.arrival_until + timedelta(seconds=TURN)).isoformat()
    player = await login_socket(live.pk, users[seat])
    state = await player.connect()
    left = (timezone.datetime.fromisoformat(state["deadline"]) - timezone.now()).total_seconds()
    assert TURN - 3 < left <= TURN, "their first state holds a full turn clock"
    assert state["game"]["seats"][seat]["arrived"] is True
    stored = await database_sync_to_async(reload)(live.pk)
    assert stored.arrived[seat] is True and stored.deadline.isoformat() == state["deadline"]
    # the whole table hears of the arrival, with the new clock
    update = await watcher.receive_until(lambda m: m["type"] == "update" and m["version"] == state["version"])
    assert [e["kind"] for e in update["events"]] == ["player_arrived"]
    assert update["deadline"] == state["deadline"]
    # once the clock has run out, the timer plays for them as it always did
    assert await database_sync_to_async(timers.sweep_once)(timezone.now() + timedelta(seconds=TURN - 5)) == 0
    assert await database_sync_to_async(timer_played)(live.pk, seat, timezone.now() + timedelta(seconds=TURN + 1))
    await watcher.close()
    await player.close()


async def test_arriving_is_stored_once_however_often_the_player_connects():
    live, users = await database_sync_to_async(table)()
    seat = on_turn(live)
    first = await login_socket(live.pk, users[seat])
    state = await first.connect()
    assert state["version"] == 2
    await first.close()
    await database_sync_to_async(snapshots.forget_all)()  # as a restarted worker: the database decides
    again = await login_socket(live.pk, users[seat])
    assert (await again.connect())["version"] == 2
    await again.close()
    count = await database_sync_to_async(
        lambda: LiveMove.objects.filter(live_game_id=live.pk, events__0__kind="player_arrived").count())()
    assert count == 1


async def test_a_seat_that_arrives_mid_countdown():
    live, users = await database_sync_to_async(table)()
    seat = on_turn(live)
    other = next(i for i in range(3) if i != seat)
    # most of the countdown has gone by when the player who is not on turn comes
    later = timezone.now() + timedelta(seconds=40)

    def shorten():
        LiveGame.objects.filter(pk=live.pk).update(arrival_until=later, deadline=later + timedelta(seconds=TURN))
    await database_sync_to_async(shorten)()
    socket = await login_socket(live.pk, users[other])
    state = await socket.connect()
    stored = await database_sync_to_async(reload)(live.pk)
    assert stored.arrived[other] is True and stored.arrived[seat] is False
    assert state["game"]["seats"][other]["arrived"] is True
    # the seat on turn is still awaited: its clock still starts when the countdown ends
    assert stored.deadline == later + timedelta(seconds=TURN)
    assert await database_sync_to_async(timers.sweep_once)(later + timedelta(seconds=TURN - 1)) == 0
    # when the player on turn comes before the end, their clock starts then, full
    player = await login_socket(live.pk, users[seat])
    mine = await player.connect()
    left = (timezone.datetime.fromisoformat(mine["deadline"]) - timezone.now()).total_seconds()
    assert TURN - 3 < left <= TURN
    await socket.close()
    await player.close()


def test_no_countdown_means_the_clock_runs_from_the_start():
    live, users = table(arrival_grace_seconds=0)
    assert live.arrival_until is None
    assert live.deadline - timezone.now() <= timedelta(seconds=TURN)
    assert timers.sweep_once(timezone.now() + timedelta(seconds=TURN + 1)) == 1


def test_practice_games_have_no_countdown():
    user = make_user()
    live = start_practice_game(user, "uno-official", 2, seed=3, turn_seconds=TURN)
    assert live.arrival_until is None
    if on_turn(live) == 0:
        assert live.deadline - timezone.now() <= timedelta(seconds=TURN)


def test_a_pause_holds_the_countdown_too():
    live, users = table()
    before = live.arrival_until
    tgame = live.game
    with transaction.atomic():
        tgame.status = "paused"
        tgame.save(update_fields=["status"])
        tournament_game_status_changed(tgame, "pause", now=timezone.now())
    with transaction.atomic():
        tgame.status = "running"
        tgame.save(update_fields=["status"])
        tournament_game_status_changed(tgame, "resume", now=timezone.now() + timedelta(seconds=100))
    live = reload(live.pk)
    assert abs((live.arrival_until - before).total_seconds() - 100) < 3
    assert live.deadline == live.arrival_until + timedelta(seconds=TURN)
