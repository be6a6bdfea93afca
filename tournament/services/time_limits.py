"""A round's time limit (docs/rules.md, "Time limit"): once it has passed no hand is dealt, a hand in play
is played to its end, and the game is then finished with the highest total winning (none on a tie, as when
an organizer finishes a game).

Two paths, both without the organizer: the hand that ends after the limit ends its game in the move's own
transaction (`end_game_after_hand`, from the `hand_scored` receiver), and the sweeper's tick (`sweep`, from
the `games.signals.sweep` receiver) finishes the games that sit between two hands when the limit passes.
"""

from __future__ import annotations

import logging
import time
from datetime import datetime

from django.conf import settings

from games import engine
from games.models import LiveGame
from games.services.lifecycle import end_with_this_change
from tournament.models import Game, Round
from tournament.services import audit
from tournament.services.game_end import game_ended
from tournament.services.game_status import change_game_status
from tournament.services.rounds import RoundError, seat_totals

logger = logging.getLogger(__name__)

REASON = "The round's time limit passed."
DEFAULT_SWEEP_SECONDS = 1.0  # setting TOURNAMENT_TIME_LIMIT_SWEEP_SECONDS
_last_sweep = [float("-inf")]


def time_is_up(round_: Round, now: datetime) -> bool:
    return round_.time_limit_at is not None and round_.time_limit_at <= now


def end_game_after_hand(live: LiveGame, tournament_game: Game, now: datetime) -> bool:
    """A hand of `tournament_game` was just scored at its live table (inside the move's transaction): past
    the round's time limit, the game ends with this hand. Returns whether it did. A game that reached its
    target with this hand is left to `game_finished`. Most hands end before any limit: one small query
    (the round's limit) says so."""
    if tournament_game.status != Game.Status.RUNNING:
        return False
    limit = Round.objects.filter(tables=tournament_game.table_id).values_list("time_limit_at", flat=True).first()
    if limit is None or limit > now:
        return False
    round_ = tournament_game.table.round
    if not time_is_up(round_, now):
        return False
    if engine.Game.from_dict(live.state).over:
        return False
    game = Game.objects.select_for_update().select_related("table__round__event").get(pk=tournament_game.pk)
    totals = seat_totals([game.pk]).get(game.pk, {})
    best = max(totals.values(), default=0)
    leaders = [seat for seat, total in totals.items() if total == best]
    game.status = Game.Status.FINISHED
    game.winner_id = leaders[0] if best > 0 and len(leaders) == 1 else None
    game.finished_at = now
    game.save(update_fields=["status", "winner", "finished_at"])
    end_with_this_change(live)
    live.game = game  # the table's snapshot shows the game as finished
    audit.record(round_.event, None, "game.time_limit", f"Round {round_.number}, {game}", reason=REASON,
                 changes={"status": [Game.Status.RUNNING, Game.Status.FINISHED], "winner_seat": game.winner_id,
                          "totals": {str(k): v for k, v in totals.items()}})
    game_ended(game)
    return True


def sweep(now: datetime, force: bool = False) -> int:
    """Finish the running games, between two hands, of rounds whose time limit has passed (at most once
    a second per process unless `force`). Returns how many games were finished."""
    clock = time.monotonic()
    every = float(getattr(settings, "TOURNAMENT_TIME_LIMIT_SWEEP_SECONDS", DEFAULT_SWEEP_SECONDS))
    if not force and clock - _last_sweep[0] < every:
        return 0
    _last_sweep[0] = clock
    due = Game.objects.filter(table__round__status=Round.Status.RUNNING, table__round__time_limit_at__lte=now,
                              status=Game.Status.RUNNING)
    # Between two hands at the live table, or with no live table at all (nothing is in play there).
    between = due.filter(live__status=LiveGame.Status.RUNNING, live__next_hand_at__isnull=False)
    finished = 0
    for game in between.order_by("pk")[:100]:
        try:
            change_game_status(game, "finish", None, reason=REASON)
            finished += 1
        except RoundError:  # a move holds the table right now, or the game changed: the next tick sees it
            logger.info("time limit: %s not finished this tick", game, exc_info=True)
    return finished
