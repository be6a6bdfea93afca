"""Ratings listen to finished games: a practice or exhibition game that reached its target at the live
table (`games.signals.game_finished`), and a tournament game however it ended
(`tournament.signals.game_ended`: the target, the round's time limit, an organizer, a hand recorded on
paper). Both are sent inside the transaction that finished the game; the rating is computed after it
commits, in its own transaction, so it never slows or fails the move or the organizer's action. A
tournament game is rated on the tournament's signal alone, so it is rated once."""

from __future__ import annotations

from datetime import datetime

from django.db import transaction

from games import engine
from games import signals as game_signals
from games.models import LiveGame
from ratings.rating_updates import rate_after_commit
from tournament import signals as tournament_signals
from tournament.models import Event, Game


def game_finished(sender, *, live: LiveGame, game: engine.Game, now: datetime, **kwargs) -> None:
    if live.game_id is not None:  # a tournament game: `tournament_game_ended` rates it
        return
    live_id = live.pk
    transaction.on_commit(lambda: rate_after_commit(live_id))


def tournament_game_ended(sender, *, game: Game, **kwargs) -> None:
    live_id = LiveGame.objects.filter(game_id=game.pk).values_list("pk", flat=True).first()
    if live_id is not None:
        transaction.on_commit(lambda: rate_after_commit(live_id))


def connect() -> None:
    game_signals.game_finished.connect(game_finished, sender=LiveGame, dispatch_uid="ratings.game_finished")
    tournament_signals.game_ended.connect(tournament_game_ended, sender=Event,
                                          dispatch_uid="ratings.tournament_game_ended")
