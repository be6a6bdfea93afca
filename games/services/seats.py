"""Who holds each seat of a live game, and the one place where game seats and hand seats meet.

Game seats are the table's seat numbers (the tournament `Seat.number`); the engine numbers the seats of
the current hand 0..n-1 and `Game.hand_seats[i]` is the game seat at hand seat i. They differ once a
Challenge UNO player is eliminated. Everything outside this module speaks game seats.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from django.apps import apps
from django.db import connection
from django.db.models import F
from django.utils.functional import LazyObject, empty

from games import engine
from games.models import LiveGame


@dataclass(frozen=True)
class SeatHolder:
    seat: int  # game seat
    name: str
    user_id: int | None  # the user who may act for this seat now (None: a bot seat or nobody)
    bot_kind: str  # "" for a human seat

    @property
    def is_bot(self) -> bool:
        return bool(self.bot_kind)


def seat_holders(live: LiveGame) -> list[SeatHolder]:
    """The holders in game-seat order; for tournament games read fresh from the tournament's seats.

    A player who withdrew or was disqualified still owns the seat's name but may no longer act.
    """
    if live.kind == LiveGame.Kind.TOURNAMENT:
        rows = _tournament_seats(live.game_id)
        order = live.game.seat_order if live.game_id else []
        if order:  # a partner rotation's block: some of the table's seats, in the block's game seat order
            by_number = {row[0]: row for row in rows}
            rows = [by_number[n] for n in order if n in by_number]
        out = []
        for index, (number, bot_kind, player_id, user_id, status, display_name) in enumerate(rows):
            seat = index if order else number
            if player_id is None:
                out.append(SeatHolder(seat, f"Bot {number + 1}", None, bot_kind or "heuristic"))
            else:
                out.append(SeatHolder(seat, display_name, user_id if status in _active_statuses() else None, ""))
        return out
    kinds = list(live.bot_kinds) + [""] * (live.seat_count - len(live.bot_kinds))
    owner_name = live.owner.get_username() if live.owner_id else "Player"
    return [
        SeatHolder(i, f"Bot {i + 1}" if kind else owner_name, None if kind else live.owner_id, kind)
        for i, kind in enumerate(kinds[: live.seat_count])
    ]


def holders_changed(tournament_games) -> int:
    """Who holds a seat, whether its player may act, or the name a seat shows changed for the running live
    tables of `tournament_games` (ids, or a query of them) without a new version: call in the change's
    transaction (the tournament does, `tournament.services.live_tables.holders_changed`). Their
    `seats_version` moves on, so no worker stores a move there in one statement with the holders it read
    before (`games.services.move_sql`); the next move reads them afresh. Returns how many tables."""
    return (LiveGame.objects.filter(game_id__in=tournament_games, status=LiveGame.Status.RUNNING)
            .update(seats_version=F("seats_version") + 1))


def seat_given_to_another(tournament_game_id: int, game_seat: int) -> int:
    """Game seat `game_seat` of `tournament_game_id`'s running live table has another player, without a new
    version (in the change's transaction): as `holders_changed`, and the seat's first own move is the new
    player's to make (its bit in `seats_moved` is cleared: `games.services.first_moves`). Returns how many
    tables (0 or 1)."""
    return (LiveGame.objects.filter(game_id=tournament_game_id, status=LiveGame.Status.RUNNING)
            .update(seats_version=F("seats_version") + 1,
                    seats_moved=F("seats_moved").bitand(~LiveGame.seat_bit(game_seat))))


@functools.cache
def _active_statuses() -> tuple[str, ...]:
    return apps.get_model("tournament", "Player").ACTIVE_STATUSES


@functools.cache
def _seats_sql() -> str:
    table = {name: apps.get_model("tournament", name)._meta.db_table for name in ("Seat", "Game", "Player")}
    return ("SELECT s.number, s.bot_kind, s.player_id, p.user_id, p.status, p.display_name "
            f"FROM {table['Seat']} s JOIN {table['Game']} g ON g.table_id = s.table_id "
            f"LEFT JOIN {table['Player']} p ON p.id = s.player_id WHERE g.id = %s ORDER BY s.number")


def _tournament_seats(game_id: int) -> list[tuple]:
    """(number, bot kind, player id, user id, player status, display name) of the table's seats, by
    number: one fixed statement through Django's public cursor (read on every move, where the ORM's
    three-table query cost a loaded worker noticeably more)."""
    with connection.cursor() as rows:
        rows.execute(_seats_sql(), [game_id])
        return rows.fetchall()


@dataclass(frozen=True)
class Viewer:
    """The user a socket's updates are built for, by id: resolved once per socket. The scope's user is a
    lazy proxy whose every attribute costs a proxy call, and each update of each socket asks who it is."""
    pk: int | None

    @property
    def is_authenticated(self) -> bool:
        return self.pk is not None


def resolved_user(user):
    """The user behind Channels' lazy `scope["user"]` once its middleware has resolved it (else `user`
    itself): a socket reads its user's `pk` and `is_authenticated` on every move and update, each a trip
    through `LazyObject` otherwise."""
    if isinstance(user, LazyObject) and user._wrapped is not empty:
        return user._wrapped
    return user


def viewer_of(user) -> Viewer:
    return Viewer(user.pk if user is not None and getattr(user, "is_authenticated", False) else None)


def seat_of_user(holders: list[SeatHolder], user) -> int | None:
    """The game seat `user` may act for, or None (a spectator)."""
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    for holder in holders:
        if holder.user_id is not None and holder.user_id == user.pk:
            return holder.seat
    return None


def hand_seat_of(hand_seats: list[int], game_seat: int | None) -> int | None:
    """The hand seat of `game_seat` in a hand dealt to `hand_seats` (None: not dealt in, or no seat)."""
    if game_seat is None:
        return None
    try:
        return hand_seats.index(game_seat)
    except ValueError:
        return None


def game_seat_of(hand_seats: list[int], hand_seat: int) -> int:
    return hand_seats[hand_seat]


def turn_game_seat(game: engine.Game, hand_seats: list[int]) -> int | None:
    """The game seat whose move it is, or None between hands and after the game.

    `hand_seats` is `LiveGame.hand_seats` (the seats the current hand was dealt to): the engine's own
    `Game.hand_seats` already leaves out a player eliminated by the hand that just ended.
    """
    hand = game.hand
    if hand is None or hand.over or game.over:
        return None
    return hand_seats[hand.turn]
