"""The live tables announce with `games.signals`, and the tournament's receivers do the work: a hand scored
becomes `Hand` rows in the move's transaction, a game finished at its target finishes the tournament game
and its round, a rotation block's last hand moves the bracket on to the next block."""

from __future__ import annotations

import contextlib

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.utils import timezone

from games import engine, signals
from games.models import LiveGame, LiveMove
from games.services.moves import submit_move
from games.services.seats import seat_holders, turn_game_seat
from tests.games.factories import make_tournament_game
from tests.tournament.bracket_factories import played_first_round
from tests.tournament.test_rotation_live import play_live, rotation_final, running_lives
from tournament import receivers
from tournament.generators.brackets import PARTNERS_ROTATION
from tournament.models import AuditEntry, BracketStage, Game, Hand, HandScore, Round, Seat, Table
from tournament.services import bracket_stages, next_round
from tournament.services.live_tables import live_game_for
from tournament.services.next_round import NextRoundOptions

pytestmark = [pytest.mark.usefixtures("live_settings")]


@contextlib.contextmanager
def listening(signal, *, fail: bool = False):
    """Record every sending of `signal` (its keyword arguments, and whether a transaction was open);
    with `fail`, the listener raises as a broken receiver would."""
    calls: list[dict] = []

    def listener(**kwargs):
        calls.append({**kwargs, "in_transaction": connection.in_atomic_block})
        if fail:
            raise RuntimeError("a receiver failed")

    signal.connect(listener, sender=LiveGame, weak=False)
    try:
        yield calls
    finally:
        signal.disconnect(listener, sender=LiveGame)


@pytest.mark.django_db(transaction=True)  # no test transaction around it: "in a transaction" means the move's
def test_a_scored_hand_is_announced_inside_the_move_with_the_documented_arguments():
    tgame, _ = make_tournament_game(2, target_score=5000)
    live = live_game_for(tgame, seed=3)
    with listening(signals.hand_scored) as calls:
        play_live(live.pk, hands=1)
    assert len(calls) == 1
    call = calls[0]
    assert set(call) == {"signal", "sender", "live", "result", "started_at", "ended_at", "move", "in_transaction"}
    assert call["sender"] is LiveGame and call["in_transaction"]
    assert call["move"].hand_number == call["result"].number and call["move"].actor == LiveMove.Actor.PLAYER
    assert call["live"].pk == live.pk and isinstance(call["result"], engine.HandResult)
    assert call["result"].number == 0 and call["started_at"] <= call["ended_at"] <= timezone.now()
    # the receiver wrote the hand in that same transaction: it is there with the move that ended the hand
    hand = Hand.objects.get(game=tgame)
    assert hand.number == 1 and hand.source == Hand.Source.LIVE and hand.ended_at == call["ended_at"]
    assert sorted(HandScore.objects.filter(hand=hand).values_list("points_won", flat=True)) == sorted(
        call["result"].points_won)


@pytest.mark.django_db(transaction=True)
def test_a_receiver_that_fails_rolls_the_move_back_with_the_hand():
    tgame, _ = make_tournament_game(2, target_score=5000)
    live = live_game_for(tgame, seed=3)
    with listening(signals.hand_scored, fail=True), pytest.raises(RuntimeError, match="a receiver failed"):
        play_live(live.pk, hands=1)
    live.refresh_from_db()
    game = engine.Game.from_dict(live.state)
    assert not game.results and not game.hand.over, "the move that ended the hand was not stored"
    assert LiveMove.objects.filter(live_game=live).count() == live.version
    assert not Hand.objects.filter(game=tgame).exists()


@pytest.mark.django_db
def test_a_game_at_its_target_is_announced_finished_and_the_tournament_finishes_it_and_its_round():
    tgame, _ = make_tournament_game(2, target_score=1)  # the first hand reaches it
    live = live_game_for(tgame, seed=3)
    with listening(signals.hand_scored) as hands, listening(signals.game_finished) as calls:
        play_live(live.pk)
    assert len(hands) == 1 and len(calls) == 1
    call = calls[0]
    assert set(call) == {"signal", "sender", "live", "game", "now", "move", "in_transaction"}
    assert call["live"].pk == live.pk and call["live"].status == LiveGame.Status.FINISHED
    assert isinstance(call["game"], engine.Game) and call["game"].over
    tgame.refresh_from_db()
    assert tgame.status == Game.Status.FINISHED and tgame.finished_at == call["now"]
    winners = list(call["game"].winners)
    assert tgame.winner.number == winners[0] if len(winners) == 1 else tgame.winner is None
    assert Round.objects.get(tables=tgame.table_id).status == Round.Status.FINISHED
    assert AuditEntry.objects.filter(action="game.finish_live").count() == 1


@pytest.mark.django_db
def test_the_tournament_receivers_write_a_hand_sent_to_them():
    tgame, _ = make_tournament_game(3)
    live = live_game_for(tgame, seed=3)
    now = timezone.now()
    result = engine.HandResult(number=0, dealer=1, winner=2, team=None, blocked=False,
                               points_left=(12, 30, 0), points_won=(0, 0, 42), totals=(0, 0, 42))
    signals.hand_scored.send(LiveGame, live=live, result=result, started_at=None, ended_at=now)
    hand = Hand.objects.get(game=tgame)
    assert (hand.number, hand.dealer, hand.winner.number, hand.started_at) == (1, 1, 2, now)
    assert {s.seat.number: (s.points_left, s.points_won) for s in hand.scores.select_related("seat")} == {
        0: (12, 0), 1: (30, 0), 2: (0, 42)}


@pytest.mark.django_db
def test_without_the_tournament_receivers_a_live_hand_leaves_the_tournament_untouched():
    """The only way from a live table into the tournament is the signals."""
    tgame, _ = make_tournament_game(2, target_score=5000)
    live = live_game_for(tgame, seed=3)
    signals.hand_scored.disconnect(receivers.hand_scored, sender=LiveGame, dispatch_uid="tournament.hand_scored")
    try:
        with listening(signals.hand_scored) as calls:
            _play_one_hand(live.pk, calls)
    finally:
        receivers.connect()
    assert len(calls) == 1 and not Hand.objects.filter(game=tgame).exists()


def _play_one_hand(live_id: int, calls: list) -> None:
    """Moves until a hand has been announced (`play_live` counts `Hand` rows, which are not written here)."""
    for _ in range(5000):
        if calls:
            return
        live = LiveGame.objects.select_related("game").get(pk=live_id)
        game = engine.Game.from_dict(live.state)
        seat = turn_game_seat(game, live.hand_seats)
        action = engine.legal_actions(game.hand, live.hand_seats.index(seat))[0].to_dict()
        action.pop("seat", None)
        user = get_user_model().objects.get(pk=seat_holders(live)[seat].user_id)
        submit_move(live.pk, user, live.version, action)
    raise AssertionError("no hand ended")


@pytest.mark.django_db
def test_a_rotation_blocks_last_hand_played_live_moves_the_bracket_on_to_the_next_block():
    _, _, round_two = rotation_final(8, 4, PARTNERS_ROTATION)
    [first] = running_lives(round_two)
    with listening(signals.game_finished) as finished:
        live = play_live(first.pk)
    assert live.status == LiveGame.Status.FINISHED and not finished, "a block ends after its hands, not a target"
    assert live.next_hand_at is None, "the receiver ended the live game: no next hand is scheduled"
    assert Game.objects.get(pk=first.game_id).status == Game.Status.FINISHED
    [second] = running_lives(round_two)
    assert second.game.number == 2 and second.game.table_id == first.game.table_id
    assert Round.objects.get(pk=round_two.pk).status == Round.Status.RUNNING


@pytest.mark.django_db
def test_games_finished_live_at_their_target_advance_the_bracket_to_its_next_stage():
    event, organizer, _ = played_first_round(8, target_score=1)  # every live game ends with its first hand
    options = NextRoundOptions(field=8, advance=[2], draw_seed=3)  # two of each table of four go on
    round_two = next_round.create_bracket_round(event, options, next_round.plan_next_round(event, options).field_ids,
                                                organizer)
    bracket_stages.start_stage(round_two, 1, organizer)
    first_stage = running_lives(round_two)
    assert len(first_stage) == 2 and not Table.objects.filter(round=round_two, stage=2).exists()
    with listening(signals.game_finished) as finished:
        for live in first_stage:
            play_live(live.pk)
    assert [call["live"].pk for call in finished] == [live.pk for live in first_stage]
    final = BracketStage.objects.get(round=round_two, number=2)
    assert final.built_at is not None, "stage 1 ended: the final is built"
    winners = {Game.objects.get(pk=live.game_id).winner.player_id for live in first_stage}
    final_players = {s.player_id for s in Seat.objects.filter(table__round=round_two, table__stage=2)}
    assert len(final_players) == 4 and winners <= final_players
