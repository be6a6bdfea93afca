"""`first_own_moves`: sent once per seat and game, for the player's own moves only, after the commit; the
game row's `seats_moved` decides which move is a seat's first, whichever process stores it."""

from datetime import timedelta

import pytest
from django.utils import timezone

from games import engine
from games.models import LiveGame, LiveMove
from games.services import first_moves, snapshots, timers
from games.services.moves import MoveRefused, submit_move
from tests.games.factories import make_tournament_game
from tests.tournament.organizer_factories import make_user
from tournament.models import Player, Seat
from tournament.services.live_tables import holders_changed, live_game_for
from tournament.services.round_control import replace_with_reserve

pytestmark = pytest.mark.django_db


@pytest.fixture
def heard():
    seen = []

    def receiver(sender, moves, **kwargs):
        seen.extend((live_game.pk, seat) for live_game, seat in moves)

    first_moves.first_own_moves.connect(receiver, dispatch_uid="test-first-moves")
    yield seen
    first_moves.first_own_moves.disconnect(dispatch_uid="test-first-moves")


def on_turn(live_id):
    live = LiveGame.objects.get(pk=live_id)
    state = engine.Game.from_dict(live.state)
    action = engine.legal_actions(state.hand, state.hand.turn)[0].to_dict()
    del action["seat"]
    return live, live.hand_seats[state.hand.turn], action


def play(live_id, users, capture, **kwargs):
    """The seat on turn plays its first legal action (its `users` entry by game seat); returns the seat."""
    live, seat, action = on_turn(live_id)
    with capture(execute=True):
        submit_move(live.pk, users[seat], live.version, action, **kwargs)
    return seat


def moved_bits(live_id):
    return LiveGame.objects.get(pk=live_id).seats_moved


def test_each_seat_is_announced_once_and_the_timer_never(heard, django_capture_on_commit_callbacks):
    tgame, users = make_tournament_game(3, turn_seconds=30)
    live = live_game_for(tgame, seed=5)
    live, timed_out, _action = on_turn(live.pk)
    with django_capture_on_commit_callbacks(execute=True):
        assert timers.sweep_game(live.pk, timezone.now() + timedelta(minutes=5))  # the timer plays for it
    assert heard == [] and moved_bits(live.pk) == 0
    order = [play(live.pk, users, django_capture_on_commit_callbacks) for _ in range(6)]  # twice round the table
    assert sorted(heard) == sorted({(live.pk, seat) for seat in order}) and len(heard) == len(set(order))
    assert timed_out in order, "the seat the timer played for is announced at its player's own first move"
    assert moved_bits(live.pk) == sum(1 << seat for seat in set(order))


def test_the_row_decides_not_the_process(heard, django_capture_on_commit_callbacks):
    tgame, users = make_tournament_game(2)
    live = live_game_for(tgame, seed=5)
    first = play(live.pk, users, django_capture_on_commit_callbacks)
    assert heard == [(live.pk, first)] and moved_bits(live.pk) == 1 << first
    snapshots.forget_all()  # as another process, which has seen none of this table's moves
    second = play(live.pk, users, django_capture_on_commit_callbacks)
    snapshots.forget_all()
    assert play(live.pk, users, django_capture_on_commit_callbacks) == first
    assert heard == [(live.pk, first), (live.pk, second)]


def test_a_move_through_an_access_token_is_the_players_own(heard, django_capture_on_commit_callbacks):
    tgame, users = make_tournament_game(2)
    live = live_game_for(tgame, seed=5)
    seat = play(live.pk, users, django_capture_on_commit_callbacks, via_token=True)
    assert heard == [(live.pk, seat)]
    assert LiveMove.objects.get(live_game=live, actor=LiveMove.Actor.PLAYER).via_token


def test_a_takeover_bots_moves_are_not_the_players(heard, django_capture_on_commit_callbacks):
    tgame, users = make_tournament_game(2, turn_seconds=30, missed_turns_before_bot=1)
    live = live_game_for(tgame, seed=5)
    later = timezone.now()
    for _ in range(6):  # the timer plays, then the takeover bots play every seat
        later += timedelta(minutes=5)
        with django_capture_on_commit_callbacks(execute=True):
            timers.sweep_game(live.pk, later)
    actors = set(LiveMove.objects.filter(live_game=live, action__isnull=False).values_list("actor", flat=True))
    assert LiveMove.Actor.BOT in actors and LiveMove.Actor.PLAYER not in actors
    assert heard == [] and moved_bits(live.pk) == 0


def test_a_refused_move_announces_nothing(heard, django_capture_on_commit_callbacks):
    tgame, users = make_tournament_game(3)
    live = live_game_for(tgame, seed=5)
    live, seat, action = on_turn(live.pk)
    with django_capture_on_commit_callbacks(execute=True), pytest.raises(MoveRefused, match="moved on"):
        submit_move(live.pk, users[seat], live.version - 1, action)
    assert heard == [] and moved_bits(live.pk) == 0


def test_a_seat_given_to_a_reserve_is_announced_again_at_their_first_own_move(
        heard, django_capture_on_commit_callbacks):
    tgame, users = make_tournament_game(2)
    live = live_game_for(tgame, seed=5)
    seat = play(live.pk, users, django_capture_on_commit_callbacks)
    other = 1 - seat
    play(live.pk, users, django_capture_on_commit_callbacks)
    assert heard == [(live.pk, seat), (live.pk, other)]
    event = tgame.table.round.event
    reserve_user = make_user("reserve-first-move")
    reserve = Player.objects.create(event=event, user=reserve_user, display_name="Reserve", status="checked_in")
    with django_capture_on_commit_callbacks(execute=True):
        replace_with_reserve(Seat.objects.get(table=tgame.table, number=seat), reserve, None, "phone died")
    assert moved_bits(live.pk) == 1 << other, "the seat's bit is the new player's to set"
    users = {seat: reserve_user, other: users[other]}
    while play(live.pk, users, django_capture_on_commit_callbacks) != seat:
        pass
    assert heard == [(live.pk, seat), (live.pk, other), (live.pk, seat)]
    assert moved_bits(live.pk) == (1 << seat) | (1 << other)


def test_a_seat_given_to_another_without_a_notice_clears_only_its_bit(heard, django_capture_on_commit_callbacks):
    tgame, users = make_tournament_game(2)
    live = live_game_for(tgame, seed=5)
    seat = play(live.pk, users, django_capture_on_commit_callbacks)
    play(live.pk, users, django_capture_on_commit_callbacks)
    before = LiveGame.objects.get(pk=live.pk)
    # as a bracket's replacement and reseating do: the seat's holder changes, the table's version does not
    holders_changed(seats=[Seat.objects.get(table=tgame.table, number=seat).pk])
    after = LiveGame.objects.get(pk=live.pk)
    assert after.seats_moved == 1 << (1 - seat) and after.seats_version > before.seats_version
    assert after.version == before.version


@pytest.mark.django_db(transaction=True)
def test_first_moves_stored_meanwhile_are_announced_in_one_batch_once_per_event(monkeypatch):
    """The one-statement path announces on a background thread, one batch at a time: the seats stored while
    a batch is being announced go together in the next (their games read in one query), and the
    tournament records one scores change per event and batch, not one per seat (a round's 500 tables
    start at once)."""
    import threading
    import time

    from tournament.services import participation

    tgame, _users = make_tournament_game(4)
    live = live_game_for(tgame, seed=5)
    batches, gate = [], threading.Event()

    def receiver(sender, moves, **kwargs):
        batches.append([(game.pk, seat, game.game_id) for game, seat in moves])
        gate.wait(5)

    notices = []
    monkeypatch.setattr(participation, "notify_event_scores_changed", notices.append)
    first_moves.first_own_moves.connect(receiver, dispatch_uid="test-first-moves-batch")
    try:
        first_moves.announce_soon(live.pk, 0)
        deadline = time.monotonic() + 5
        while not batches and time.monotonic() < deadline:
            time.sleep(0.01)
        for seat in (1, 2, 3):  # stored while the first batch is being announced
            first_moves.announce_soon(live.pk, seat)
        gate.set()
        first_moves.wait(10)
    finally:
        first_moves.first_own_moves.disconnect(dispatch_uid="test-first-moves-batch")
    assert batches == [[(live.pk, 0, tgame.pk)], [(live.pk, s, tgame.pk) for s in (1, 2, 3)]]
    assert notices == [tgame.table.round.event_id] * 2


@pytest.mark.django_db(transaction=True)
def test_a_batchs_notices_to_pages_go_through_the_event_loop_of_its_moves(monkeypatch):
    """The tournament's receivers tell the event's pages (scores changed) from the background thread; those
    notices are handed to the worker's event loop that stored the moves, not sent from an event loop
    started for each (a loaded worker spent a quarter of its time on those at a round's start)."""
    import asyncio

    from channels.layers import InMemoryChannelLayer

    from config import group_notices
    from tournament.page_notices import SCORES_CHANGED, event_group_name

    tgame, _users = make_tournament_game(4)
    live = live_game_for(tgame, seed=5)
    event_id = tgame.table.round.event_id
    layer = InMemoryChannelLayer()
    monkeypatch.setattr(group_notices, "get_channel_layer", lambda: layer)

    def no_loop_of_its_own(*args, **kwargs):
        raise AssertionError("a notice started an event loop of its own")

    monkeypatch.setattr(group_notices, "async_to_sync", no_loop_of_its_own)

    async def scenario() -> list[dict]:
        channel = await layer.new_channel()
        await layer.group_add(event_group_name(event_id), channel)
        first_moves.announce_soon(live.pk, 0)  # on this loop, as the one-statement move calls it
        await first_moves.settled()
        return [await asyncio.wait_for(layer.receive(channel), 2)]

    got = asyncio.run(scenario())
    assert got == [{"type": SCORES_CHANGED, "event": event_id}]


@pytest.mark.django_db(transaction=True)
def test_a_batch_reads_only_the_games_links_not_their_rows(heard):
    """A round's start reads hundreds of games in one batch: only their links to the tournament games and
    those games' tables, not the shuffle records and seat lists of every row (any field still loads when a
    receiver reads it)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    tgame, _users = make_tournament_game(4)
    live = live_game_for(tgame, seed=5)
    with CaptureQueriesContext(connection) as queries:
        first_moves._announce_by_id([(live.pk, 0), (live.pk, 1)])
    read = queries.captured_queries[0]["sql"]
    assert "games_livegame" in read and '"shuffles"' not in read and '"missed_turns"' not in read
    assert heard == [(live.pk, 0), (live.pk, 1)]
