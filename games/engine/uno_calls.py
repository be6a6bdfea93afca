"""Calling UNO and catching a player who did not."""

from __future__ import annotations

from .actions import CallUno, Catch
from .drawing import draw_cards
from .errors import IllegalAction
from .events import TableEvent
from .state import AFTER_DRAW, PLAY, HandState


def call_uno(state: HandState, action: CallUno) -> list[TableEvent]:
    seat = action.seat
    rules = state.rules
    if not rules.uno_call:
        raise IllegalAction("there is no UNO call in this game")
    hand = state.hands[seat]
    if state.uno_window == seat:
        state.uno_window = -1
        state.uno[seat] = True
        return [TableEvent("uno", {"seat": seat, "self_catch": True})]
    if state.uno[seat]:
        raise IllegalAction("you have already called UNO")
    if seat == state.turn and len(hand) == 2 and state.phase in (PLAY, AFTER_DRAW):
        state.uno[seat] = True
        return [TableEvent("uno", {"seat": seat, "self_catch": False})]
    raise IllegalAction("you may call UNO only on your turn before playing your next-to-last card, "
                        "or right after it")


def catch(state: HandState, action: Catch) -> list[TableEvent]:
    seat, target = action.seat, action.target
    rules = state.rules
    if not rules.uno_call:
        raise IllegalAction("there is no UNO call in this game")
    if target == seat:
        raise IllegalAction("you cannot catch yourself: call UNO instead")
    if not (isinstance(target, int) and 0 <= target < state.seats):
        raise IllegalAction(f"there is no seat {target} at this table")
    if state.uno_window != target:
        raise IllegalAction(f"seat {target} cannot be caught now")
    state.uno_window = -1
    events = [TableEvent("caught", {"seat": seat, "target": target, "penalty": rules.uno_penalty})]
    draw_cards(state, target, rules.uno_penalty, "uno_penalty", events)
    return events
