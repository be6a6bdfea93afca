"""Moving the turn on (with the players skipped in between), who a draw card hits, and ending the hand
(a player out, or nobody able to play or draw)."""

from __future__ import annotations

from .cards import POINTS
from .events import TableEvent
from .state import OVER, HandState


def advance(state: HandState, seat: int, steps: int, events: list[TableEvent]) -> None:
    """Give the turn to the player `steps` places after `seat`; the ones in between are skipped.

    Nobody skips themselves: skips that would come round past the player stop there (with two players a
    Reverse-as-Skip that is also an identical card skips the opponent once, and its player moves again).
    """
    n = state.seats
    if steps > n:
        steps = n
    d = state.direction
    if not state.quiet:
        for i in range(1, steps):
            events.append(TableEvent("skipped", {"seat": (seat + d * i) % n}))
    state.turn = (seat + d * steps) % n


def draw_victim(state: HandState, seat: int, skip: int) -> int:
    """Who draws for `seat`'s draw card: the next player, or with an identical card's skip the one after;
    never the player themselves (two players: the skipped opponent also draws)."""
    victim = state.next_seat(seat, 1 + skip)
    return state.next_seat(seat, 1) if victim == seat else victim


def points_left(state: HandState) -> list[int]:
    """The points of the cards in each hand."""
    if state.rules.blank_cards:
        points = state.rules.card_points
        return [sum(map(points, hand)) for hand in state.hands]
    return [sum(map(POINTS.__getitem__, hand)) for hand in state.hands]


def end_hand(state: HandState, winner: int, events: list[TableEvent], blocked: bool = False) -> None:
    state.phase = OVER
    state.winner = winner
    state.blocked = blocked
    state.uno_window = -1
    state.pending = 0
    rules = state.rules
    points = points_left(state)
    data = {"winner": winner, "blocked": blocked, "points_left": points}
    if rules.partners:
        data["team"] = winner % 2
    events.append(TableEvent("hand_over", data))


def end_blocked(state: HandState, events: list[TableEvent]) -> None:
    """Nobody can play or draw: the hand ends; the lowest count of points in hand wins it."""
    points = points_left(state)
    winner = min(range(state.seats), key=lambda s: (points[s], s))
    end_hand(state, winner, events, blocked=True)
