"""The one move path: sockets, the turn timer, bots and the dealer all change a live game through here.

Each change runs in one transaction: lock the game's row (its small columns: the engine state is not
read), re-check who may act and at which version, apply the action to the game this process keeps in
memory (`games.services.game_log`), insert the move row and update the game's row with the version
bumped, announce a hand scored and a game finished at its target (`games.signals`: the tournament's
receivers write their rows in the same transaction); only after the commit are the table's sockets told
("changed, version N", with the change itself for other processes) and the leaderboards refreshed. The
whole engine state is stored only at checkpoints (`game_log.needs_checkpoint`).

A player's socket goes through `socket_moves.play_move`: on PostgreSQL an ordinary move is stored there in
one statement on the socket's event loop (`move_sql`); any other move, and any that statement does not
take, is `submit_move` here, on a database thread.

A move that was acknowledged is therefore stored, and a move is never applied twice: a move sent again
(the same client move id for the same action from the same version), or the same action sent again for
a version that has moved on, is answered `already_played`. `already_played` always means "applied": a
move id this seat already used for another move (a restarted bot numbering its ids from 1 again) is
refused `id_reused`, and nothing is applied.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from games import engine, signals
from games.models import LiveGame, LiveMove
from games.services import (
    broadcast,
    change_messages,
    deadlines,
    fairness,
    first_moves,
    game_log,
    nudges,
    snapshots,
)
from games.services.seats import SeatHolder, hand_seat_of, seat_holders, seat_of_user, turn_game_seat

# Error codes, as in docs/protocol.md.
MALFORMED = "malformed"
FORBIDDEN = "forbidden"
STALE = "stale"
ILLEGAL = "illegal"
ALREADY_PLAYED = "already_played"
ID_REUSED = "id_reused"
GAME_OVER = "game_over"
PAUSED = "paused"
NOT_FOUND = "not_found"
UNAVAILABLE = "unavailable"


# The game's columns an engine action can change (the turn clock, the seat lists a player's move resets,
# the seats that have made an own move, the end of a game, a hand-scored receiver's `end_with_this_change`):
# all an action's update writes. Any other change (a deal, a notice, an organizer's) saves every column it loaded.
ACTION_COLUMNS = ["version", "status", "deadline", "next_hand_at", "missed_turns", "bot_takeover", "arrived",
                  "seats_moved", "updated_at"]
CHECKPOINT_COLUMNS = ["checkpoint", "checkpoint_version"]


class MoveRefused(Exception):
    """A move that was not applied; `code` is the protocol's error code, the message is for a person."""

    def __init__(self, code: str, message: str, version: int | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.version = version


@dataclass(frozen=True)
class MoveDone:
    version: int
    seat: int


def load_live_game(live_game_id: int) -> LiveGame | None:
    try:
        return LiveGame.objects.for_play().get(pk=live_game_id)
    except LiveGame.DoesNotExist:
        return None


def lock_live_game(live_game_id: int, *, skip_locked: bool = False, nowait: bool = False) -> LiveGame | None:
    """The live game row with its tournament game, locked for this transaction (None if missing or, with
    skip_locked, busy; with nowait a database error if busy). PostgreSQL locks the live game's row only:
    the tournament game's row is the organizer's to lock. SQLite has no row locks: its connections begin
    transactions IMMEDIATE (config.environment), which takes the write lock at BEGIN."""
    rows = LiveGame.objects.for_play().select_for_update(of=("self",), skip_locked=skip_locked, nowait=nowait)
    try:
        return rows.get(pk=live_game_id)
    except LiveGame.DoesNotExist:
        return None


def engine_game(live: LiveGame) -> engine.Game:
    """The engine game of the locked `live` at its version, for this transaction to change: the one this
    process keeps, else loaded from the log (`game_log`)."""
    return game_log.take(live.pk, live.version) or snapshots.game_copy(live.pk, live.version) or game_log.load(live)


def current_holders(live: LiveGame) -> list[SeatHolder]:
    """The seat holders of the locked `live`: this process's, when it holds the table at this version and
    no seat has changed hands since it read them (the row's `seats_version` is the one it read with them,
    as the one-statement move trusts them: `socket_moves`); else read (`seat_holders`: one more query
    under the row's lock)."""
    facts = game_log.facts(live.pk)
    if facts is not None and facts.seats_version == live.seats_version:
        snap = snapshots.snapshot_at(live.pk, live.version)
        if snap is not None:
            return list(snap.holders)
    return seat_holders(live)


def check_open(live: LiveGame) -> None:
    """Refuse moves in a finished game, or a tournament game that is paused or not running."""
    if live.status == LiveGame.Status.FINISHED:
        raise MoveRefused(GAME_OVER, "the game is over", live.version)
    if live.kind == LiveGame.Kind.TOURNAMENT:
        status, Game = live.game.status, type(live.game)  # the tournament game, through the live game's link
        if status == Game.Status.PAUSED:
            raise MoveRefused(PAUSED, "the organizer paused this game; wait for it to resume", live.version)
        if status == Game.Status.FINISHED:
            raise MoveRefused(GAME_OVER, "the organizer finished this game", live.version)
        if status != Game.Status.RUNNING:
            raise MoveRefused(PAUSED, "this game has not started yet", live.version)


def submit_move(live_game_id: int, user, version: Any, action: Any, client_move_id: str = "", *,
                via_token: bool = False) -> MoveDone:
    """A move from a player's socket: `action` is the engine action dict without the seat (or with the
    player's own hand seat), `version` the game version the player saw. Raises `MoveRefused`.

    A client move id that this seat already used is refused: `already_played` if it is this very move
    again (same action, same version acted on), else `id_reused`. It is looked up only when the move is
    refused for another reason; a move that would be applied is stopped by the move table's unique (game,
    seat, client move id) instead, so the usual move costs no query for its id.

    `via_token`: the socket was opened with the player's personal access token (their bot); the move is
    stored marked so. A game with `token_moves_only` takes players' moves only that way."""
    try:
        with transaction.atomic():
            return _submit_locked(live_game_id, user, version, action, client_move_id, via_token)
    except IntegrityError:
        used = _used_id_refusal(LiveMove.objects.filter(live_game_id=live_game_id, client_move_id=client_move_id),
                                client_move_id, version, action, None) if client_move_id else None
        if used is not None:
            raise used from None
        raise


def _submit_locked(live_game_id: int, user, version: Any, action: Any, client_move_id: str,
                   via_token: bool) -> MoveDone:
    live = lock_live_game(live_game_id)
    if live is None:
        raise MoveRefused(NOT_FOUND, "this game does not exist")
    holders = current_holders(live)
    seat = seat_of_user(holders, user)
    if seat is None:
        raise MoveRefused(FORBIDDEN, "spectators cannot act: you hold no seat at this table", live.version)
    check_open(live)
    if live.token_moves_only and not via_token:
        raise MoveRefused(FORBIDDEN, "a bot plays this seat: moves come through its access token "
                          "(see docs/bots.md)", live.version)
    hand_seat = hand_seat_of(live.hand_seats, seat)
    if not isinstance(action, dict):
        raise MoveRefused(MALFORMED, "'action' must be an object such as {\"type\": \"draw\"}", live.version)
    claimed = action.get("seat")
    if claimed is not None and claimed != hand_seat:
        raise MoveRefused(FORBIDDEN, f"you may only act for your own seat ({hand_seat})", live.version)
    try:
        if hand_seat is None:
            raise MoveRefused(FORBIDDEN, "you are not dealt in this hand", live.version)
        try:
            parsed = engine.action_from_dict({**action, "seat": hand_seat})
        except engine.MalformedAction as error:
            raise MoveRefused(MALFORMED, str(error), live.version) from error
        if version != live.version:
            if isinstance(version, int) and version < live.version and _already_applied(live, version, seat, parsed):
                raise MoveRefused(ALREADY_PLAYED, "this move was already played", live.version)
            if isinstance(version, int) and version > live.version:
                raise MoveRefused(STALE, f"version {version} is ahead of the game, which is at version "
                                  f"{live.version}: act on a version you were sent; here is the current state",
                                  live.version)
            raise MoveRefused(STALE, f"the game has moved on to version {live.version}: here is the current "
                              "state", live.version)
        game = engine_game(live)
        if game.hand is None or game.hand.over:
            raise MoveRefused(ILLEGAL, "the hand is over; the next hand is dealt in a moment", live.version)
        player_is_back(live, seat)
        first_moves.mark(live, seat)  # saved with the move; the first one is announced after the commit
        return apply_locked(live, game, holders, seat, parsed, LiveMove.Actor.PLAYER, user=user,
                            client_move_id=client_move_id, via_token=via_token)
    except MoveRefused as refused:
        used = _used_id_refusal(LiveMove.objects.filter(live_game=live, seat=seat, client_move_id=client_move_id),
                                client_move_id, version, action, live.version) \
            if refused.code != ALREADY_PLAYED and client_move_id else None
        if used is not None:
            raise used from None
        raise


def _used_id_refusal(moves, client_move_id: str, version: Any, action: Any, current: int | None) -> MoveRefused | None:
    """The refusal for a move whose id is among `moves` (this seat's stored moves with that id): the same
    move sent again is `already_played`; another move under a used id is `id_reused`. None if unused."""
    stored = [(m.version, m.action) for m in moves.only("version", "action")]
    if not stored:
        return None
    for applied_version, applied_action in stored:
        if version == applied_version - 1 and _same_action(action, applied_action):
            return MoveRefused(ALREADY_PLAYED, "this move was already played", current)
    used_at = stored[0][0] - 1
    return MoveRefused(ID_REUSED, f"the move id {client_move_id!r} was already used by your seat for another "
                       f"move (at version {used_at}): nothing was applied; give every move an id of its own "
                       "(docs/protocol.md)", current)


def _same_action(action: Any, applied: dict) -> bool:
    """`action` as the client sent it (the seat may be left out) is the stored action `applied`."""
    if not isinstance(action, dict):
        return False
    try:
        return engine.action_from_dict({**action, "seat": applied.get("seat")}).to_dict() == applied
    except engine.MalformedAction:
        return False


def _already_applied(live: LiveGame, version: int, seat: int, action: engine.Action) -> bool:
    """The same action by the same seat was what moved the game on from `version`."""
    move = LiveMove.objects.filter(live_game=live, version=version + 1).only("seat", "action").first()
    return move is not None and move.seat == seat and move.action == action.to_dict()


def player_is_back(live: deadlines.TurnColumns, seat: int) -> None:
    """A move by the player ends a bot takeover and the count of missed turns, and counts as their
    arrival at the table (`games.services.arrival`); saved with the move."""
    _fill_seat_lists(live)
    live.missed_turns[seat] = 0
    live.bot_takeover[seat] = False
    if live.arrival_until is not None:
        arrived = list(live.arrived) + [False] * (live.seat_count - len(live.arrived))
        arrived[seat] = True
        live.arrived = arrived


def _fill_seat_lists(live: deadlines.TurnColumns) -> None:
    n = live.seat_count
    live.missed_turns = list(live.missed_turns) + [0] * (n - len(live.missed_turns))
    live.bot_takeover = list(live.bot_takeover) + [False] * (n - len(live.bot_takeover))


def apply_locked(live: LiveGame, game: engine.Game, holders: list[SeatHolder], seat: int,
                 action: engine.Action, actor: str, *, user=None, client_move_id: str = "",
                 via_token: bool = False) -> MoveDone:
    """Apply `action` (hand seat numbers) for game seat `seat` to the locked `live`; store and announce."""
    before = deadlines.turn_key(game)
    hand_number = len(game.results)
    try:
        events = game.apply(action)
    except engine.EngineError as error:  # IllegalAction, or "the game is over"
        raise MoveRefused(ILLEGAL, str(error), live.version) from error
    store_change(live, game, holders, events, seat=seat, actor=actor, action=action.to_dict(), user=user,
                 client_move_id=client_move_id, hand_number=hand_number, before=before, via_token=via_token)
    return MoveDone(live.version, seat)


def store_change(live: LiveGame, game: engine.Game, holders: list[SeatHolder], events: list[engine.TableEvent], *,
                 seat: int | None, actor: str, action: dict | None, hand_number: int, before: tuple | None,
                 user=None, client_move_id: str = "", now: datetime | None = None,
                 via_token: bool = False, deal_seed: int | None = None) -> LiveMove:
    """Store one change (the engine game already changed in memory): the move row, the new state and
    version, timers. A hand that ends sends `hand_scored`, a game that ends `game_finished` (inside this
    transaction: `games.signals` says why); the table's sockets are told after the commit. `deal_seed`: the
    change is the deal of a hand with that seed (other workers deal it again: `change_messages`)."""
    now = now or timezone.now()
    _fill_seat_lists(live)
    live.version += 1
    checkpoint = game_log.needs_checkpoint(live, action)
    if checkpoint:
        game_log.write_checkpoint(live, game)
    move = LiveMove(
        live_game=live, version=live.version, hand_number=hand_number, seat=seat, actor=actor,
        user=user if user is not None and getattr(user, "is_authenticated", False) else None,
        action=action, events=[e.to_dict() for e in events], hand_seats=list(live.hand_seats),
        client_move_id=client_move_id, via_token=via_token,
    )
    scored = [e for e in events if e.kind == "hand_scored"]
    if scored:
        live.deadline = None
        signals.hand_scored.send(LiveGame, live=live, result=game.results[-1], started_at=live.hand_started_at,
                                 ended_at=now, move=move)
        if game.over:
            live.status = LiveGame.Status.FINISHED
            live.next_hand_at = None
            signals.game_finished.send(LiveGame, live=live, game=game, now=now, move=move)
        elif live.status == LiveGame.Status.RUNNING:  # not ended by a receiver (a rotation block's last hand)
            live.next_hand_at = now + deadlines.next_hand_pause()
    else:
        deadlines.schedule(live, game, holders, now, before)
    move.save()
    live.save(update_fields=ACTION_COLUMNS + CHECKPOINT_COLUMNS if action is not None and checkpoint
              else ACTION_COLUMNS if action is not None else None)  # else the loaded columns
    snap = snapshots.snapshot_of(live, game.copy(), holders)  # a copy: `game` moves on with the next change
    stored = snapshots.stored_move_of(move)
    game_log.keep_on_commit(live.pk, live.version, game, game_log.facts_of(live))
    transaction.on_commit(lambda: snapshots.remember(snap, [stored]))
    broadcast.announce_on_commit(live.pk, live.version,
                                 lambda: change_messages.change_message(snap, stored, checkpoint, deal_seed))
    nudges.nudge_on_commit(live.watch_group, live.pk)  # the organizer's live round view, after the commit
    return move


def deal_next_hand(live: LiveGame, game: engine.Game, holders: list[SeatHolder], now: datetime) -> LiveMove:
    """Deal the next hand of a game whose last hand is over (called by the sweeper and on creation).

    The hand is shuffled with its own secret seed; its commitment is published with the deal and the
    seed once the hand is over (`games.services.fairness`)."""
    number = len(game.results)
    seed, salt = fairness.prepare_hand(live, game, number)
    events = game.next_hand(seed=seed)
    live.hand_seats = list(game.hand_seats)
    live.hand_started_at = now
    live.next_hand_at = None
    fairness.record_deal(live, number, game, live.version + 1, seed, salt)  # the deal's version
    return store_change(live, game, holders, events, seat=None, actor=LiveMove.Actor.SYSTEM, action=None,
                        hand_number=number, before=None, now=now, deal_seed=seed)


def store_notice(live: LiveGame, game: engine.Game, holders: list[SeatHolder], kind: str,
                 data: dict[str, Any]) -> LiveMove:
    """A change that is not an engine action (a bot takes over a seat, the player returns)."""
    return store_change(live, game, holders, [engine.TableEvent(kind, data)], seat=data.get("game_seat"),
                        actor=LiveMove.Actor.SYSTEM, action=None, hand_number=len(game.results),
                        before=deadlines.turn_key(game))


def player_returned(live_game_id: int, user, *, via_token: bool = False) -> bool:
    """A player who syncs is back: a bot that had taken over the seat stops (a new version says so).
    Where players' seats are played by their bots (`token_moves_only`), only the bot's socket (`via_token`)
    is the player coming back: the owner watching in a browser is not."""
    live = load_live_game(live_game_id)
    if live is None or live.status != LiveGame.Status.RUNNING or (live.token_moves_only and not via_token):
        return False
    seat = seat_of_user(seat_holders(live), user)
    if seat is None or not (_flag(live.bot_takeover, seat) or _flag(live.missed_turns, seat)):
        return False  # nothing to change: no write lock taken
    with transaction.atomic():
        live = lock_live_game(live_game_id)
        if live is None or live.status != LiveGame.Status.RUNNING:
            return False
        holders = seat_holders(live)
        seat = seat_of_user(holders, user)
        if seat is None:
            return False
        _fill_seat_lists(live)
        if not live.bot_takeover[seat] and not live.missed_turns[seat]:
            return False
        had_bot = live.bot_takeover[seat]
        live.bot_takeover[seat] = False
        live.missed_turns[seat] = 0
        if not had_bot:  # no new version: the row's other counter tells the workers' copies (move_sql)
            live.seats_version += 1
            live.save(update_fields=["bot_takeover", "missed_turns", "seats_version"])
            return False
        game = engine_game(live)
        if turn_game_seat(game, live.hand_seats) == seat:
            live.deadline = None  # the player gets a full turn again
        store_notice(live, game, holders, "takeover_ended",
                     {"seat": hand_seat_of(live.hand_seats, seat), "game_seat": seat})
        return True


def _flag(values: list, seat: int):
    return values[seat] if seat < len(values) else 0

