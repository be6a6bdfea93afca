"""Results played at live tables, written into the tournament: each hand's `Hand` + `HandScore` rows, the end
of a partner rotation's block, and a game finished at its target.

Run by the receivers of `games.signals` (`tournament.receivers`) inside the move's transaction, so the move,
the scores and the game's end stand or fall together. The rows are the same an organizer's `record_hand`
writes (source "live"); totals are never stored: they are sums over `HandScore`.
"""

from __future__ import annotations

from datetime import datetime

from django.db.models import Max

from games import engine
from games.models import LiveGame
from games.services.lifecycle import end_with_this_change
from tournament.generators.partners import HANDS_PER_PARTNER
from tournament.live import notify_scores_changed
from tournament.models import Game, Hand, HandScore, Seat
from tournament.services import audit
from tournament.services.game_end import game_ended
from tournament.services.rotations import end_block_if_played


def record_live_hand(live: LiveGame, result: engine.HandResult, started_at: datetime | None,
                     ended_at: datetime) -> Hand:
    """One `Hand` and a `HandScore` per seat dealt in (points left and won, in tournament seat numbers);
    a partner rotation's block that has had its hands ends with it."""
    tgame = live.game
    seats = _game_seats(tgame)
    # Normally the engine's hand number + 1; an organizer may have recorded a hand by hand meanwhile.
    last = Hand.objects.filter(game=tgame).aggregate(last=Max("number"))["last"] or 0
    hand = Hand.objects.create(
        game=tgame, number=max(result.number + 1, last + 1), dealer=result.dealer,
        winner=seats.get(result.winner), source=Hand.Source.LIVE, started_at=started_at or ended_at,
        ended_at=ended_at,
    )
    HandScore.objects.bulk_create([
        HandScore(hand=hand, seat=seats[number], points_left=left, points_won=won)
        for number, (left, won) in enumerate(zip(result.points_left, result.points_won, strict=True))
        if left is not None and number in seats
    ])
    notify_scores_changed(tgame.table.round.event)  # the leaderboards hear of it once the move commits
    _end_block_if_played(live, tgame)
    return hand


def _end_block_if_played(live: LiveGame, tgame: Game) -> None:
    """A partner rotation's block ends after its hands (it has no target): the tournament game finishes,
    its live table ends with this move, and the game's end follows (the next block, the bracket)."""
    if not tgame.seat_order:
        return
    game = Game.objects.select_for_update().select_related("table__round__event").get(pk=tgame.pk)
    if not end_block_if_played(game):
        return
    end_with_this_change(live)
    tgame.status, tgame.winner_id, tgame.finished_at = game.status, game.winner_id, game.finished_at
    round_ = game.table.round
    audit.record(round_.event, None, "game.finish_live", f"Round {round_.number}, {game.table}, game {game.number}",
                 changes={"status": [Game.Status.RUNNING, Game.Status.FINISHED], "block_hands": HANDS_PER_PARTNER})
    game_ended(game)


def _game_seats(tgame: Game) -> dict[int, Seat]:
    """Game seat -> tournament seat: the table's seats in order, or a rotation block's `seat_order`."""
    by_number = {s.number: s for s in Seat.objects.filter(table_id=tgame.table_id)}
    return {index: by_number[n] for index, n in enumerate(tgame.game_seat_numbers(by_number)) if n in by_number}


def finish_live_game(live: LiveGame, game: engine.Game, now: datetime) -> None:
    """The target is reached at the table: the tournament game is finished with its winner (none on a tie),
    and the game's end follows (the round, the bracket)."""
    tgame = Game.objects.select_for_update().select_related("table__round__event").get(pk=live.game_id)
    winners = list(game.winners)
    winner = _game_seats(tgame).get(winners[0]) if len(winners) == 1 else None
    before = tgame.status
    tgame.status = Game.Status.FINISHED
    tgame.winner = winner
    tgame.finished_at = now
    tgame.save(update_fields=["status", "winner", "finished_at"])
    live.game = tgame  # the table's snapshot shows the game as finished
    round_ = tgame.table.round
    audit.record(round_.event, None, "game.finish_live", f"Round {round_.number}, {tgame}",
                 changes={"status": [before, tgame.status], "winner_seats": winners,
                          "totals": list(game.totals)})
    game_ended(tgame)
