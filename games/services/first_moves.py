"""A seat's first move of the player's own in a live game, announced with a signal.

Whether a student took part in a tournament round is decided by their own moves (the tournament's
participation rule), so the first one at a table can turn a "no-show" into a player who took part before
any hand is scored. The tournament listens to ``first_own_move`` (``games`` never imports ``tournament``).

Cheap on the move path: each process remembers the (live game, seat) pairs it has seen move, so a seat
costs one indexed lookup per process, and nothing after that.
"""

from __future__ import annotations

import threading

from django.db import transaction
from django.dispatch import Signal

from games.models import LiveGame, LiveMove

# Sent inside the move's transaction with ``live_game`` (its tournament ``game`` loaded) and ``seat`` (the
# game seat): receivers that write do so in that transaction, so it stands or falls with the move.
first_own_move = Signal()

REMEMBER = 100_000
_lock = threading.Lock()
_seen: set[tuple[int, float, int]] = set()  # (live game id, its creation time, seat)


def after_player_move(live: LiveGame, seat: int, version: int) -> None:
    """Call in the move's transaction once the player's own move at game ``seat`` is stored as ``version``."""
    key = (live.pk, live.created_at.timestamp(), seat)  # an id reused (a database restored) is another game
    with _lock:
        if key in _seen:
            return
    earlier = (LiveMove.objects.filter(live_game_id=live.pk, seat=seat, actor=LiveMove.Actor.PLAYER)
               .exclude(version=version).exists())
    if not earlier:
        first_own_move.send(sender=LiveGame, live_game=live, seat=seat)
    transaction.on_commit(lambda: _remember(key))


def _remember(key: tuple[int, float, int]) -> None:
    with _lock:
        if len(_seen) >= REMEMBER:
            _seen.clear()
        _seen.add(key)


def forget_all() -> None:
    """Drop what this process remembers (tests)."""
    with _lock:
        _seen.clear()
