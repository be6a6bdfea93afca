"""Drawing (a card, or the pending draw total) and passing after a draw."""

from __future__ import annotations

from . import cards as C
from .actions import Draw, Pass
from .cards import CODE, KIND
from .drawing import can_draw, draw_cards
from .errors import IllegalAction
from .events import TableEvent
from .playable import has_playable, is_playable, wd4_enforced, wd4_guilty
from .refusals import check_phase, check_turn
from .state import AFTER_DRAW, PLAY, HandState
from .turns import advance, end_blocked


def draw(state: HandState, action: Draw) -> list[TableEvent]:
    seat = action.seat
    check_turn(state, seat)
    check_phase(state, PLAY)
    rules = state.rules
    hand = state.hands[seat]
    events: list[TableEvent] = []
    if state.pending:
        state.uno_window = -1
        total = state.pending
        resume = state.resume_after if state.resume_after >= 0 else seat
        state.pending = 0
        state.pending_from = -1
        state.resume_after = -1
        draw_cards(state, seat, total, "draw_card", events)
        advance(state, resume, 1, events)
        return events
    drawable = can_draw(state)
    if not rules.reneging or not drawable:
        if has_playable(state, hand):
            if not drawable:
                raise IllegalAction("there is nothing left to draw: you must play a card")
            raise IllegalAction("you hold a card you can play, so you must play it")
    return do_draw(state, seat, drawable)


def trusted_draw(state: HandState, action: Draw) -> list[TableEvent]:
    seat = action.seat
    if state.pending:
        return draw(state, action)
    return do_draw(state, seat, can_draw(state))


def do_draw(state: HandState, seat: int, drawable: bool) -> list[TableEvent]:
    """A normal draw (no draw total pending) already known to be legal."""
    rules = state.rules
    hand = state.hands[seat]
    events: list[TableEvent] = []
    state.uno_window = -1
    if not drawable:
        state.stalled += 1
        events.append(TableEvent("passed", {"seat": seat, "reason": "nothing_to_draw"}))
        if state.stalled >= state.seats:
            end_blocked(state, events)
        else:
            advance(state, seat, 1, events)
        return events
    state.stalled = 0
    while True:
        got = draw_cards(state, seat, 1, "draw", events)
        if not got:
            break
        last = got[0]
        if is_playable(state, last) and not (
                KIND[last] == C.WILD_DRAW4 and wd4_enforced(state) and wd4_guilty(state, hand, last)):
            state.phase = AFTER_DRAW
            state.drawn = last
            return events
        if not rules.draw_until_playable or not can_draw(state):
            break
    if not state.quiet:
        events.append(TableEvent("passed", {"seat": seat, "reason": "no_play"}))
    advance(state, seat, 1, events)
    return events


def pass_turn(state: HandState, action: Pass) -> list[TableEvent]:
    seat = action.seat
    check_turn(state, seat)
    if state.phase != AFTER_DRAW:
        if state.phase == PLAY:
            raise IllegalAction("you may pass only after drawing a card")
        check_phase(state)
    if not state.rules.pass_after_draw:
        raise IllegalAction(f"you must play the card you just drew ({CODE[state.drawn]})")
    state.phase = PLAY
    state.drawn = -1
    events = [TableEvent("passed", {"seat": seat, "reason": "kept"})]
    advance(state, seat, 1, events)
    return events
