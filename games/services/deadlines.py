"""When the seat on turn must have moved: the turn timer for people, the think time for bots.

The deadline lives in the database (`LiveGame.deadline`); the sweeper (`games.services.timers`) acts on
games whose deadline has passed. Settings: `LIVE_BOT_THINK_SECONDS` (min, max), `LIVE_NEXT_HAND_SECONDS`.

A player who has not yet come to the table (`awaited`: a tournament table's arrival countdown,
`LiveGame.arrival_until`, still runs) gets a turn clock that starts when the countdown ends; their
arrival (`games.services.arrival`) starts it at once.
"""

from __future__ import annotations

import random
from datetime import datetime, timedelta
from typing import Protocol

from django.conf import settings

from games import engine
from games.models import LiveGame
from games.services.seats import SeatHolder, turn_game_seat

DEFAULT_BOT_THINK_SECONDS = (1.0, 2.5)
DEFAULT_NEXT_HAND_SECONDS = 3.0


def bot_think_time() -> timedelta:
    low, high = getattr(settings, "LIVE_BOT_THINK_SECONDS", DEFAULT_BOT_THINK_SECONDS)
    return timedelta(seconds=random.uniform(low, high) if high > low else low)


def next_hand_pause() -> timedelta:
    return timedelta(seconds=getattr(settings, "LIVE_NEXT_HAND_SECONDS", DEFAULT_NEXT_HAND_SECONDS))


class TurnColumns(Protocol):
    """The game row's columns the turn clock reads and sets: a `LiveGame`, or the few columns a move
    stored in one statement carries (`games.services.socket_moves`)."""
    seat_count: int
    status: str
    hand_seats: list[int]
    missed_turns: list[int]
    bot_takeover: list[bool]
    arrived: list[bool]
    arrival_until: datetime | None
    deadline: datetime | None
    turn_seconds: int


def bot_controlled(live: TurnColumns, holders: list[SeatHolder], seat: int) -> bool:
    """A bot seat, or a player's seat a bot has taken over after missed turns."""
    holder = holders[seat] if seat < len(holders) else None
    takeover = live.bot_takeover[seat] if seat < len(live.bot_takeover) else False
    return holder is None or holder.is_bot or bool(takeover)


def awaited(live: TurnColumns, holders: list[SeatHolder], seat: int, now: datetime) -> bool:
    """A player's seat whose player has not come to the table while its arrival countdown runs: nothing
    is played for it yet. Never a bot seat, a seat nobody may play (a withdrawn player) or a practice game."""
    if live.arrival_until is None or now >= live.arrival_until:
        return False
    holder = holders[seat] if seat < len(holders) else None
    if holder is None or holder.is_bot or holder.user_id is None:
        return False
    return not (live.arrived[seat] if seat < len(live.arrived) else False)


def turn_key(game: engine.Game) -> tuple | None:
    """Identifies one turn: a new key means a new turn (and a fresh timer)."""
    hand = game.hand
    if hand is None or hand.over:
        return None
    return (len(game.results), hand.turn, hand.phase)


def schedule(live: TurnColumns, game: engine.Game, holders: list[SeatHolder], now: datetime,
             before: tuple | None) -> None:
    """Set `live.deadline` after a change; `before` is the turn key before it (the timer runs on while
    the same turn goes on, e.g. after someone else's catch)."""
    seat = turn_game_seat(game, live.hand_seats)
    if seat is None or live.status != LiveGame.Status.RUNNING:
        live.deadline = None
    elif bot_controlled(live, holders, seat):
        live.deadline = now + bot_think_time()
    elif not live.turn_seconds:
        live.deadline = None
    elif awaited(live, holders, seat, now):  # the clock starts when the countdown ends (or on arrival)
        live.deadline = live.arrival_until + timedelta(seconds=live.turn_seconds)
    elif live.deadline is None or turn_key(game) != before:
        live.deadline = now + timedelta(seconds=live.turn_seconds)
