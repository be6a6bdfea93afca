"""The engine game of a live table, derived from its log: the checkpoint and the moves after it.

A live game stores its engine state only now and then (`LiveGame.checkpoint`, at `checkpoint_version`):
at each change that is not an engine action (a deal, a notice) and every `CHECKPOINT_EVERY` moves. Any
other move stores its action alone, and the state at a version is the checkpoint with the actions after
it replayed: the engine is deterministic, and a move replays in microseconds.

The move path does not replay on every move: each process keeps the newest game of the tables it moved
(`take` / `keep`). A move takes the game out (nobody else may use it while the transaction may still
roll back), changes it, and keeps it again once the transaction has committed. A process that lacks the
version (restarted, or another process made the last move) copies it from its snapshot cache, else
loads the checkpoint and replays.
"""

from __future__ import annotations

import threading

import cachetools
from django.db import transaction

from games import engine
from games.models import LiveGame, LiveMove

CHECKPOINT_EVERY = 100  # engine actions between stored checkpoints: bounds what a cold load replays
TABLES_KEPT = 4096  # newest games kept per process (an evicted one is loaded again from its log)

_games: cachetools.LRUCache = cachetools.LRUCache(TABLES_KEPT)  # live id -> (version, engine.Game)
_lock = threading.Lock()


def take(live_id: int, version: int) -> engine.Game | None:
    """The kept game of table `live_id` if it is at `version`, removed from the cache (the caller owns
    it now and gives it back with `keep_on_commit`)."""
    with _lock:
        found = _games.pop(live_id, None)
    if found is None or found[0] != version:
        return None
    return found[1]


def keep_on_commit(live_id: int, version: int, game: engine.Game) -> None:
    """Keep `game` as table `live_id`'s game at `version` once the current transaction commits."""
    transaction.on_commit(lambda: keep(live_id, version, game))


def keep(live_id: int, version: int, game: engine.Game) -> None:
    with _lock:
        held = _games.get(live_id)
        if held is None or held[0] < version:
            _games[live_id] = (version, game)


def forget_all() -> None:
    with _lock:
        _games.clear()


def load(live: LiveGame) -> engine.Game:
    """Table `live`'s game at `live.version` from the database: its checkpoint (read now if the row was
    loaded without it) with the moves after it replayed. A new object the caller may change."""
    return load_with_moves(live, live.version)[0]


def load_with_moves(live: LiveGame, since: int) -> tuple[engine.Game, list[LiveMove]]:
    """As `load`, and the moves after version `since` too: one query reads the moves to replay and the
    ones asked for (a socket catching up needs both)."""
    if "checkpoint" in live.get_deferred_fields():
        checkpoint, at = (LiveGame.objects.filter(pk=live.pk)
                          .values_list("checkpoint", "checkpoint_version").get())
    else:
        checkpoint, at = live.checkpoint, live.checkpoint_version
    rows = []
    if live.version > min(at, since):
        rows = list(LiveMove.objects.filter(live_game_id=live.pk, version__gt=min(at, since),
                                            version__lte=live.version).order_by("version"))
    game = engine.Game.from_dict(checkpoint)
    game.replay(m.action for m in rows if m.version > at and m.action is not None)
    return game, [m for m in rows if m.version > since]


def needs_checkpoint(live: LiveGame, action: dict | None) -> bool:
    """Whether the change being stored at `live.version` stores the whole state: a change that is not an
    engine action (it cannot be replayed), or the `CHECKPOINT_EVERY`th move since the last one."""
    return action is None or live.version - live.checkpoint_version >= CHECKPOINT_EVERY


def write_checkpoint(live: LiveGame, game: engine.Game) -> None:
    live.checkpoint = game.to_dict()
    live.checkpoint_version = live.version
