"""Caps on practice games, so that one student (or one client address) cannot load the sweeper, which
plays every practice table's bots and also runs the tournament's turn timers.

- per account: at most `LIVE_PRACTICE_MAX_RUNNING` (default 3) practice games running at once, counted
  in the database under a lock on the account's row, so two starts at once cannot both pass;
- per client address: at most `LIVE_PRACTICE_STARTS_PER_ADDRESS` starts (default 20 per 60 s), counted
  in the cache (shared by every worker with Redis) in a window that expires by itself.

Each refusal is a `PracticeError` whose message the practice page shows. The sweeper serves tournament
tables first in any case (`games.services.timers.due_games`).
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import get_user_model

from games.models import LiveGame
from games.window_counts import count_one

DEFAULT_MAX_RUNNING = 3
DEFAULT_STARTS_PER_ADDRESS = (20, 60)


class PracticeCapReached(ValueError):
    """A practice game refused by a cap; the message says which and what to do."""


def check_running(user) -> None:
    """Inside the start's transaction: lock the account's row, then count its running practice games."""
    cap = getattr(settings, "LIVE_PRACTICE_MAX_RUNNING", DEFAULT_MAX_RUNNING)
    get_user_model().objects.select_for_update().filter(pk=user.pk).first()
    running = LiveGame.objects.filter(kind=LiveGame.Kind.PRACTICE, owner=user,
                                      status=LiveGame.Status.RUNNING).count()
    if running >= cap:
        raise PracticeCapReached(
            f"You have {running} practice game{'s' if running != 1 else ''} running (at most {cap} at once). "
            "Finish one first: a game you leave is played on by a bot and ends by itself.")


def count_start(address: str | None) -> None:
    """Count a start from `address` (the client's); `PracticeCapReached` past the window's limit."""
    if not address:
        return
    limit, window = getattr(settings, "LIVE_PRACTICE_STARTS_PER_ADDRESS", DEFAULT_STARTS_PER_ADDRESS)
    count = count_one(f"practice-starts:{address}", window)
    if count is None:
        return
    if count > limit:
        raise PracticeCapReached(f"Too many practice games started from your network address (at most {limit} "
                                 f"per {window:g} s). Wait a minute and try again.")
