"""Asking one seat's bot for its move, exactly as the live table would: the bot gets `engine.view_for` of
its hand seat (the dict the live socket's `view` field holds) and answers with an action dict or None.

What a student's code gets wrong is a `Fault` (it raised, answered something that is not an action, an
action not legal now, or nothing on its turn), recorded with the game, seed, view and answer; the seat
then makes the silent seat's move (`engine.silent_seat.default_action`), as the live timer would.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from games.engine import Action, HandState, MalformedAction, action_from_dict, view_for
from games.engine.silent_seat import default_action

from .entrants import Act, where

RAISED, GARBAGE, ILLEGAL, NOTHING = "raised", "not an action", "illegal action", "nothing on its turn"


@dataclass
class Fault:
    kind: str  # RAISED, GARBAGE, ILLEGAL or NOTHING
    bot: str
    detail: str  # what went wrong, in words
    view: dict[str, Any]
    answer: Any
    seat: int  # hand seat, then game seat once `matches` fills in where it happened
    on_turn: bool
    game: int = -1  # number, from 1
    seed: int = -1
    hand: int = -1  # number in its game, from 1
    subject: bool = False  # the bot under test's own fault


Report = Callable[[Fault], None]


def ask(act: Act, name: str, hand: HandState, seat: int, report: Report) -> int | Action | None:
    """What hand seat `seat` does now: the position of its answer among the actions `view_for` listed
    (`hand.offered`, in the order of view["legal_actions"]; on turn, `legal_moves(hand)` for `Game.step`)
    when it answered one of the listed dicts unchanged; else the action read from its answer, the silent
    seat's move after a fault on its turn, or None (it lets the moment pass, allowed only off its turn)."""
    on_turn = seat == hand.turn
    view = view_for(hand, seat)
    offered = hand.offered  # the actions `view_for` listed, in the order of view["legal_actions"]
    listed = view["legal_actions"]
    try:
        answer = act(view)
    except Exception as error:  # a student's code: counted and reported, never a traceback
        return _fault(report, Fault(RAISED, name, f"{type(error).__name__}: {error} ({where(error)})", view, None,
                                    seat, on_turn), hand)
    if answer is None:
        if on_turn:
            return _fault(report, Fault(NOTHING, name, "answered None on its turn", view, None, seat, True), hand)
        return None
    # the common case: one of the listed dicts, returned as it was
    i = 0
    for offer in listed:
        if offer is answer:
            if answer == offered[i].to_dict():
                return i
            break
        i += 1
    return _parse(answer, name, hand, seat, on_turn, view, offered, report)


def _parse(answer: Any, name: str, hand: HandState, seat: int, on_turn: bool, view: dict[str, Any],
           offered: tuple, report: Report) -> Action | None:
    """An answer that is not one of the listed dicts as listed: read it as the live server reads a move
    (`seat` may be left out), then look it up among the legal actions."""
    if isinstance(answer, dict) and "seat" not in answer:
        answer = {**answer, "seat": seat}
    try:
        action = action_from_dict(answer)
    except (MalformedAction, TypeError, ValueError) as error:
        return _fault(report, Fault(GARBAGE, name, str(error), view, answer, seat, on_turn), hand)
    for legal in offered:
        if legal == action:
            return legal
    why = "not among view['legal_actions']" if offered else "view['legal_actions'] is empty: return None"
    return _fault(report, Fault(ILLEGAL, name, why, view, answer, seat, on_turn), hand)


def _fault(report: Report, fault: Fault, hand: HandState) -> Action | None:
    """Report the fault; the seat's move instead: the silent seat's on its turn, else nothing."""
    report(fault)
    return default_action(hand, fault.seat) if fault.on_turn else None
