"""What each viewer of a table may see: snapshots of a live game and the messages built from them.

A `Snapshot` is a live game at one version (engine game, seat holders, timers); `StoredMove` is one
logged change. Both are cached per process by (game, version), filled by the move service when a change
commits, so a broadcast costs the consumers of this process no query at all. Another process builds the
new version from its previous one and the change the broadcast carries (`games.services.change_messages`);
one that lacks the previous version, or hears of a change it cannot replay, loads the game once for all
its sockets. Snapshots are shared: never mutate.

Full `state` messages are built per viewer from these: the seat's own view (`engine.view_for` on its hand
seat) or the spectator view, and each event through `TableEvent.for_seat(hand_seat)` or
`TableEvent.public()`; `update` frames, what changed since a socket's last one, in `update_frames`.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field, fields
from datetime import datetime
from typing import TYPE_CHECKING, Any

import cachetools
from django.utils import timezone

from games import engine
from games.models import LiveGame, LiveMove
from games.services import fairness, game_log
from games.services.recent import Recent
from games.services.seats import SeatHolder, hand_seat_of, seat_holders, seat_of_user

if TYPE_CHECKING:
    from games.services.move_sql import MoveRow

LOG_MOVES = 20  # changes whose events a full `state` carries as its log
MAX_CATCH_UP = 50  # a consumer further behind than this gets a full state instead of updates


@dataclass(frozen=True)
class Snapshot:
    live_id: int
    version: int
    kind: str
    status: str
    paused: bool
    closed: bool  # the tournament game was finished by an organizer (the live game stops)
    title: str
    game: engine.Game
    hand_seats: list[int]
    holders: list[SeatHolder]
    deadline: datetime | None
    next_hand_at: datetime | None
    turn_seconds: int
    missed_turns: list[int]
    bot_takeover: list[bool]
    owner_id: int | None
    shuffles: tuple = ()  # the server's per-hand shuffle records (secrets included: publish with fairness)
    arrival_until: datetime | None = None  # the end of a tournament table's arrival countdown
    arrived: tuple = ()  # per seat: the player has come to the table
    # What every viewer's message shares (the public game facts, each seat's view), built once per
    # version however many sockets are sent it. Shared: never mutate what it holds.
    built: dict = field(default_factory=dict, compare=False, repr=False)

    def seat_of(self, user) -> int | None:
        return seat_of_user(self.holders, user)


_FIELDS = frozenset(f.name for f in fields(Snapshot))


def moved_on(snap: Snapshot, **changes: Any) -> Snapshot:
    """`dataclasses.replace(snap, **changes)` for the snapshot of a table's next version, at a quarter of
    its cost (5 us): a frozen dataclass's `__init__` sets each of its twenty fields through
    `object.__setattr__`, and `replace` reads them all through `fields()` first. Pass `built={}`: the
    new version shares nothing built for the old one."""
    if not changes.keys() <= _FIELDS:
        raise TypeError(f"Snapshot has no field {', '.join(sorted(changes.keys() - _FIELDS))}")
    new = object.__new__(Snapshot)
    state = new.__dict__
    state.update(snap.__dict__)
    state.update(changes)
    return new


@dataclass(frozen=True)
class StoredMove:
    version: int
    hand_number: int
    seat: int | None
    actor: str
    events: list[dict[str, Any]]
    hand_seats: list[int]
    via_token: bool = False  # a player's move made through their access token (their bot)
    action: dict[str, Any] | None = None  # the engine action (hand seats), None for a deal or a notice


def snapshot_of(live: LiveGame, game: engine.Game, holders: list[SeatHolder]) -> Snapshot:
    paused = closed = False
    if live.kind == LiveGame.Kind.TOURNAMENT and live.game_id:
        Game = type(live.game)  # the tournament game, through the live game's link
        paused = live.game.status in (Game.Status.PAUSED, Game.Status.PENDING)
        closed = live.game.status == Game.Status.FINISHED
    n = live.seat_count
    return Snapshot(
        live.pk, live.version, live.kind, live.status, paused, closed, live.title, game, list(live.hand_seats),
        holders,
        live.deadline, live.next_hand_at, live.turn_seconds,
        list(live.missed_turns) + [0] * (n - len(live.missed_turns)),
        list(live.bot_takeover) + [False] * (n - len(live.bot_takeover)), live.owner_id,
        tuple(live.shuffles or ()), live.arrival_until,
        tuple(live.arrived) + (False,) * (n - len(live.arrived)),
    )


def stored_move_of(move: LiveMove | MoveRow) -> StoredMove:
    return StoredMove(move.version, move.hand_number, move.seat, move.actor, move.events, move.hand_seats,
                      move.via_token, move.action)


# ---- the per-process cache ---------------------------------------------------------------------------

_snapshots = Recent(1024)
_moves = Recent(8192)


def remember(snapshot: Snapshot, moves: list[StoredMove]) -> None:
    """Cache a committed version (call from `transaction.on_commit` only: versions are reused on rollback)."""
    _snapshots.put((snapshot.live_id, snapshot.version), snapshot)
    for move in moves:
        _moves.put((snapshot.live_id, move.version), move)


def forget_all() -> None:
    _snapshots.clear()
    _moves.clear()
    game_log.forget_all()


def snapshot_at(live_id: int, version: int) -> Snapshot | None:
    """The cached snapshot of table `live_id` at `version`, if this process has it (shared: never mutate)."""
    return _snapshots.get((live_id, version))


def cached_move(live_id: int, version: int) -> StoredMove | None:
    return _moves.get((live_id, version))


def remember_moves(live_id: int, moves: list[StoredMove]) -> None:
    """Cache moves another process committed (from their change messages: `games.services.change_messages`)."""
    for move in moves:
        _moves.put((live_id, move.version), move)


def remember_replayed(snapshot: Snapshot) -> None:
    """Cache a version another process committed, as this process replayed it from its change message."""
    _snapshots.put((snapshot.live_id, snapshot.version), snapshot)


def game_copy(live_id: int, version: int) -> engine.Game | None:
    """A copy of the game at `version` if this process has its snapshot (for a move to change)."""
    snap = _snapshots.get((live_id, version))
    return None if snap is None else snap.game.copy()


# ---- loading -----------------------------------------------------------------------------------------

def load_snapshot(live_id: int, moves_since: int | None = None) -> Snapshot | None:
    """The game as it is now, with its seat holders read afresh (an organizer may have replaced a player
    without the version changing): one query, two for a tournament game. The engine game is reused from
    the cache when this version was seen, else read from the log (`game_log`: two more queries, which
    also bring the moves after `moves_since` into the cache)."""
    try:
        live = LiveGame.objects.for_play().get(pk=live_id)
    except LiveGame.DoesNotExist:
        return None
    cached = _snapshots.get((live_id, live.version))
    if cached is not None:
        game = cached.game
    else:
        game, rows = game_log.load_with_moves(live, live.version if moves_since is None else moves_since)
        for row in rows:
            _moves.put((live_id, row.version), stored_move_of(row))
    snap = snapshot_of(live, game, seat_holders(live))
    if cached is not None and cached == snap:
        # Nothing moved since (holders, clocks, flags alike): the cached snapshot stays, so every socket of
        # the table shares its built views and game facts instead of holding a copy of its own.
        snap = cached
    else:
        _snapshots.put((live_id, snap.version), snap)
    game_log.keep_facts(live)  # read before its holders: what a one-statement move needs (`move_sql`)
    return snap


def cached_moves(live_id: int, after: int, upto: int) -> list[StoredMove] | None:
    """Moves with after < version <= upto if the cache holds them all, else None."""
    cached = [_moves.get((live_id, v)) for v in range(after + 1, upto + 1)]
    return None if any(m is None for m in cached) else cached  # type: ignore[return-value]


def load_moves(live_id: int, after: int, upto: int) -> list[StoredMove]:
    """Moves with after < version <= upto, from the cache when all are there, else one query."""
    cached = cached_moves(live_id, after, upto)
    if cached is not None:
        return cached
    rows = [stored_move_of(m) for m in LiveMove.objects.filter(live_game_id=live_id, version__gt=after,
                                                               version__lte=upto).order_by("version")]
    for m in rows:
        _moves.put((live_id, m.version), m)
    return rows


def changes_since(live_id: int, after: int, version: int) -> tuple[Snapshot | None, list[StoredMove]]:
    """What a consumer that has sent `after` needs on hearing of `version`: the newest snapshot it can
    get (the cached one at `version`, else the current one) and the moves in between; for a consumer more
    than `MAX_CATCH_UP` behind, the snapshot's recent moves (its log: it is sent a full state).

    The sockets of one table in this process hear of a change made elsewhere at the same moment: the
    first loads it, the others wait for it and find it cached (one load per process, not per socket)."""
    with _loading(live_id):
        snap = _snapshots.get((live_id, version))
        if snap is None:
            snap = load_snapshot(live_id, moves_since=after)
            if snap is None:
                return None, []
        if snap.version - after > MAX_CATCH_UP:
            return snap, recent_moves(live_id, snap.version)
        return snap, load_moves(live_id, after, snap.version)


def cached_changes(live_id: int, after: int, version: int) -> tuple[Snapshot, list[StoredMove]] | None:
    """What `changes_since` gives, from the cache alone (no query: safe in an event loop), or None when
    something is missing or the consumer is more than `MAX_CATCH_UP` behind (it is sent a full state)."""
    snap = _snapshots.get((live_id, version))
    if snap is None or snap.version - after > MAX_CATCH_UP:
        return None
    moves = cached_moves(live_id, after, snap.version)
    return None if moves is None else (snap, moves)


# Per table, the lock its loads take (an evicted lock still in use costs a second load, nothing worse).
_table_locks: cachetools.LRUCache = cachetools.LRUCache(4096)
_table_locks_lock = threading.Lock()


def _loading(live_id: int) -> threading.Lock:
    with _table_locks_lock:
        return _table_locks.setdefault(live_id, threading.Lock())


def recent_moves(live_id: int, version: int) -> list[StoredMove]:
    return load_moves(live_id, max(0, version - LOG_MOVES), version)


# ---- per-viewer messages -----------------------------------------------------------------------------

def events_for(move: StoredMove, game_seat: int | None) -> list[dict[str, Any]]:
    """The move's events as the holder of `game_seat` (None: a spectator) may see them."""
    hand_seat = hand_seat_of(move.hand_seats, game_seat)
    out = []
    for e in move.events:
        visible = e.get("visible_to")
        data = numbered_from_one(e["data"]) if e["kind"] == "hand_scored" else e["data"]
        event = engine.TableEvent(e["kind"], data, e.get("private"), None if visible is None else frozenset(visible))
        out.append(event.public() if hand_seat is None else event.for_seat(hand_seat))
    return out


def numbered_from_one(result: dict[str, Any]) -> dict[str, Any]:
    """A hand's result as frames show it: hands count from 1 in every frame (`hand_number`, the shuffles'
    `hand`, a result's `number`), while the engine numbers its results from 0."""
    return {**result, "number": result["number"] + 1}


def view_for(snap: Snapshot, game_seat: int | None) -> dict[str, Any] | None:
    """What the holder of `game_seat` (None: a spectator) sees of the hand; built once per snapshot and
    hand seat (do not change the dict)."""
    hand = snap.game.hand
    if hand is None:
        return None
    hand_seat = hand_seat_of(snap.hand_seats, game_seat)
    key = ("view", hand_seat)
    view = snap.built.get(key)
    if view is None:
        view = engine.spectator_view(hand) if hand_seat is None else engine.view_for(hand, hand_seat)
        snap.built[key] = view
    return view


def iso(moment: datetime | None) -> str | None:
    return None if moment is None else moment.isoformat()


def game_info(snap: Snapshot) -> dict[str, Any]:
    """Public facts about the game: seats, totals, hand number, target, status, winners, timers (built
    once per snapshot: do not change the dict)."""
    info = snap.built.get("game")
    if info is None:
        info = snap.built["game"] = _game_info(snap)
    return info


def _game_info(snap: Snapshot) -> dict[str, Any]:
    game = snap.game
    rules = game.rules
    playing = game.hand is not None and not game.hand.over
    status = LiveGame.Status.FINISHED if snap.closed else snap.status
    if status == LiveGame.Status.RUNNING:
        status = "paused" if snap.paused else ("playing" if playing else "between_hands")
    seats = []
    for h in snap.holders:
        seats.append({
            "seat": h.seat, "name": h.name, "bot": h.is_bot, "takeover": bool(snap.bot_takeover[h.seat]),
            "missed_turns": snap.missed_turns[h.seat], "total": game.totals[h.seat] if h.seat < game.seats else 0,
            "out": h.seat not in game.active, "arrived": _arrived(snap, h),
        })
    return {
        "id": snap.live_id, "kind": snap.kind, "title": snap.title, "preset": rules.preset,
        "scoring": rules.scoring, "target": rules.target, "status": status, "seats": seats,
        "hand_seats": list(snap.hand_seats), "hand_number": len(game.results) + (1 if playing else 0),
        "hands_played": len(game.results), "dealer": game.dealer, "totals": list(game.totals),
        "winners": list(game.winners),
        "last_result": numbered_from_one(game.results[-1].to_dict()) if game.results else None,
        "turn_seconds": snap.turn_seconds, "next_hand_at": iso(snap.next_hand_at),
        "arrival_until": iso(snap.arrival_until),
        "shuffles": fairness.public_shuffles(list(snap.shuffles), len(game.results),
                                             snap.closed or snap.status == LiveGame.Status.FINISHED),
    }


def _arrived(snap: Snapshot, holder: SeatHolder) -> bool:
    """The seat's player has come to the table, or there is nobody to wait for (a bot, a seat nobody may
    play, a table without an arrival countdown)."""
    if snap.arrival_until is None or holder.is_bot or holder.user_id is None:
        return True
    return bool(snap.arrived[holder.seat]) if holder.seat < len(snap.arrived) else False


def _common(snap: Snapshot, seat: int | None) -> dict[str, Any]:
    return {
        "version": snap.version, "role": "spectator" if seat is None else "player", "seat": seat,
        "hand_seat": hand_seat_of(snap.hand_seats, seat), "view": view_for(snap, seat), "game": game_info(snap),
        "deadline": iso(snap.deadline), "now": timezone.now().isoformat(),
    }


def state_message(snap: Snapshot, seat: int | None, log: list[StoredMove]) -> dict[str, Any]:
    """The full `state` message for the holder of `seat` (None: a spectator)."""
    message = {"type": "state", **_common(snap, seat)}
    message["log"] = [{"version": m.version, "by": by_of(m), "events": events_for(m, seat)} for m in log]
    return message


def by_of(move: StoredMove) -> dict[str, Any]:
    """Who made the change; `via_token` (only when true): a player's move through their access token."""
    if move.via_token:
        return {"seat": move.seat, "actor": move.actor, "via_token": True}
    return {"seat": move.seat, "actor": move.actor}
