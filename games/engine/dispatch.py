"""`apply`: validate an action completely, then mutate the state and return the events.

Every check happens before the first mutation, so an `IllegalAction` leaves the state untouched. Each kind
of action has its handler in a module of its own (playing a card, drawing and passing, UNO calls,
challenges); `HANDLERS` maps the action type to it, `TRUSTED_HANDLERS` to the handler that skips the
checks for an action `legal_actions` has just listed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from .actions import Accept, Action, CallUno, Catch, Challenge, ChooseColour, Draw, Pass, Play
from .card_play import choose_colour, play, trusted_play
from .challenges import accept, challenge
from .draw_and_pass import draw, pass_turn, trusted_draw
from .errors import IllegalAction
from .events import TableEvent
from .state import OVER, HandState
from .uno_calls import call_uno, catch


def quietly(handler: Callable[[HandState, Action], list[TableEvent]], state: HandState, action: Action) -> None:
    """Run `handler` without building the commonest events (`step` and `apply(..., events=False)`)."""
    state.quiet = True
    try:
        handler(state, action)
    finally:
        state.quiet = False


HANDLERS: Final[dict[type, Callable[[HandState, Any], list[TableEvent]]]] = {
    Play: play, Draw: draw, Pass: pass_turn, CallUno: call_uno, Catch: catch, Challenge: challenge,
    Accept: accept, ChooseColour: choose_colour,
}


TRUSTED_HANDLERS: Final[dict[type, Callable[[HandState, Any], list[TableEvent]]]] = {**HANDLERS, Play: trusted_play, Draw: trusted_draw}


def apply(state: HandState, action: Action, events: bool = True) -> list[TableEvent]:
    """Apply `action` to `state` in place and return what happened.

    Raises `IllegalAction` (state unchanged) if the rules do not allow it now. An action object that
    `legal_actions` just listed for this very state is known to be legal and is not checked again.
    `events=False` (simulations, benchmarks) makes the same move without building the commonest events
    (played, drew, skipped, passed) and returns an empty list; the state is the same either way.
    """
    offered = state.offered
    if offered is not None:
        for legal in offered:
            if legal is action:
                state.offered = None
                handler = TRUSTED_HANDLERS[type(action)]
                if events:
                    return handler(state, action)
                state.quiet = True
                try:
                    handler(state, action)
                finally:
                    state.quiet = False
                return []
    if not events:
        state.quiet = True
        try:
            _checked_apply(state, action)
        finally:
            state.quiet = False
        return []
    return _checked_apply(state, action)


def _checked_apply(state: HandState, action: Action) -> list[TableEvent]:
    handler = HANDLERS.get(type(action))
    if handler is None:
        raise IllegalAction(f"{action!r} is not an action")
    seat = action.seat
    if type(seat) is not int or not 0 <= seat < state.seats:
        raise IllegalAction(f"there is no seat {seat!r} at this table")
    if state.phase == OVER:
        raise IllegalAction("the hand is over")
    events = handler(state, action)
    state.offered = None
    return events
