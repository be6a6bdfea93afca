"""`first_own_move`: sent once per seat and game, for the player's own moves only, after the commit."""

from datetime import timedelta

import pytest
from django.utils import timezone

from games import engine
from games.models import LiveGame
from games.services import first_moves, timers
from games.services.moves import MoveRefused, submit_move
from tests.games.factories import make_tournament_game
from tournament.services.live_tables import live_game_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def heard():
    first_moves.forget_all()
    seen = []

    def receiver(sender, live_game, seat, **kwargs):
        seen.append((live_game.pk, seat))

    first_moves.first_own_move.connect(receiver, dispatch_uid="test-first-moves")
    yield seen
    first_moves.first_own_move.disconnect(dispatch_uid="test-first-moves")
    first_moves.forget_all()


def on_turn(live_id):
    live = LiveGame.objects.get(pk=live_id)
    state = engine.Game.from_dict(live.state)
    action = engine.legal_actions(state.hand, state.hand.turn)[0].to_dict()
    del action["seat"]
    return live, live.hand_seats[state.hand.turn], action


def test_each_seat_is_announced_once_and_the_timer_never(heard, django_capture_on_commit_callbacks):
    tgame, users = make_tournament_game(3, turn_seconds=30)
    live = live_game_for(tgame, seed=5)
    live, timed_out, _action = on_turn(live.pk)
    with django_capture_on_commit_callbacks(execute=True):
        assert timers.sweep_game(live.pk, timezone.now() + timedelta(minutes=5))  # the timer plays for it
    assert heard == []
    order = []
    for _ in range(6):  # twice round the table of three
        live, seat, action = on_turn(live.pk)
        with django_capture_on_commit_callbacks(execute=True):
            submit_move(live.pk, users[seat], live.version, action)
        order.append(seat)
    assert sorted(heard) == sorted({(live.pk, seat) for seat in order}) and len(heard) == len(set(order))
    assert timed_out in order, "the seat the timer played for is announced at its player's own first move"


def test_a_refused_move_announces_nothing(heard, django_capture_on_commit_callbacks):
    tgame, users = make_tournament_game(3)
    live = live_game_for(tgame, seed=5)
    live, seat, action = on_turn(live.pk)
    with django_capture_on_commit_callbacks(execute=True), pytest.raises(MoveRefused, match="moved on"):
        submit_move(live.pk, users[seat], live.version - 1, action)
    assert heard == []
