"""A seat's first move of the player's own in a live game: marked on the game's row, announced with a signal.

Whether a student took part in a tournament round is decided by their own moves (the tournament's
participation rule), so the first one at a table can turn a "no-show" into a player who took part before
any hand is scored. The tournament listens to ``games.signals.first_own_move`` (``games`` never imports
``tournament``).

The fact lives on the game's row, ``LiveGame.seats_moved`` (``LiveGame.seat_bit``), written by whatever
stores the move: the ORM path sets the bit on the locked row (``mark``) and the one-statement move sets it in
its UPDATE and returns the bit as it was (``games.services.move_sql``). The database therefore decides which
move is a seat's first, once per seat and game in every process, and no move looks anything up for it. The
signal is sent after the commit: on the ORM path in the move's ``on_commit``, on the one-statement path from
a database thread once the move is stored and broadcast (``announce_soon``), off the move's way.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import threading

from django.db import transaction

from games import db_threads
from games.models import LiveGame
from games.signals import first_own_move

logger = logging.getLogger(__name__)

_lock = threading.Lock()
_pending: set[concurrent.futures.Future] = set()  # announcements under way (`announce_soon`)


def mark(live: LiveGame, seat: int) -> bool:
    """On the locked ``live``, in the transaction that stores the player's own move at game ``seat``: set the
    seat's bit (saved with the move) and, if it was not set, announce the seat after the commit. Returns
    whether this is the seat's first own move."""
    if live.seats_moved & LiveGame.seat_bit(seat):
        return False
    live.seats_moved |= LiveGame.seat_bit(seat)
    transaction.on_commit(lambda: announce(live, seat))
    return True


def forget(live: LiveGame, seat: int) -> None:
    """The seat got another player (on the locked ``live``, saved with the change): their first own move is
    announced again."""
    live.seats_moved &= ~LiveGame.seat_bit(seat)


def announce(live: LiveGame, seat: int) -> None:
    """Send ``first_own_move`` for ``seat`` of ``live`` (its tournament game loaded); a receiver that fails
    is logged, the move stays stored."""
    for receiver, error in first_own_move.send_robust(sender=LiveGame, live_game=live, seat=seat):
        if isinstance(error, Exception):
            logger.error("first own move at game %s, seat %s: %s failed", live.pk, seat, receiver, exc_info=error)


def _announce_by_id(live_id: int, seat: int) -> None:
    live = LiveGame.objects.for_play().filter(pk=live_id).first()
    if live is not None:
        announce(live, seat)


def announce_soon(live_id: int, seat: int) -> None:
    """For a move already committed and broadcast (the one-statement move): announce the seat on a
    database thread that neither the move's acknowledgement nor the event loop waits for
    (`db_threads.in_background`); a failure is logged."""
    future = db_threads.in_background(_announce_by_id, live_id, seat)
    with _lock:
        _pending.add(future)
    future.add_done_callback(lambda done: _finished(done, live_id, seat))


def _finished(future: concurrent.futures.Future, live_id: int, seat: int) -> None:
    with _lock:
        _pending.discard(future)
    error = future.exception()
    if error is not None:  # the move is stored; only the announcement is lost
        logger.error("first own move at live game %s, seat %s not announced", live_id, seat, exc_info=error)


def wait(timeout: float | None = None) -> None:
    """Wait for the announcements under way (tests, a worker shutting down)."""
    with _lock:
        pending = list(_pending)
    concurrent.futures.wait(pending, timeout)


async def settled() -> None:
    """`wait` from an event loop."""
    await asyncio.to_thread(wait)
