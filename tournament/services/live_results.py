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
from games.models import LiveGame, LiveMove
from games.services.lifecycle import end_with_this_change
from tournament.generators.partners import HANDS_PER_PARTNER
from tournament.models import Game, Hand, HandScore, Seat
from tournament.page_notices import notify_event_scores_changed
from tournament.services import audit, silent_seats
from tournament.services.game_end import game_ended
from tournament.services.rotations import end_block_if_played


def record_live_hand(live: LiveGame, result: engine.HandResult, started_at: datetime | None,
                     ended_at: datetime, ending: LiveMove | None = None) -> Hand:
    """One `Hand` and a `HandScore` per seat dealt in (points left and won, in tournament seat numbers);
    a partner rotation's block that has had its hands ends with it. ``ending`` is the move that ended the
    hand: a hand a silent bot's seat went out in scores nothing for it (`silent_seats`)."""
    tournament_game = live.game
    seats, event_id = _game_seat_ids(tournament_game)
    uncredited = silent_seats.uncredited_seats(result, silent_seats.stood_in(live, ending))
    # Normally the engine's hand number + 1; an organizer may have recorded a hand by hand meanwhile.
    last = Hand.objects.filter(game=tournament_game).aggregate(last=Max("number"))["last"] or 0
    hand = Hand.objects.create(
        game=tournament_game, number=max(result.number + 1, last + 1), dealer=result.dealer,
        winner_id=None if uncredited else seats.get(result.winner), source=Hand.Source.LIVE,
        started_at=started_at or ended_at, ended_at=ended_at,
    )
    HandScore.objects.bulk_create([
        HandScore(hand=hand, seat_id=seats[number], points_left=left, points_won=0 if number in uncredited else won)
        for number, (left, won) in enumerate(zip(result.points_left, result.points_won, strict=True))
        if left is not None and number in seats
    ])
    # the leaderboards hear of it once the move commits
    notify_event_scores_changed(event_id)
    _end_block_if_played(live, tournament_game)
    return hand


def _end_block_if_played(live: LiveGame, tournament_game: Game) -> None:
    """A partner rotation's block ends after its hands (it has no target): the tournament game finishes,
    its live table ends with this move, and the game's end follows (the next block, the bracket)."""
    if not tournament_game.seat_order:
        return
    locked = Game.objects.select_for_update().select_related("table__round__event").get(pk=tournament_game.pk)
    if not end_block_if_played(locked):
        return
    end_with_this_change(live)
    tournament_game.status, tournament_game.winner_id = locked.status, locked.winner_id
    tournament_game.finished_at = locked.finished_at
    round_ = locked.table.round
    audit.record(round_.event, None, "game.finish_live",
                 f"Round {round_.number}, {locked.table}, game {locked.number}",
                 changes={"status": [Game.Status.RUNNING, Game.Status.FINISHED], "block_hands": HANDS_PER_PARTNER})
    game_ended(locked)


def _game_seat_ids(tournament_game: Game) -> tuple[dict[int, int], int]:
    """(game seat -> tournament seat id, the game's event id), in one query: a hand's end runs in the
    move's transaction, and each ORM query there costs the worker half a millisecond of CPU."""
    rows = list(Seat.objects.filter(table_id=tournament_game.table_id).values_list("number", "pk", "table__round__event_id"))
    if not rows:  # a table without seats (never played live): the event through the table
        event_id = Game.objects.filter(pk=tournament_game.pk).values_list("table__round__event_id", flat=True).get()
        return {}, event_id
    by_number = {number: pk for number, pk, _ in rows}
    numbers = tournament_game.game_seat_numbers(by_number)
    return {index: by_number[n] for index, n in enumerate(numbers) if n in by_number}, rows[0][2]


def _game_seats(tournament_game: Game) -> dict[int, Seat]:
    """Game seat -> tournament seat: the table's seats in order, or a rotation block's `seat_order`."""
    by_number = {s.number: s for s in Seat.objects.filter(table_id=tournament_game.table_id)}
    numbers = tournament_game.game_seat_numbers(by_number)
    return {index: by_number[n] for index, n in enumerate(numbers) if n in by_number}


def finish_live_game(live: LiveGame, game: engine.Game, now: datetime, ending: LiveMove | None = None) -> None:
    """The target is reached at the table: the tournament game is finished with its winner (none on a tie;
    in a bot league, by the totals a silent seat's hands are not credited to: `silent_seats`), and the
    game's end follows (the round, the bracket)."""
    tournament_game = (Game.objects.select_for_update().select_related("table__round__event")
                       .get(pk=live.game_id))
    credited = silent_seats.credited_winners(game, silent_seats.stood_in(live, ending))
    winners = list(game.winners) if credited is None else credited
    winner = _game_seats(tournament_game).get(winners[0]) if len(winners) == 1 else None
    before = tournament_game.status
    tournament_game.status = Game.Status.FINISHED
    tournament_game.winner = winner
    tournament_game.finished_at = now
    tournament_game.save(update_fields=["status", "winner", "finished_at"])
    live.game = tournament_game  # the table's snapshot shows the game as finished
    round_ = tournament_game.table.round
    audit.record(round_.event, None, "game.finish_live", f"Round {round_.number}, {tournament_game}",
                 changes={"status": [before, tournament_game.status], "winner_seats": winners,
                          "totals": list(game.totals)})
    game_ended(tournament_game)
