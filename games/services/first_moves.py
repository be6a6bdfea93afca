"""A seat's first move of the player's own in a live game, announced with a signal.

Whether a student took part in a tournament round is decided by their own moves (the tournament's
participation rule), so the first one at a table can turn a "no-show" into a player who took part before
any hand is scored. The tournament listens to ``games.signals.first_own_move`` (``games`` never imports ``tournament``).

Cheap on the move path: nothing runs inside the move's transaction; after the commit a seat costs one
indexed lookup per process (and, on its first own move, what the receivers do), nothing after that.
"""

from __future__ import annotations

import logging
import threading

import cachetools
from django.db import transaction

from games.models import LiveGame, LiveMove
from games.signals import first_own_move

logger = logging.getLogger(__name__)

REMEMBER = 100_000
_lock = threading.Lock()
# (live game id, its creation time, seat) of the seats whose first own move this process has seen; the
# least recently seen are forgotten first (a forgotten seat costs one more lookup, nothing worse).
_seen: cachetools.LRUCache = cachetools.LRUCache(REMEMBER)


def after_player_move(live: LiveGame, seat: int, version: int) -> None:
    """Call in the move's transaction once the player's own move at game ``seat`` is stored as ``version``:
    nothing for a seat this process has seen move; otherwise, after the commit, one indexed lookup for
    an earlier own move, and ``first_own_move`` when there is none."""
    key = (live.pk, live.created_at.timestamp(), seat)  # an id reused (a database restored) is another game
    with _lock:
        if key in _seen:
            return
    transaction.on_commit(lambda: _check(live, seat, version, key))


def _check(live: LiveGame, seat: int, version: int, key: tuple[int, float, int]) -> None:
    try:
        earlier = (LiveMove.objects.filter(live_game_id=live.pk, seat=seat, actor=LiveMove.Actor.PLAYER)
                   .exclude(version=version).exists())
    except Exception:  # noqa: BLE001 - the move is stored; the next move of the seat checks again
        logger.exception("could not check for an earlier own move at game %s, seat %s", live.pk, seat)
        return
    _remember(key)
    if not earlier:
        for receiver, error in first_own_move.send_robust(sender=LiveGame, live_game=live, seat=seat):
            if isinstance(error, Exception):
                logger.error("first own move at game %s, seat %s: %s failed", live.pk, seat, receiver,
                             exc_info=error)


def _remember(key: tuple[int, float, int]) -> None:
    with _lock:
        _seen[key] = True


def forget_all() -> None:
    """Drop what this process remembers (tests)."""
    with _lock:
        _seen.clear()
