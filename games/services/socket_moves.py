"""A player's move from their socket's event loop: an ordinary move in one statement, the rest on a
database thread.

On PostgreSQL an ordinary move (it does not end a hand and stores no checkpoint, made at a version this
process holds) is checked against the table as this process holds it (its snapshot at that version,
`games.services.snapshots`; the row's facts and the engine game, `games.services.game_log`), applied in
memory and stored by one statement (`games.services.move_sql`), without a hop to a database thread. Any
other move, and any that the statement does not take, is `games.services.moves.submit_move` on a
database thread (`games.db_threads`), which answers every refusal as it always has.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.utils import timezone

from games import db_threads, engine
from games.models import LiveGame, LiveMove
from games.services import (
    broadcast,
    change_messages,
    deadlines,
    first_moves,
    game_log,
    move_sql,
    nudges,
    snapshots,
)
from games.services.moves import MoveDone, player_is_back, submit_move
from games.services.seats import hand_seat_of

logger = logging.getLogger(__name__)


async def play_move(live_game_id: int, user, version: Any, action: Any, client_move_id: str = "", *,
                    via_token: bool = False) -> MoveDone:
    """A move from a player's socket, awaited on its event loop; as `submit_move` (raises `MoveRefused`).

    An ordinary move is checked against what this process holds of the table at `version` and stored in
    one statement without leaving the loop (`move_sql`); then, as `store_change` does after its commit, the
    game is kept, the snapshot remembered, the table's sockets told (awaited: stored before acknowledged
    and before broadcast) and the organizer's view nudged; a seat's first own move (the statement says
    which) is announced after that without being waited for (`first_moves.announce_soon`). Anything
    else, and any move that statement does not store, is `submit_move` on a database thread: every
    refusal is answered there, as before."""
    if move_sql.enabled():
        ready = _ordinary_move(live_game_id, user, version, action, client_move_id, via_token)
        stored = None if ready is None else await move_sql.store(ready.row)
        if stored is not None:
            await _after_stored(ready)
            if stored.first_own_move:  # the seat's first: announced from a database thread, not awaited
                first_moves.announce_soon(live_game_id, ready.row.move.seat)
            return MoveDone(ready.row.move.version, ready.row.move.seat)
    return await db_threads.run(submit_move, live_game_id, user, version, action, client_move_id,
                                via_token=via_token)


@dataclass(frozen=True)
class _Ready:
    row: move_sql.OrdinaryMove
    game: engine.Game  # the engine game at the new version (this process's to keep once stored)
    snapshot: snapshots.Snapshot
    stored: snapshots.StoredMove
    watch_group: str


def _ordinary_move(live_id: int, user, version: Any, action: Any, client_move_id: str,
                   via_token: bool) -> _Ready | None:
    """The move, applied in memory, if it is ordinary: this process holds the table at exactly `version`
    (its snapshot and row facts), the player may act there as `moves.submit_move` checks, the action is
    legal, it does not end the hand and no checkpoint is due. Else None: the ORM path takes the move."""
    facts = game_log.facts(live_id)
    if facts is None or type(version) is not int:
        return None
    snap = snapshots.snapshot_at(live_id, version)
    if (snap is None or snap.status != LiveGame.Status.RUNNING or snap.paused or snap.closed
            or version + 1 - facts.checkpoint_version >= game_log.CHECKPOINT_EVERY):
        return None
    seat = snap.seat_of(user)
    if seat is None or (facts.token_moves_only and not via_token) or not isinstance(action, dict):
        return None
    hand_seat = hand_seat_of(snap.hand_seats, seat)
    if hand_seat is None or action.get("seat", hand_seat) != hand_seat:
        return None
    try:
        parsed = engine.action_from_dict({**action, "seat": hand_seat})
    except engine.MalformedAction:
        return None
    if snap.game.hand is None or snap.game.hand.over:
        return None
    game = game_log.take(live_id, version) or snap.game.copy()  # this call's own: dropped unless stored
    try:
        return _apply_ordinary(facts, snap, game, seat, parsed, user, client_move_id, via_token)
    except Exception:  # noqa: BLE001 - a bug here must not lose the move: the ORM path takes it
        logger.exception("preparing a one-statement move at live game %s failed", live_id)
        return None


@dataclass(slots=True)
class _Columns:
    """The game row's columns that `moves.player_is_back` and `deadlines.schedule` read and change, as the
    ORM path's locked `LiveGame` holds them at this version (building that model took 17 µs a move)."""
    seat_count: int
    status: str
    hand_seats: list[int]
    missed_turns: list[int]
    bot_takeover: list[bool]
    arrived: list[bool]
    arrival_until: datetime | None
    deadline: datetime | None
    turn_seconds: int


def _apply_ordinary(facts: game_log.TableFacts, snap: snapshots.Snapshot, game: engine.Game, seat: int,
                    action: engine.Action, user, client_move_id: str, via_token: bool) -> _Ready | None:
    live = _Columns(facts.seat_count, snap.status, list(snap.hand_seats), list(snap.missed_turns),
                    list(snap.bot_takeover), list(snap.arrived), snap.arrival_until, snap.deadline,
                    snap.turn_seconds)
    player_is_back(live, seat)
    before = deadlines.turn_key(game)
    hand_number = len(game.results)
    try:
        events = game.apply(action)
    except engine.EngineError:
        return None
    if any(e.kind == "hand_scored" for e in events):  # the hand's end: its receivers, in the ORM's transaction
        return None
    now = timezone.now()
    version = snap.version + 1
    deadlines.schedule(live, game, snap.holders, now, before)
    move = move_sql.MoveRow(facts.live_id, version, hand_number, seat, LiveMove.Actor.PLAYER,
                            user.pk if getattr(user, "is_authenticated", False) else None, action.to_dict(),
                            [e.to_dict() for e in events], live.hand_seats, client_move_id, via_token, now)
    row = move_sql.OrdinaryMove(move, facts.seats_version, live.deadline, live.missed_turns, live.bot_takeover,
                                live.arrived if live.arrival_until is not None else None, now)
    after = snapshots.moved_on(snap, version=version, game=game.copy(), deadline=live.deadline,
                               missed_turns=live.missed_turns, bot_takeover=live.bot_takeover,
                               arrived=tuple(live.arrived), built={})
    return _Ready(row, game, after, snapshots.stored_move_of(move), facts.watch_group)


async def _after_stored(ready: _Ready) -> None:
    """What `store_change` does after its commit, in its order: keep the game, remember the version, tell
    the table's sockets (awaited), nudge the organizer's view. The move is stored: nothing here may refuse it."""
    snap, live_id = ready.snapshot, ready.snapshot.live_id
    try:
        game_log.keep(live_id, snap.version, ready.game)
        snapshots.remember(snap, [ready.stored])
        message = broadcast.changed_message(snap.version,
                                            lambda: change_messages.ordinary_change_message(snap, ready.stored))
    except Exception:  # noqa: BLE001 - stored all the same: the check for missed changes tells the table
        logger.exception("after the one-statement move to version %s of live game %s", snap.version, live_id)
        return
    nudges.nudge_soon(ready.watch_group, live_id)  # scheduled: sent within its second
    await broadcast.publish(live_id, message)
