"""Challenging or accepting a Wild Draw 4."""

from __future__ import annotations

from .actions import Accept, Challenge
from .cards import CODE
from .drawing import draw_cards
from .errors import IllegalAction
from .events import TableEvent
from .refusals import check_turn
from .state import CHALLENGE, PLAY, HandState
from .turns import advance


def challenge(state: HandState, action: Challenge) -> list[TableEvent]:
    seat = action.seat
    check_turn(state, seat)
    if state.phase != CHALLENGE:
        raise IllegalAction("there is no Wild Draw 4 to challenge")
    rules = state.rules
    accused = state.wd4_from
    guilty = state.wd4_guilty
    shown = tuple(state.hands[accused])
    state.uno_window = -1
    state.reveals.append((seat, accused, shown, "challenge"))
    events = [TableEvent("challenged", {"seat": seat, "of": accused, "guilty": guilty},
                    {"hand": [CODE[c] for c in shown]}, frozenset((seat,)))]
    state.phase = PLAY
    state.pending = 0
    state.wd4_from = -1
    state.wd4_guilty = False
    if guilty:
        draw_cards(state, accused, rules.challenge_guilty_draw, "challenge_guilty", events)
        state.turn = seat  # the challenger is not hit and plays on the chosen colour
    else:
        draw_cards(state, seat, rules.challenge_innocent_draw, "challenge_lost", events)
        advance(state, seat, 1, events)
    return events


def accept(state: HandState, action: Accept) -> list[TableEvent]:
    seat = action.seat
    check_turn(state, seat)
    if state.phase != CHALLENGE:
        raise IllegalAction("there is no Wild Draw 4 to accept")
    state.uno_window = -1
    total = state.pending
    state.phase = PLAY
    state.pending = 0
    state.wd4_from = -1
    state.wd4_guilty = False
    events: list[TableEvent] = []
    draw_cards(state, seat, total, "draw_card", events)
    advance(state, seat, 1, events)
    return events
