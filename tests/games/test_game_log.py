"""A live table as an event log (games/services/game_log.py): a move stores its action, not the game; the
state at any version is the last checkpoint with the moves after it replayed, in any process."""

import random

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import engine
from games.models import LiveGame, LiveMove
from games.services import game_log, snapshots
from games.services.moves import submit_move
from games.services.timers import sweep_once
from tests.games.factories import make_tournament_game
from tests.games.test_db_threads import a_move
from tournament.services.live_tables import live_game_for

pytestmark = [pytest.mark.django_db(transaction=True)]


def play(live_id: int, users, moves: int, rng: random.Random) -> None:
    """`moves` random legal moves by the players on turn (a hand that ends is dealt anew by the sweeper)."""
    for n in range(moves):
        live = LiveGame.objects.get(pk=live_id)
        game = engine.Game.from_dict(live.state)
        if game.over:
            return
        if game.hand is None or game.hand.over:
            sweep_once()
            continue
        action = rng.choice(engine.legal_actions(game.hand, game.hand.turn)).to_dict()
        del action["seat"]
        submit_move(live_id, users[live.hand_seats[game.hand.turn]], live.version, action, f"r{n}")


def test_a_move_writes_its_row_and_the_games_small_columns_not_the_engine_state(live_settings):
    tgame, users = make_tournament_game(3)
    live = live_game_for(tgame, seed=5)
    checkpoint_at = LiveGame.objects.get(pk=live.pk).checkpoint_version
    user, version, action = a_move(live.pk, users)
    with CaptureQueriesContext(connection) as queries:
        done = submit_move(live.pk, user, version, action, "g-1")
    writes = [q["sql"] for q in queries if q["sql"].lstrip().upper().startswith(("UPDATE", "INSERT"))]
    assert writes and not any('"checkpoint"' in sql for sql in writes)  # the column, not its version
    update = next(sql for sql in writes if sql.lstrip().upper().startswith("UPDATE") and "games_livegame" in sql)
    assert '"shuffles"' not in update and '"title"' not in update  # only what an action can change
    assert not any('"checkpoint"' in q["sql"] for q in queries)  # nor read: the process kept the game
    stored = LiveGame.objects.get(pk=live.pk)
    assert stored.version == done.version and stored.checkpoint_version == checkpoint_at
    stored_action = LiveMove.objects.get(live_game=live, version=done.version).action
    assert {k: v for k, v in stored_action.items() if k != "seat"} == action


def test_every_version_replays_to_the_game_the_move_path_kept(live_settings):
    tgame, users = make_tournament_game(4)
    live = live_game_for(tgame, seed=9)
    play(live.pk, users, 160, random.Random(3))
    stored = LiveGame.objects.get(pk=live.pk)
    kept = game_log.take(live.pk, stored.version)
    assert kept is not None  # the move path kept the newest version in memory
    game_log.forget_all()
    assert game_log.load(stored) == kept  # another process: the checkpoint and the moves after it
    assert engine.Game.from_dict(stored.state) == kept
    assert stored.version - stored.checkpoint_version <= game_log.CHECKPOINT_EVERY


def test_a_deal_stores_a_checkpoint_and_so_does_every_hundredth_move(live_settings, monkeypatch):
    monkeypatch.setattr(game_log, "CHECKPOINT_EVERY", 5)
    tgame, users = make_tournament_game(3)
    live = live_game_for(tgame, seed=5)
    dealt = LiveGame.objects.get(pk=live.pk)
    assert dealt.checkpoint_version == dealt.version == 1  # the first deal
    play(live.pk, users, 12, random.Random(1))
    stored = LiveGame.objects.get(pk=live.pk)
    assert stored.version > 10 and stored.version - stored.checkpoint_version < 5
    assert engine.Game.from_dict(stored.checkpoint) != engine.Game.from_dict(dealt.checkpoint)


def test_a_move_after_another_process_moved_replays_from_the_database(live_settings):
    tgame, users = make_tournament_game(3)
    live = live_game_for(tgame, seed=5)
    user, version, action = a_move(live.pk, users)
    submit_move(live.pk, user, version, action, "p-1")
    snapshots.forget_all()  # as a process that made neither the deal nor the move
    user, version, action = a_move(live.pk, users)
    done = submit_move(live.pk, user, version, action, "p-2")
    assert done.version == version + 1
    stored = LiveGame.objects.get(pk=live.pk)
    assert game_log.take(live.pk, done.version) == engine.Game.from_dict(stored.state)


def test_a_refused_move_changes_nothing_and_the_next_one_plays(live_settings):
    tgame, users = make_tournament_game(3)
    live = live_game_for(tgame, seed=5)
    user, version, action = a_move(live.pk, users)
    before = LiveGame.objects.get(pk=live.pk).state
    with pytest.raises(Exception):  # noqa: B017 - MoveRefused, whatever its code
        submit_move(live.pk, user, version, {"type": "play", "card": "not-a-card"}, "bad-1")
    assert LiveGame.objects.get(pk=live.pk).state == before
    assert submit_move(live.pk, user, version, action, "ok-1").version == version + 1
