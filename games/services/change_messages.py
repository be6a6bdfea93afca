"""A committed change as the channel layer carries it to the other workers, and replaying it there.

A worker that did not make a change builds the new version from its own snapshot of the version before
(`games.services.snapshots`) and the message, instead of reading the change back from the database:

- an **ordinary move** (stored in one statement, `games.services.socket_moves`) carries its move and the
  columns that statement writes (deadline, missed turns, bot takeovers, arrivals); every other field of
  the snapshot is the previous version's, which that statement cannot have changed. The message stays
  a few hundred bytes however long the game (the whole message carried the shuffle records of every hand
  so far, each with its secrets: a quarter of a kilobyte per hand, encrypted and decrypted on every move);
- any **other change** (the ORM path: a hand's end, a deal, a notice) carries every field of its snapshot;
- a **deal** also carries its hand's seed: the receiver deals the same hand on its copy of the game (the
  engine is deterministic from the seed) instead of loading the checkpoint the deal stored;
- any other change that stored a **checkpoint** (a notice, a pause: not an engine action) leaves the
  load to the consumer, which reads the version once per process.

The move's events hold the cards its seats were dealt or drew, and a deal's seed is a hand's secret until
the hand is over: the message goes through Redis only encrypted (CHANNEL_LAYER_KEY), and no consumer
ever forwards it.
"""

from __future__ import annotations

import logging
from datetime import datetime
from typing import Any

from games import engine
from games.services import game_log, snapshots
from games.services.seats import SeatHolder
from games.services.snapshots import Snapshot, StoredMove, iso

logger = logging.getLogger(__name__)

# The snapshot's fields besides the game, in `Snapshot`'s order, as a full message carries them.
FIELDS = ("kind", "status", "paused", "closed", "title", "hand_seats", "holders", "deadline", "next_hand_at",
          "turn_seconds", "missed_turns", "bot_takeover", "owner_id", "shuffles", "arrival_until", "arrived")
# What the one-statement move writes besides its row and the version: all an ordinary move's message carries.
ORDINARY_FIELDS = ("deadline", "missed_turns", "bot_takeover", "arrived")
_MOMENTS = ("deadline", "next_hand_at", "arrival_until")


def _move(move: StoredMove) -> list:
    return [move.version, move.hand_number, move.seat, move.actor, move.events, move.hand_seats, move.via_token,
            move.action]


def _encoded(name: str, value: Any) -> Any:
    if name in _MOMENTS:
        return iso(value)
    if name == "holders":
        return [[h.seat, h.name, h.user_id, h.bot_kind] for h in value]
    if type(value) is tuple:
        return list(value)
    return value


def _decoded(name: str, value: Any) -> Any:
    if name in _MOMENTS:
        return datetime.fromisoformat(value) if value else None
    if name == "holders":
        return [SeatHolder(*h) for h in value]
    if name in ("shuffles", "arrived"):
        return tuple(value)
    if type(value) is list:
        return list(value)
    return value


def change_message(snapshot: Snapshot, move: StoredMove, checkpoint: bool, deal_seed: int | None = None) -> dict[str, Any]:
    """A change stored through the ORM path, whole: every field of its snapshot and the move (not the
    engine state). `checkpoint`: the change stored the whole state (a deal, a notice: no action to
    replay); `deal_seed`: the change is a deal with this seed, which the receiver deals again."""
    return {
        "live_id": snapshot.live_id, "version": snapshot.version, "checkpoint": checkpoint,
        "deal_seed": None if deal_seed is None else str(deal_seed),
        "fields": {name: _encoded(name, getattr(snapshot, name)) for name in FIELDS}, "move": _move(move),
    }


def ordinary_change_message(snapshot: Snapshot, move: StoredMove) -> dict[str, Any]:
    """An ordinary move (one statement): the move and the columns it wrote; the rest is the version before's."""
    return {
        "live_id": snapshot.live_id, "version": snapshot.version, "checkpoint": False, "deal_seed": None,
        "ordinary": True, "fields": {name: _encoded(name, getattr(snapshot, name)) for name in ORDINARY_FIELDS},
        "move": _move(move),
    }


def remember_change(data: dict[str, Any]) -> None:
    """Cache a change another process committed, unless this process has it already: its action (or a
    deal's seed) replayed on a copy of the previous version's game, once per process (the first of its
    sockets at the table to hear of it does it). Without the previous version, or for a checkpoint that
    is not a deal, only the move is cached: the consumer then loads the version."""
    live_id, version = data["live_id"], data["version"]
    if snapshots.cached_move(live_id, version) is None:
        snapshots.remember_moves(live_id, [StoredMove(*data["move"])])
    if snapshots.snapshot_at(live_id, version) is not None:
        return
    before = snapshots.snapshot_at(live_id, version - 1)
    seed = data["deal_seed"]
    if before is None or (data["checkpoint"] and seed is None):
        return
    game = before.game.copy()
    try:
        if seed is not None:
            game.next_hand(seed=int(seed), events=False)
        else:
            action = data["move"][7]
            game.replay([] if action is None else [action])
    except engine.EngineError:  # not what this process holds: the consumer loads the version
        logger.warning("change %s of live game %s does not replay on this process's version %s",
                       version, live_id, before.version, exc_info=True)
        return
    fields = {name: _decoded(name, value) for name, value in data["fields"].items()}
    if data.get("ordinary"):  # every other field is the version before's
        snapshots.remember_replayed(snapshots.moved_on(before, version=version, game=game, built={}, **fields))
    else:
        snapshots.remember_replayed(Snapshot(live_id, version, game=game, **fields))
    if data["checkpoint"]:  # the deal stored the whole state at this version (`game_log.needs_checkpoint`)
        game_log.checkpoint_stored(live_id, version)
