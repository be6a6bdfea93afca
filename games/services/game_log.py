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

Beside each game it keeps the table's `TableFacts`: what a move needs of the game's row besides the
snapshot of its version (the columns that never change, `seats_version` and the last checkpoint's
version), as the last change this process stored read them. A move stored in one statement
(`games.services.move_sql`) checks in that statement that `version` and `seats_version` are still what it
built on.
"""

from __future__ import annotations

import dataclasses
import threading
from dataclasses import dataclass

from django.db import transaction

from games import engine
from games.models import LiveGame, LiveMove
from games.services.recent import Recent

CHECKPOINT_EVERY = 100  # engine actions between stored checkpoints: bounds what a cold load replays
TABLES_KEPT = 4096  # newest games kept per process (an evicted one is loaded again from its log)

_games = Recent(TABLES_KEPT)  # live id -> (version, engine.Game)
_facts = Recent(TABLES_KEPT)  # live id -> TableFacts
_lock = threading.Lock()  # for what reads and then writes (each `Recent` locks its own writes)


@dataclass(frozen=True)
class TableFacts:
    """A live game's row as a move needs it beyond the snapshot of its version: the columns that never
    change once the game exists, `seats_version` (whatever changed who may act without a new version)
    and `checkpoint_version`, as read at `version` under the row's lock. Newer versions keep the same
    facts unless a checkpoint was written (then `checkpoint_version` is behind: a move that relies on it
    only ever stores a checkpoint too early, never too late) or `seats_version` moved (which the
    one-statement move checks)."""
    live_id: int
    version: int
    kind: str
    seat_count: int
    token_moves_only: bool
    watch_group: str
    seats_version: int
    checkpoint_version: int


def facts_of(live: LiveGame) -> TableFacts:
    return TableFacts(live.pk, live.version, live.kind, live.seat_count, live.token_moves_only, live.watch_group,
                      live.seats_version, live.checkpoint_version)


def facts(live_id: int) -> TableFacts | None:
    return _facts.get(live_id)


def take(live_id: int, version: int) -> engine.Game | None:
    """The kept game of table `live_id` if it is at `version`, removed from the cache (the caller owns
    it now and gives it back with `keep_on_commit`)."""
    with _lock:
        found = _games.get(live_id)
        if found is None or found[0] > version:  # a newer game stays for the moves that act on it
            return None
        _games.pop(live_id)
    return found[1] if found[0] == version else None


def keep_on_commit(live_id: int, version: int, game: engine.Game, facts: TableFacts | None = None) -> None:
    """Keep `game` as table `live_id`'s game at `version` (and the row's `facts`) once the current
    transaction commits."""
    transaction.on_commit(lambda: keep(live_id, version, game, facts))


def keep(live_id: int, version: int, game: engine.Game, facts: TableFacts | None = None) -> None:
    with _lock:
        held = _games.get(live_id)
        if held is None or held[0] < version:
            _games.put(live_id, (version, game))
        if facts is not None:
            _keep_facts(facts)


def keep_facts(live: LiveGame) -> None:
    """Keep the facts of `live` as just read (its seat holders read after it: `seats_version` must not be
    newer than the holders a move relies on), unless newer ones are kept."""
    with _lock:
        _keep_facts(facts_of(live))


def _keep_facts(facts: TableFacts) -> None:
    known = _facts.get(facts.live_id)
    if known is None or known.version <= facts.version:
        _facts.put(facts.live_id, facts)


def checkpoint_stored(live_id: int, version: int) -> None:
    """Another process stored a checkpoint at `version` (its change message says so): the facts kept for
    the table count from it, so this process's moves store the next one when it is due, not earlier."""
    with _lock:
        known = _facts.get(live_id)
        if known is not None and known.checkpoint_version < version:
            _facts.put(live_id, dataclasses.replace(known, checkpoint_version=version))


def forget_facts(live_id: int) -> None:
    """Forget what this process knows of table `live_id`'s row (its next move reads it again)."""
    _facts.pop(live_id, None)


def forget_all() -> None:
    with _lock:
        _games.clear()
        _facts.clear()


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
