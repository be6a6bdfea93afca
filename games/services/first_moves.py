"""A seat's first move of the player's own in a live game: marked on the game's row, announced with a signal.

Whether a student took part in a tournament round is decided by their own moves (the tournament's
participation rule), so the first one at a table can turn a "no-show" into a player who took part before
any hand is scored. The tournament listens to ``games.signals.first_own_moves`` (``games`` never imports
``tournament``).

The fact lives on the game's row, ``LiveGame.seats_moved`` (``LiveGame.seat_bit``), written by whatever
stores the move: the ORM path sets the bit on the locked row (``mark``) and the one-statement move sets it in
its UPDATE and returns the bit as it was (``games.services.move_sql``). The database therefore decides which
move is a seat's first, once per seat and game in every process, and no move looks anything up for it. The
signal is sent after the commit: on the ORM path in the move's ``on_commit``, on the one-statement path from
a database thread once the move is stored and broadcast (``announce_soon``), off the move's way. There the
seats are announced in batches: a batch takes every seat stored within ``GATHER_SECONDS`` of its first
and while the batch before it was being announced, with their games read in one query. When a round's 500 tables
start at once (2,000 first moves within seconds), the receivers work once per batch, not once per seat.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import threading
import time

from django.db import transaction

from config.group_notices import through_loop
from games import db_threads
from games.models import LiveGame
from games.signals import first_own_moves

logger = logging.getLogger(__name__)

GATHER_SECONDS = 0.25  # a batch takes what was stored until this long after its first seat
_lock = threading.RLock()  # reentrant: a done callback may run at once, in the thread that holds it
_queued: list[tuple[int, int]] = []  # (live game id, seat) stored since the announcement under way started
_loop: list[asyncio.AbstractEventLoop] = []  # the event loop of the newest seat queued: notices go through it
_running: list[concurrent.futures.Future] = []  # the announcement under way (at most one)


def mark(live: LiveGame, seat: int) -> bool:
    """On the locked ``live``, in the transaction that stores the player's own move at game ``seat``: set the
    seat's bit (saved with the move) and, if it was not set, announce the seat after the commit. Returns
    whether this is the seat's first own move."""
    if live.seats_moved & LiveGame.seat_bit(seat):
        return False
    live.seats_moved |= LiveGame.seat_bit(seat)
    transaction.on_commit(lambda: announce([(live, seat)]))
    return True


def forget(live: LiveGame, seat: int) -> None:
    """The seat got another player (on the locked ``live``, saved with the change): their first own move is
    announced again."""
    live.seats_moved &= ~LiveGame.seat_bit(seat)


def announce(moves: list[tuple[LiveGame, int]]) -> None:
    """Send ``first_own_moves`` for ``moves`` ((live game, its tournament game loaded; seat) each); a
    receiver that fails is logged, the moves stay stored."""
    for receiver, error in first_own_moves.send_robust(sender=LiveGame, moves=moves):
        if isinstance(error, Exception):
            logger.error("first own moves %s: %s failed", [(live.pk, seat) for live, seat in moves], receiver,
                         exc_info=error)


# What a batch reads of each game: its link to the tournament game and that game's table (the rest of
# either row loads when a receiver reads it). A round's start reads hundreds of games at once.
BATCH_FIELDS = ("id", "kind", "game_id", "game__id", "game__table_id", "game__status")


def _announce_by_id(batch: list[tuple[int, int]]) -> None:
    games = (LiveGame.objects.select_related("game").only(*BATCH_FIELDS)
             .in_bulk({live_id for live_id, _ in batch}))
    moves = [(games[live_id], seat) for live_id, seat in dict.fromkeys(batch) if live_id in games]
    if moves:
        announce(moves)


def announce_soon(live_id: int, seat: int) -> None:
    """For a move already committed and broadcast (the one-statement move): announce the seat on a
    database thread that neither the move's acknowledgement nor the event loop waits for
    (`db_threads.in_background`), with every other seat stored before that thread takes the batch; a
    failure is logged. Called on an event loop: the receivers' notices to pages are sent through it
    (`config.group_notices.through_loop`), not from loops of their own."""
    try:
        loop: asyncio.AbstractEventLoop | None = asyncio.get_running_loop()
    except RuntimeError:  # called from plain code (a test): the notices start loops of their own
        loop = None
    with _lock:
        _queued.append((live_id, seat))
        _loop[:] = [loop] if loop is not None else []
        if not _running:
            _start_locked()


def _start_locked() -> None:
    """Start announcing what is queued (with `_lock` held, nothing under way)."""
    future = db_threads.in_background(_announce_queued)
    _running.append(future)
    future.add_done_callback(_finished)


def _announce_queued() -> None:
    time.sleep(GATHER_SECONDS)  # this thread is the announcements' own (nothing else waits for it)
    with _lock:
        batch = list(_queued)
        _queued.clear()
        loop = _loop[0] if _loop else None
    try:
        with through_loop(loop):
            _announce_by_id(batch)
    except Exception:  # noqa: BLE001 - the moves are stored; only their announcement is lost
        logger.exception("first own moves %s not announced", batch)


def _finished(_future: concurrent.futures.Future) -> None:
    with _lock:
        _running.clear()
        if _queued:
            _start_locked()


def wait(timeout: float | None = None) -> None:
    """Wait for the announcements under way and queued (tests, a worker shutting down)."""
    deadline = None if timeout is None else time.monotonic() + timeout
    while True:
        with _lock:
            pending = list(_running)
            queued = bool(_queued)
        if not pending and not queued:
            return
        left = None if deadline is None else deadline - time.monotonic()
        if left is not None and left <= 0:
            return
        if pending:
            concurrent.futures.wait(pending, left)
        time.sleep(0.001)  # a finished one's callback starts the next batch


async def settled() -> None:
    """`wait` from an event loop."""
    await asyncio.to_thread(wait)
