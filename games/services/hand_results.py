"""Writing a hand finished live into the tournament's `Hand` + `HandScore` rows, and finishing the game.

Called by the move service inside its transaction, so the move, the scores and the game's end stand or
fall together. The rows are the same an organizer's `record_hand` writes (source "live"); totals are
never stored: they are sums over `HandScore`.
"""

from __future__ import annotations

from datetime import datetime

from django.db.models import Max

from games import engine
from games.models import LiveGame
from tournament.models import Game, Hand, HandScore, Seat


def record_live_hand(live: LiveGame, result: engine.HandResult, started_at: datetime | None,
                     ended_at: datetime) -> Hand:
    """One `Hand` and a `HandScore` per seat dealt in (points left and won, in tournament seat numbers)."""
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
    from tournament.live import notify_scores_changed
    from tournament.services.rotations import after_live_hand

    notify_scores_changed(tgame.table.round.event)  # sent on commit
    after_live_hand(live, tgame)  # a partner rotation's block ends after its hands
    return hand


def _game_seats(tgame: Game) -> dict[int, Seat]:
    """Game seat -> tournament seat: the table's seats in order, or a rotation block's `seat_order`."""
    by_number = {s.number: s for s in Seat.objects.filter(table_id=tgame.table_id)}
    return {index: by_number[n] for index, n in enumerate(tgame.game_seat_numbers(by_number)) if n in by_number}


def finish_tournament_game(live: LiveGame, game: engine.Game, now: datetime) -> None:
    """The target is reached: the tournament game is finished with its winner (none on a tie)."""
    from tournament.services import audit
    from tournament.services.rounds import finish_round_if_done

    tgame = Game.objects.select_for_update().select_related("table__round__event").get(pk=live.game_id)
    winners = list(game.winners)
    winner = _game_seats(tgame).get(winners[0]) if len(winners) == 1 else None
    before = tgame.status
    tgame.status = Game.Status.FINISHED
    tgame.winner = winner
    tgame.finished_at = now
    tgame.save(update_fields=["status", "winner", "finished_at"])
    live.game = tgame
    round_ = tgame.table.round
    audit.record(round_.event, None, "game.finish_live", f"Round {round_.number}, {tgame}",
                 changes={"status": [before, tgame.status], "winner_seats": winners,
                          "totals": list(game.totals)})
    finish_round_if_done(round_)
    from tournament.services.brackets import on_game_finished

    on_game_finished(tgame)  # a bracket advances (nothing happens outside bracket rounds)
