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
from games.services.moves import MoveRefused, submit_move
from games.services.seats import turn_game_seat
from tests.games.factories import make_tournament_game
from tests.live_asgi import live_asgi_workers  # noqa: F401 (fixture)
from tournament.services.live_tables import live_game_for

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


# ---- through live workers: two sockets of one player, a double-click ----------------------------------

ROUNDS = 6  # moves raced per case (each a new version)


def _race(senders, message_for):
    """Each (socket, message) sent at the same instant from its own thread; the answers, in sender order."""
    barrier = threading.Barrier(len(senders))
    answers = [None] * len(senders)

    def send(i):
        sock = senders[i]
        barrier.wait()
        sock.send(message_for(i))

    threads = [threading.Thread(target=send, args=(i,)) for i in range(len(senders))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for i, sock in enumerate(senders):
        answers[i] = sock.receive_until(lambda m: m["type"] in ("ack", "error"))
    return answers


@pytest.mark.parametrize("case", ["two sockets, one move id", "two sockets, own move ids",
                                  "one socket, a double-click"])
def test_the_same_move_from_two_sockets_or_a_double_click_applies_once(case, live_asgi_workers):  # noqa: F811
    """Real concurrency: two worker processes (on PostgreSQL, row locks; on SQLite, the write lock) get the
    same move at the same instant; exactly one is applied, the other is answered `already_played`."""
    from tests.games.factories import session_cookie
    from tests.games.test_faults_restart import RawSocket

    game, users = make_tournament_game(2)
    live = live_game_for(game, seed=7)
    a, b = live_asgi_workers(), live_asgi_workers()
    cookie_of = [session_cookie(u).decode() for u in users]
    for n in range(ROUNDS):
        live.refresh_from_db()
        state = engine.Game.from_dict(live.state)
        seat = turn_game_seat(state, live.hand_seats)
        action = engine.legal_actions(state.hand, state.hand.turn)[0].to_dict()
        del action["seat"]
        if case == "one socket, a double-click":
            sock = RawSocket(a.host, a.port, live.ws_path, cookie_of[seat])
            senders = [sock, sock]
        else:
            senders = [RawSocket(w.host, w.port, live.ws_path, cookie_of[seat]) for w in (a, b)]
        for s in set(senders):
            s.receive_until(lambda m: m["type"] == "state")
        ids = ["click", "click"] if case != "two sockets, own move ids" else ["tab-1", "tab-2"]
        messages = [{"type": "move", "version": live.version, "action": action, "id": f"{ids[i]}-{n}"}
                    for i in range(2)]
        if case == "one socket, a double-click":
            for message in messages:
                sock.send(message)
            answers = [sock.receive_until(lambda m: m["type"] in ("ack", "error")) for _ in range(2)]
        else:
            answers = _race(senders, messages.__getitem__)
        kinds = sorted(x["type"] if x["type"] == "ack" else x["code"] for x in answers)
        assert kinds == ["ack", "already_played"], answers
        refused = next(x for x in answers if x["type"] == "error")
        assert refused["message"] == "this move was already played"
        after = LiveGame.objects.get(pk=live.pk)
        assert after.version == live.version + 1
        assert LiveMove.objects.filter(live_game=live).count() == after.version
        for s in set(senders):
            s.close()
