"""A player's arrival at a tournament table: their turn clock starts when they first open the table.

A tournament table opens with an arrival countdown (`LiveGame.arrival_until`, the event's arrival
grace). Until a player has opened the table (a socket at their seat) or moved, their seat is awaited
(`deadlines.awaited`): its turn clock starts only when the countdown ends, so nothing (no timer move, no
bot) is played for a player who has not come yet. The first time they come, the seat is marked arrived
in the game's row and a `player_arrived` notice is stored (a new version, so the whole table hears of it);
if it is their turn, their clock starts then, full. Bot seats and practice games have no countdown.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from games.models import LiveGame
from games.services.moves import engine_game, load_live_game, lock_live_game, store_notice
from games.services.seats import SeatHolder, hand_seat_of, seat_holders, seat_of_user, turn_game_seat

PLAYER_ARRIVED = "player_arrived"


def mark_arrived(live: LiveGame, seat: int) -> None:
    """Record on the (locked) row that `seat`'s player has come; saved with the caller's change."""
    arrived = list(live.arrived) + [False] * (live.seat_count - len(live.arrived))
    arrived[seat] = True
    live.arrived = arrived


def _waiting_seat(live: LiveGame, holders: list[SeatHolder], user, via_token: bool) -> int | None:
    """The seat of `user` if it is still awaited (the countdown runs and they have not come), else None.
    Where players' bots play through access tokens, only the bot's socket is the player arriving."""
    if (live.status != LiveGame.Status.RUNNING or live.arrival_until is None
            or timezone.now() >= live.arrival_until or (live.token_moves_only and not via_token)):
        return None
    seat = seat_of_user(holders, user)
    if seat is None or (live.arrived[seat] if seat < len(live.arrived) else False):
        return None
    return seat


def seat_arrived(live_game_id: int, user, *, via_token: bool = False) -> bool:
    """`user` opened the table: if their seat was awaited, mark it arrived, start their clock if it is
    their turn, and store a `player_arrived` notice. Returns whether anything changed (once per seat:
    a second socket, a reconnect or another worker finds it marked and writes nothing)."""
    live = load_live_game(live_game_id)
    if live is None or _waiting_seat(live, seat_holders(live), user, via_token) is None:
        return False  # the usual case: no write lock taken
    with transaction.atomic():
        live = lock_live_game(live_game_id)
        if live is None:
            return False
        holders = seat_holders(live)
        seat = _waiting_seat(live, holders, user, via_token)
        if seat is None:
            return False
        mark_arrived(live, seat)
        game = engine_game(live)
        if turn_game_seat(game, live.hand_seats) == seat:
            live.deadline = None  # their clock starts now, full (`deadlines.schedule`)
        store_notice(live, game, holders, PLAYER_ARRIVED,
                     {"seat": hand_seat_of(live.hand_seats, seat), "game_seat": seat})
        return True


def on_open(snap, user, *, via_token: bool = False):
    """A socket opened at the table (`snap`: the game as just loaded, `games.services.snapshots`): if its
    user's seat was awaited, they have arrived; returns the snapshot to send them (a fresh one then, so
    their first state already holds their full turn clock)."""
    from games.services import snapshots

    seat = snap.seat_of(user)
    if (seat is None or snap.arrival_until is None or timezone.now() >= snap.arrival_until
            or (snap.arrived[seat] if seat < len(snap.arrived) else False)):
        return snap
    if not seat_arrived(snap.live_id, user, via_token=via_token):
        return snap
    return snapshots.load_snapshot(snap.live_id) or snap
