"""Partner rotations played live through the services: a block of four hands per game, the next block's
games (new partners, and with eight players new tables) made when a block ends, the game ending after 12
or 28 hands, per-player scores, and the bracket deciding from them."""

from __future__ import annotations

from collections import Counter, defaultdict
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from games import engine
from games.models import LiveGame
from games.services import timers
from games.services.moves import submit_move
from games.services.seats import seat_holders, turn_game_seat
from tests.tournament.bracket_factories import played_first_round
from tests.tournament.organizer_factories import pause_for_paper
from tournament.generators.brackets import PARTNERS_ROTATION, PARTNERS_ROTATION_8
from tournament.generators.partners import partner_rotation
from tournament.models import BracketStage, Game, Hand, HandScore, Round, Seat
from tournament.services import advancing, bracket_stages, bracket_view, next_round, results, stage_results
from tournament.services.next_round import NextRoundOptions
from tournament.services.rotations import ROTATION_TARGET

pytestmark = [pytest.mark.django_db(transaction=False), pytest.mark.usefixtures("live_settings")]



def rotation_final(players: int, field: int, game_format: str, max_size: int = 4):
    """A bracket whose only stage (the final) is a rotation of ``field`` players, started."""
    event, organizer, _ = played_first_round(players, min_size=4, max_size=max_size)
    options = NextRoundOptions(field=field, advance=[1], formats=[game_format], draw_seed=3)
    plan = next_round.plan_next_round(event, options)
    assert plan.confirmable, plan.problems
    round_two = next_round.create_bracket_round(event, options, plan.field_ids, organizer)
    assert [s.is_final for s in BracketStage.objects.filter(round=round_two)] == [True]
    bracket_stages.start_stage(round_two, 1, organizer)
    return event, organizer, round_two


def running_lives(round_: Round) -> list[LiveGame]:
    return list(LiveGame.objects.filter(game__table__round=round_, status=LiveGame.Status.RUNNING,
                                        game__status=Game.Status.RUNNING)
                .select_related("game").order_by("game__number"))


def play_live(live_id: int, hands: int | None = None) -> LiveGame:
    """Each player on turn plays their first legal action through the move service; the sweeper deals the
    next hand. Until the live game ends (or, with `hands`, the tournament game has that many hands)."""
    users = get_user_model().objects
    for _ in range(20_000):
        live = LiveGame.objects.select_related("game").get(pk=live_id)
        if live.status == LiveGame.Status.FINISHED or (
                hands is not None and Hand.objects.filter(game_id=live.game_id).count() >= hands):
            return live
        game = engine.Game.from_dict(live.state)
        seat = turn_game_seat(game, live.hand_seats)
        if seat is None:
            assert timers.sweep_game(live.pk, timezone.now() + timedelta(minutes=5))
            continue
        holder = seat_holders(live)[seat]
        hand_seat = live.hand_seats.index(seat)
        action = engine.legal_actions(game.hand, hand_seat)[0].to_dict()
        action.pop("seat", None)
        submit_move(live.pk, users.get(pk=holder.user_id), live.version, action)
    raise AssertionError("the live table did not get that far")


def partners_in(game: Game) -> set[frozenset]:
    seats = {s.number: s.player_id for s in Seat.objects.filter(table_id=game.table_id)}
    a, b, c, d = (seats[n] for n in game.seat_order)
    return {frozenset((a, c)), frozenset((b, d))}


def player_totals(round_: Round) -> dict[int, int]:
    totals: dict[int, int] = defaultdict(int)
    for player_id, won in HandScore.objects.filter(hand__game__table__round=round_).values_list(
            "seat__player_id", "points_won"):
        totals[player_id] += won
    return dict(totals)


def assert_over_with_the_best_total_champion(round_: Round, totals: dict[int, int], hands: int):
    """The round is over, its one table played `hands` hands, and the player who goes on has the best total."""
    round_.refresh_from_db()
    assert round_.status == Round.Status.FINISHED
    state = bracket_view.load_bracket(round_)
    stage_results.stage_advancers(state, state.stages[0])
    champion = next(s.seat.player_id for s in state.stages[0].tables[0].seats if s.advanced)
    assert totals[champion] == max(totals.values())
    assert state.stages[0].tables[0].hands == hands
    return state


def test_a_12_hand_rotation_is_played_live_to_its_end_and_decides_the_final():
    event, organizer, round_two = rotation_final(8, 4, PARTNERS_ROTATION)
    table = round_two.tables.get()
    seat_ids = {s.number: s.player_id for s in table.seats.all()}
    schedule = partner_rotation(range(4))
    seen_partners: Counter = Counter()
    for block in schedule.blocks:
        lives = running_lives(round_two)
        assert len(lives) == 1, f"one game per block (block {block.number})"
        live = lives[0]
        assert live.game.number == block.number and live.game.seat_order == list(block.tables[0])
        assert live.game.target_score == ROTATION_TARGET and live.seat_count == 4
        # the live table seats the block's players in the block's order: partners opposite
        assert [h.name for h in seat_holders(live)] == [
            Seat.objects.get(table=table, number=n).label for n in block.tables[0]]
        assert engine.Game.from_dict(live.state).rules.partners
        play_live(live.pk)
        game = Game.objects.get(pk=live.game_id)
        assert game.status == Game.Status.FINISHED and game.hands.count() == 4, "the block ends after 4 hands"
        for pair in partners_in(game):
            seen_partners[pair] += game.hands.count()
        # every hand of the block is scored as partners: both players of the team that went out score
        for hand in game.hands.all():
            won = {s.seat.number: s.points_won for s in hand.scores.select_related("seat")}
            a, b, c, d = game.seat_order
            assert won[a] == won[c] and won[b] == won[d] and (won[a] == 0 or won[b] == 0)
    # 12 hands, every pair partnered for exactly four of them, no block after the last
    assert Hand.objects.filter(game__table=table).count() == 12
    assert Game.objects.filter(table=table).count() == 3 and not running_lives(round_two)
    assert sorted(seen_partners.values()) == [4] * 6
    # the champion has the most points over the 12 hands; the round is over
    totals = player_totals(round_two)
    assert set(totals) == set(seat_ids.values())
    state = assert_over_with_the_best_total_champion(round_two, totals, hands=12)
    assert [b.status for b in state.stages[0].tables[0].schedule] == ["played"] * 3


def test_the_28_hand_format_reseats_two_tables_every_block_and_ends_after_28_hands():
    event, organizer, round_two = rotation_final(12, 8, PARTNERS_ROTATION_8)
    group = round_two.tables.get()
    assert group.seats.count() == 8
    players = {s.number: s.player_id for s in group.seats.all()}
    schedule = partner_rotation(range(8))
    partnered: Counter = Counter()
    opposed: Counter = Counter()
    for block in schedule.blocks:
        lives = running_lives(round_two)
        assert len(lives) == 2, f"two tables of four in block {block.number}"
        assert [lv.game.seat_order for lv in lives] == [list(t) for t in block.tables]
        compositions = [{players[n] for n in lv.game.seat_order} for lv in lives]
        assert compositions[0].isdisjoint(compositions[1]) and len(compositions[0] | compositions[1]) == 8
        if block.number == 1:
            # a player's "my tables" lists only the table of four they sit at, not the group's other one
            from games.views import _my_tables

            for live in lives:
                user = Seat.objects.get(table=group, number=live.game.seat_order[0]).player.user
                assert [lv.pk for lv in _my_tables(user)] == [live.pk]
            for live in lives:  # the first block is played live at both tables
                play_live(live.pk)
        else:  # the others are recorded by the organizer's form (partners scoring), hand by hand
            for live in lives:
                game = live.game
                seats = results.game_seats(game)
                pause_for_paper(game, organizer)  # its live table is open: paused, as the form does
                for number in range(1, 5):
                    winner = seats[number % 4]
                    left = {s.pk: 0 if s == winner else 5 * (i + 1) for i, s in enumerate(seats)}
                    results.record_hand(game, number, winner.pk, left, organizer, "score sheet")
        for live in lives:
            game = Game.objects.get(pk=live.game_id)
            assert game.status == Game.Status.FINISHED and game.hands.count() == 4
            a, b, c, d = (players[n] for n in game.seat_order)
            partnered.update([frozenset((a, c)), frozenset((b, d))] * 4)
            opposed.update([frozenset(p) for p in ((a, b), (a, d), (c, b), (c, d))] * 4)
    # 28 hands per player, every pair partners for exactly four hands; no ninth block
    hands_per_player = Counter(HandScore.objects.filter(hand__game__table=group).values_list(
        "seat__player_id", flat=True))
    assert set(hands_per_player.values()) == {28} and len(hands_per_player) == 8
    assert len(partnered) == 28 and set(partnered.values()) == {4}
    assert Game.objects.filter(table=group).count() == 14 and not running_lives(round_two)
    assert_over_with_the_best_total_champion(round_two, player_totals(round_two), hands=28)


def test_a_rotation_stage_advances_its_winners_by_per_player_totals():
    """16 players at four rotation tables of 4; each table's best total goes on to a final of 4."""
    event, organizer, _ = played_first_round(16, min_size=4, max_size=4)
    options = NextRoundOptions(field=16, advance=[1], formats=[PARTNERS_ROTATION, "standard"], draw_seed=3)
    plan = next_round.plan_next_round(event, options)
    assert plan.confirmable, plan.problems
    round_two = next_round.create_bracket_round(event, options, plan.field_ids, organizer)
    bracket_stages.start_stage(round_two, 1, organizer)
    tables = list(round_two.tables.filter(stage=1).order_by("number"))
    for block in range(1, 4):
        for table in tables:
            game = Game.objects.get(table=table, number=block)
            seats = results.game_seats(game)
            assert [s.number for s in seats] == game.seat_order
            pause_for_paper(game, organizer)
            for number in range(1, 5):
                # game seats 0+2 go out every hand: both score the other team's points left
                left = {s.pk: 10 * table.number if i % 2 else 0 for i, s in enumerate(seats)}
                outcome = results.record_hand(game, number, seats[0].pk, left, organizer, "score sheet")
                assert outcome.game_finished == (number == 4)
        if block == 1:
            progress = advancing.advance_bracket(round_two)
            assert progress.waiting == ["Stage 1: tables 1, 2, 3, 4 still playing."] and not progress.built
    # Table seat 3 sits at game seat 0 in every block of the circle schedule, so it wins every hand:
    # 3 blocks x 4 hands x 20 per table number, the others a third of it.
    best = {}
    for table in tables:
        totals = defaultdict(int)
        for number, player_id, won in HandScore.objects.filter(hand__game__table=table).values_list(
                "seat__number", "seat__player_id", "points_won"):
            totals[(number, player_id)] += won
        assert sorted(totals.values()) == [80 * table.number] * 3 + [240 * table.number]
        best[table.number] = next(p for (n, p), t in totals.items() if n == 3)
    final = {s.player_id for s in Seat.objects.filter(table__round=round_two, table__stage=2)}
    assert final == set(best.values()), "each table's best total went on"


def test_rotation_stages_are_planned_in_groups_of_eight():
    event, organizer, _ = played_first_round(20, min_size=3, max_size=5)
    plan = next_round.plan_next_round(event, NextRoundOptions(field=16, advance=[4, 2],
                                                              formats=[PARTNERS_ROTATION_8, "standard"]))
    assert plan.confirmable, plan.problems
    assert [s.table_sizes for s in plan.bracket.stages] == [(8, 8), (4, 4), (4,)]
    assert [len(t) for t in plan.stage_one.tables] == [8, 8]
    # 12 players: one group of 8, the four highest seeds skip the stage (nothing else seats them)
    plan = next_round.plan_next_round(event, NextRoundOptions(field=12, advance=[4, 2],
                                                              formats=[PARTNERS_ROTATION_8, "standard"]))
    assert plan.confirmable, plan.problems
    assert (plan.bracket.stages[0].table_sizes, plan.bracket.stages[0].byes) == ((8,), 4)
    assert plan.stage_one.byes == plan.field_ids[:4]
    # a final of 8 players for the eight-player rotation cannot be fewer
    plan = next_round.plan_next_round(event, NextRoundOptions(field=16, advance=[1], formats=[PARTNERS_ROTATION_8]))
    assert not plan.confirmable and any("fewer than the smallest table (8)" in p for p in plan.problems)
