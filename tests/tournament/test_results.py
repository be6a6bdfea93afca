"""Recording and correcting hands: winner takes the others' points, totals derived, target finishes."""

import pytest

from tests.tournament.organizer_factories import make_event, make_players, make_user, pause_for_paper
from tournament.models import AuditEntry, Game, Hand, HandScore
from tournament.services import game_status, rounds
from tournament.services.results import ResultError, game_totals, points_won_for, record_hand

pytestmark = pytest.mark.django_db


@pytest.fixture
def running_game():
    event = make_event(min_table_size=3, max_table_size=3, target_score=100)
    make_players(event, 3)
    organizer = make_user()
    round_ = rounds.create_first_round(event, rounds.plan_first_round(event, seed=5), organizer)
    rounds.start_round(round_, organizer)
    game = Game.objects.get(table__round=round_)
    pause_for_paper(game, organizer)  # its live table opened with the round
    seats = list(game.table.seats.order_by("number"))
    return game, seats, organizer


def test_points_won_winner_takes_the_rest():
    assert points_won_for(1, {1: 0, 2: 30, 3: 12}) == {1: 42, 2: 0, 3: 0}


def test_record_a_hand(running_game):
    game, (a, b, c), organizer = running_game
    outcome = record_hand(game, 1, a.pk, {a.pk: 0, b.pk: 30, c.pk: 12}, organizer, "Table played on paper")
    assert outcome.created and not outcome.game_finished
    hand = outcome.hand
    assert hand.source == Hand.Source.MANUAL and hand.winner_id == a.pk and hand.dealer == 0
    assert dict(HandScore.objects.filter(hand=hand).values_list("seat_id", "points_won")) == {
        a.pk: 42, b.pk: 0, c.pk: 0}
    entry = AuditEntry.objects.get(action="hand.record")
    assert entry.actor == organizer and entry.reason == "Table played on paper"
    assert entry.changes["before"] is None and entry.changes["after"]["scores"][a.label]["points_won"] == 42


def test_correction_recomputes_the_cumulative_total(running_game):
    game, (a, b, c), organizer = running_game
    record_hand(game, 1, a.pk, {a.pk: 0, b.pk: 30, c.pk: 12}, organizer, "paper")
    record_hand(game, 2, b.pk, {a.pk: 5, b.pk: 0, c.pk: 20}, organizer, "paper")
    assert game_totals(game) == {a.pk: 42, b.pk: 25, c.pk: 0}
    outcome = record_hand(game, 1, c.pk, {a.pk: 8, b.pk: 10, c.pk: 0}, organizer, "Wrong winner noted")
    assert not outcome.created
    totals = game_totals(game)
    # cumulative = sum over hands, recomputed from the rows after the correction
    for seat in (a, b, c):
        assert totals.get(seat.pk, 0) == sum(
            HandScore.objects.filter(hand__game=game, seat=seat).values_list("points_won", flat=True))
    assert totals == {a.pk: 0, b.pk: 25, c.pk: 18}
    entry = AuditEntry.objects.get(action="hand.correct")
    assert entry.changes["before"]["winner"] == a.label and entry.changes["after"]["winner"] == c.label
    assert Hand.objects.filter(game=game).count() == 2


def test_reaching_the_target_finishes_the_game_and_a_correction_reopens_it(running_game):
    game, (a, b, c), organizer = running_game
    record_hand(game, 1, a.pk, {a.pk: 0, b.pk: 50, c.pk: 20}, organizer, "paper")
    outcome = record_hand(game, 2, a.pk, {a.pk: 0, b.pk: 25, c.pk: 10}, organizer, "paper")
    game.refresh_from_db()
    assert outcome.game_finished and game.status == "finished" and game.winner_id == a.pk
    assert game.table.round.status == "finished"
    with pytest.raises(ResultError, match="game is finished"):
        record_hand(game, 3, b.pk, {a.pk: 1, b.pk: 0, c.pk: 1}, organizer, "late")
    outcome = record_hand(game, 2, a.pk, {a.pk: 0, b.pk: 5, c.pk: 5}, organizer, "miscounted")
    game.refresh_from_db()
    assert outcome.game_reopened and game.status == "running" and game.winner_id is None
    game.table.round.refresh_from_db()
    assert game.table.round.status == "running"


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"reason": ""}, "Give a reason"),
        ({"number": 3}, "next hand of this game is hand 1"),
        ({"winner_points": 4}, "points left must be 0"),
        ({"negative": True}, "whole number, 0 or more"),
        ({"missing_seat": True}, "every seat"),
    ],
)
def test_bad_results_are_refused_and_save_nothing(running_game, change, message):
    game, (a, b, c), organizer = running_game
    points = {a.pk: change.get("winner_points", 0), b.pk: -3 if change.get("negative") else 7, c.pk: 2}
    if change.get("missing_seat"):
        del points[c.pk]
    with pytest.raises(ResultError, match=message):
        record_hand(game, change.get("number", 1), a.pk, points, organizer, change.get("reason", "paper"))
    assert not Hand.objects.filter(game=game).exists()
    assert not AuditEntry.objects.filter(action__startswith="hand.").exists()


def test_pending_game_cannot_take_hands():
    event = make_event(min_table_size=2, max_table_size=2)
    make_players(event, 2)
    round_ = rounds.create_first_round(event, rounds.plan_first_round(event, seed=1), make_user())
    game = Game.objects.get(table__round=round_)
    a, b = game.table.seats.all()
    with pytest.raises(ResultError, match="not started"):
        record_hand(game, 1, a.pk, {a.pk: 0, b.pk: 3}, None, "paper")


def test_winner_of_an_early_finish_is_the_leader(running_game):
    game, (a, b, c), organizer = running_game
    record_hand(game, 1, b.pk, {a.pk: 10, b.pk: 0, c.pk: 10}, organizer, "paper")
    finished = game_status.change_game_status(game, "finish", organizer, reason="time")
    assert finished.winner_id == b.pk
    # a correction of an early-finished game keeps it finished
    record_hand(game, 1, b.pk, {a.pk: 5, b.pk: 0, c.pk: 10}, organizer, "typo")
    game.refresh_from_db()
    assert game.status == "finished"


# ---- a bracket game is scored as its stage's format says ---------------------------------------------


def stage_one_game(game_format, later="standard"):
    from tests.tournament.bracket_factories import played_first_round, stage_game
    from tournament.services import bracket_stages, next_round
    from tournament.services.next_round import NextRoundOptions

    event, organizer, _ = played_first_round(16, min_size=4, max_size=4)
    options = NextRoundOptions(field=16, advance=[1], formats=[game_format, later], draw_seed=3)
    plan = next_round.plan_next_round(event, options)
    assert plan.confirmable, plan.problems
    round_two = next_round.create_bracket_round(event, options, plan.field_ids, organizer)
    bracket_stages.start_stage(round_two, 1, organizer)
    game = stage_game(round_two, 1, 1)
    pause_for_paper(game, organizer)  # its live table opened with the stage
    return game, organizer


def test_partners_hands_are_scored_for_the_team():
    from tournament.generators.brackets import PARTNERS
    from tournament.services.results import game_seats

    game, organizer = stage_one_game(PARTNERS)
    a, b, c, d = game_seats(game)  # a+c against b+d
    record_hand(game, 1, c.pk, {a.pk: 7, b.pk: 20, c.pk: 0, d.pk: 15}, organizer, "score sheet")
    won = dict(HandScore.objects.filter(hand__game=game).values_list("seat_id", "points_won"))
    assert won == {a.pk: 35, c.pk: 35, b.pk: 0, d.pk: 0}, "both partners score the opponents' cards"
    assert points_won_for(1, {1: 0, 2: 5, 3: 9, 4: 3}, {1: 0, 2: 1, 3: 0, 4: 1}) == {1: 8, 2: 0, 3: 8, 4: 0}


def test_challenge_uno_hands_are_refused_with_the_reason_and_save_nothing():
    from tournament.generators.brackets import CHALLENGE

    game, organizer = stage_one_game(CHALLENGE)
    seats = list(game.table.seats.order_by("number"))
    with pytest.raises(ResultError, match="Challenge UNO.*'elimination'"):
        record_hand(game, 1, seats[0].pk, {s.pk: 0 if s == seats[0] else 10 for s in seats}, organizer, "sheet")
    assert not Hand.objects.filter(game=game).exists()


def test_a_rotation_block_takes_only_its_four_hands_and_its_own_seats():
    from tournament.generators.brackets import PARTNERS_ROTATION
    from tournament.services.results import game_seats

    game, organizer = stage_one_game(PARTNERS_ROTATION, PARTNERS_ROTATION)
    seats = game_seats(game)
    assert [s.number for s in seats] == game.seat_order != [0, 1, 2, 3]
    left = {s.pk: 0 if i == 1 else 9 for i, s in enumerate(seats)}
    for number in range(1, 5):
        outcome = record_hand(game, number, seats[1].pk, left, organizer, "sheet")
    assert outcome.game_finished
    game.refresh_from_db()
    # the partners who went out every hand share the block's best score: no single winner
    assert game.status == Game.Status.FINISHED and game.winner_id is None
    assert game_totals(game) == {seats[1].pk: 72, seats[3].pk: 72, seats[0].pk: 0, seats[2].pk: 0}
    with pytest.raises(ResultError, match="The game is finished"):
        record_hand(game, 5, seats[1].pk, left, organizer, "one more")
    # a correction of a hand of the block keeps it finished; the next block was made when it ended
    record_hand(game, 2, seats[0].pk, {s.pk: 0 if i == 0 else 4 for i, s in enumerate(seats)}, organizer, "typo")
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    following = Game.objects.get(table=game.table, number=2)
    assert following.status == Game.Status.RUNNING and following.seat_order != game.seat_order
