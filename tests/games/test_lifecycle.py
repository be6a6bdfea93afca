"""Creating live games: idempotent and race-safe for tournament games, one per running game of a round;
the first hand is dealt as version 1; the engine's seat rules are checked."""

import threading

import pytest
from django.db import connection

from games import engine
from games.models import LiveGame, LiveMove
from games.services.lifecycle import PracticeError, check_practice_setup, create_demo_bot_table
from tests.games.factories import make_tournament_game
from tournament.models import Game
from tournament.services.live_tables import live_game_for, start_live_games

pytestmark = [pytest.mark.django_db(transaction=True)]


def test_live_game_for_is_idempotent_and_deals_the_first_hand():
    game, users = make_tournament_game(3, bots=1, turn_seconds=45, missed_turns_before_bot=2)
    live = live_game_for(game, seed=7)
    assert live_game_for(game) == live and LiveGame.objects.count() == 1
    assert live.kind == "tournament" and live.seat_count == 4 and live.version == 1
    assert live.turn_seconds == 45 and live.missed_turns_before_bot == 2
    assert live.hand_seats == [0, 1, 2, 3] and live.deadline is not None
    first = LiveMove.objects.get(live_game=live)
    assert first.version == 1 and first.actor == "system" and first.action is None
    assert [e["kind"] for e in first.events][:1] in (["dealer_draw"], ["hand_started"])
    state = engine.Game.from_dict(live.state)
    assert state.rules.target == game.target_score and state.hand is not None


def test_start_live_games_covers_the_running_games_of_a_round():
    game, users = make_tournament_game(3)
    round_ = game.table.round
    from tournament.models import Seat, Table

    table2 = Table.objects.create(round=round_, number=2)
    for i in range(3):
        Seat.objects.create(table=table2, number=i, bot_kind="random")
    pending = Game.objects.create(table=table2, number=1, target_score=500)  # not started: no live game
    lives = start_live_games(round_)
    assert [lv.game_id for lv in lives] == [game.pk]
    pending.status = Game.Status.RUNNING
    pending.save()
    again = start_live_games(round_)
    assert [lv.game_id for lv in again] == [game.pk, pending.pk] and again[0] == lives[0]


def test_two_creators_at_once_get_the_same_live_game():
    game, users = make_tournament_game(3)
    got, errors = [], []

    def create():
        try:
            got.append(live_game_for(game).pk)
        except Exception as error:  # noqa: BLE001
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=create) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors and len(set(got)) == 1 and LiveGame.objects.count() == 1


def test_practice_setup_uses_the_engines_seat_rules():
    assert check_practice_setup("uno-official", 9, "random").preset == "uno-official"
    with pytest.raises(PracticeError, match="played by 2 to 10 players, not 11"):
        check_practice_setup("uno-official", 10, "random")
    with pytest.raises(PracticeError, match="unknown preset"):
        check_practice_setup("nope", 2, "random")


def test_a_demo_table_of_bots():
    live = create_demo_bot_table(seats=4, seed=1)
    assert live.kind == "exhibition" and live.bot_kinds == ["heuristic"] * 4 and live.version == 1
    assert live.deadline is not None  # the first bot is due after its think time


def test_a_bracket_stage_format_sets_the_live_rules():
    from tournament.models import Round
    from tournament.models.brackets import BracketStage

    game, users = make_tournament_game(4)
    round_ = game.table.round
    Round.objects.filter(pk=round_.pk).update(kind=Round.Kind.BRACKET)
    BracketStage.objects.create(round=round_, number=1, planned_field=4, planned_tables=1, advance_per_table=1,
                                is_final=True, game_format="challenge")
    game.refresh_from_db()
    live = live_game_for(game, seed=3)
    assert engine.Game.from_dict(live.state).rules.scoring == "elimination"
