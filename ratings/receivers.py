"""Ratings listen to the live tables: a game that reached its target is rated once its move has
committed (`games.signals.game_finished` is sent inside the move's transaction; the rating is computed
after it, in its own transaction, so it never slows or fails the move)."""

from __future__ import annotations

from datetime import datetime

from django.db import transaction

from games import engine, signals
from games.models import LiveGame
from ratings.rating_updates import rate_after_commit


def game_finished(sender, *, live: LiveGame, game: engine.Game, now: datetime, **kwargs) -> None:
    live_id = live.pk
    transaction.on_commit(lambda: rate_after_commit(live_id))


def connect() -> None:
    signals.game_finished.connect(game_finished, sender=LiveGame, dispatch_uid="ratings.game_finished")
