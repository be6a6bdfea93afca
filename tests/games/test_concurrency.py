"""Several workers at once: the same move sent concurrently is applied once, and sweepers racing over a
due game play its turn once (the row lock and the re-check of version and deadline)."""

import threading
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from games import engine
from games.models import LiveGame, LiveMove
from games.services import timers
from games.services.lifecycle import live_game_for
from games.services.moves import MoveRefused, submit_move
from games.services.seats import turn_game_seat
from tests.games.factories import make_tournament_game

pytestmark = [pytest.mark.django_db(transaction=True)]


def run_at_once(work, count=4):
    results, errors = [], []
    barrier = threading.Barrier(count)

    def target(i):
        barrier.wait()
        try:
            results.append(work(i))
        except MoveRefused as refused:
            results.append(refused.code)
        except Exception as error:  # noqa: BLE001
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=target, args=(i,)) for i in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    return results


def test_the_same_move_sent_concurrently_is_applied_once():
    game, users = make_tournament_game(3)
    live = live_game_for(game, seed=11)
    state = engine.Game.from_dict(live.state)
    seat = turn_game_seat(state, live.hand_seats)
    action = engine.legal_actions(state.hand, state.hand.turn)[0].to_dict()
    del action["seat"]
    results = run_at_once(lambda i: submit_move(live.pk, users[seat], 1, action, f"try-{i}"))
    applied = [r for r in results if not isinstance(r, str)]
    assert len(applied) == 1 and applied[0].version == 2
    assert sorted(r for r in results if isinstance(r, str)) == ["already_played"] * 3
    assert LiveGame.objects.get(pk=live.pk).version == 2
    assert LiveMove.objects.filter(live_game=live).count() == 2


def test_racing_sweepers_play_a_due_turn_once():
    game, users = make_tournament_game(3, turn_seconds=30)
    live = live_game_for(game, seed=11)
    LiveGame.objects.filter(pk=live.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    results = run_at_once(lambda i: timers.sweep_once(timezone.now()))
    assert sum(results) == 1
    after = LiveGame.objects.get(pk=live.pk)
    timer_moves = LiveMove.objects.filter(live_game=live, actor="timer")
    assert timer_moves.exists() and after.version == 1 + timer_moves.count()
    assert sum(after.missed_turns) == 1
