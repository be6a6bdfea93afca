"""Playing a card (checked, or trusted because `legal_actions` listed it), what each card does to the
turn, and choosing the starting colour when the first card turned up is a wild."""

from __future__ import annotations

from . import cards as C
from .actions import ChooseColour, Play
from .cards import (
    BLANK,
    BOO_BLUE,
    CARD_ID,
    CODE,
    COLOUR,
    COLOUR_CODES,
    COLOUR_ID,
    DEAD_RED,
    DRAW2,
    IS_WILD,
    KIND,
    NUMBER,
    REVERSE,
    SHIELD,
    SKIP,
    WILD,
    WILD_DRAW4,
    XRAY,
)
from .cards import DRAW_AMOUNT as _DRAW_AMOUNT
from .cards import HAS_SUIT as _HAS_SUIT
from .cards import IS_EIGHT as _IS_EIGHT
from .drawing import draw_cards
from .errors import IllegalAction
from .events import TableEvent
from .playable import can_stack, is_playable, wd4_guilty
from .refusals import check_phase, check_turn, must_match_message, parse_colour, pending_message
from .special_cards import boo_blue, dead_red, shield_back, xray
from .state import AFTER_DRAW, CHALLENGE, CHOOSE_COLOUR, PLAY, HandState
from .turns import advance, draw_victim, end_hand


def play(state: HandState, action: Play) -> list[TableEvent]:
    seat = action.seat
    card = CARD_ID.get(action.card) if isinstance(action.card, str) else None
    if card is None:
        raise IllegalAction(f"there is no card {action.card!r}")
    check_turn(state, seat)
    check_phase(state, PLAY, AFTER_DRAW)
    hand = state.hands[seat]
    if card not in hand:
        raise IllegalAction(f"you do not hold {action.card}")
    if state.phase == AFTER_DRAW and card != state.drawn:
        check_phase(state, PLAY)  # raises the "only the card you just drew" message
    rules = state.rules
    kind = KIND[card]
    if state.pending:
        if not can_stack(state, card):
            raise IllegalAction(pending_message(state))
    elif not is_playable(state, card):
        raise IllegalAction(must_match_message(state))
    if IS_WILD[card]:
        colour = parse_colour(state, action.colour, action.card)
    else:
        if action.colour is not None:
            raise IllegalAction(f"{action.card} is not a wild card: play it without choosing a colour")
        colour = COLOUR[card]
    guilty = False
    if kind == C.WILD_DRAW4:
        guilty = wd4_guilty(state, hand, card)
        if guilty and not rules.challenge:
            what = "a card of the colour in play" if rules.wd4_restriction == "color" else \
                "a card matching the colour or the number of the top card"
            raise IllegalAction(f"you may play a Wild Draw 4 only when you hold no {what[2:]}")

    return do_play(state, seat, card, colour, guilty, action.card)


def trusted_play(state: HandState, action: Play) -> list[TableEvent]:
    """A play `legal_actions` listed for this exact state: only work out what `play` would have checked."""
    card = CARD_ID[action.card]
    if IS_WILD[card]:
        colour = COLOUR_ID[action.colour]  # type: ignore[index]  # a listed wild play has its colour
        guilty = KIND[card] == C.WILD_DRAW4 and wd4_guilty(state, state.hands[action.seat], card)
    else:
        colour = COLOUR[card]
        guilty = False
    return do_play(state, action.seat, card, colour, guilty, action.card)


def do_play(state: HandState, seat: int, card: int, colour: int, guilty: bool, code: str) -> list[TableEvent]:
    """Play a card already known to be legal: mutate the state and return the events."""
    rules = state.rules
    kind = KIND[card]
    hand = state.hands[seat]
    events: list[TableEvent] = []
    discard = state.discard
    identical = rules.identical_card_skips and card == discard[-1] and _HAS_SUIT[card]
    state.uno_window = -1
    hand.remove(card)
    discard.append(card)
    state.colour = colour
    state.drawn = -1
    state.phase = PLAY
    state.stalled = 0
    if not state.quiet:
        events.append(TableEvent("played", {"seat": seat, "card": code, "colour": COLOUR_CODES[colour]}))
    if rules.ocho_announcement and _IS_EIGHT[card]:
        events.append(TableEvent("ocho", {"seat": seat}))
    left = len(hand)
    if left == 1 and rules.uno_call and not state.uno[seat]:
        state.uno_window = seat
    skip = 1 if identical else 0
    if identical:
        events.append(TableEvent("identical", {"seat": seat, "card": code}))

    if left == 0:
        # The last card's draws still land (and count when scoring); nobody can answer them any more.
        amount = _DRAW_AMOUNT[card]
        if amount:
            victim = draw_victim(state, seat, skip)
            total = state.pending + amount
            state.pending = 0
            draw_cards(state, victim, total, "draw_card", events)
        elif kind == SHIELD and state.pending and rules.shield_out_sends_back:
            shield_back(state, seat, events)
        elif kind == DEAD_RED:
            dead_red(state, seat, True, events)
        elif kind == BOO_BLUE:
            boo_blue(state, seat, True, events)
        end_hand(state, seat, events)
        return events

    if kind == NUMBER or kind == WILD or kind == BLANK:
        if skip:
            advance(state, seat, 2, events)
        else:
            state.turn = (seat + state.direction) % state.seats
    elif kind == SKIP:
        advance(state, seat, 2 + skip, events)
    elif kind == REVERSE:
        if state.seats == 2 and rules.two_player_rules:
            advance(state, seat, 2 + skip, events)
        else:
            state.direction = -state.direction
            events.append(TableEvent("reversed", {"seat": seat, "direction": "left" if state.direction > 0 else "right"}))
            advance(state, seat, 1 + skip, events)
    elif kind == DRAW2 or kind == WILD_DRAW4:
        amount = _DRAW_AMOUNT[card]
        if kind == WILD_DRAW4 and rules.wd4_unavoidable:
            victim = state.next_seat(seat)
            total = state.pending + amount
            state.pending = 0
            state.pending_from = -1
            draw_cards(state, victim, total, "draw_card", events)
            advance(state, seat, 2, events)
        elif kind == WILD_DRAW4 and rules.challenge:
            victim = state.next_seat(seat)
            state.phase = CHALLENGE
            state.pending = amount
            state.wd4_from = seat
            state.wd4_guilty = guilty
            state.turn = victim
        elif rules.stacking != "off" and not (skip and state.seats == 2):
            state.pending += amount
            state.pending_from = seat
            state.resume_after = -1
            advance(state, seat, 1 + skip, events)
            events.append(TableEvent("stacked", {"seat": seat, "total": state.pending, "to": state.turn}))
        else:
            # No stacking, or (two players) an identical 2 whose skip already took the opponent's turn, so
            # nobody is left to continue the stack: the opponent draws the whole total and its player
            # moves again (docs/rules.md, ocho-cards).
            victim = draw_victim(state, seat, skip)
            total = state.pending + amount
            state.pending = 0
            state.pending_from = -1
            state.resume_after = -1
            draw_cards(state, victim, total, "draw_card", events)
            advance(state, seat, 2 + skip, events)
    elif kind == SHIELD:
        if state.pending:
            target = state.pending_from
            if state.resume_after < 0:
                state.resume_after = seat
            state.pending_from = seat
            state.turn = target
            events.append(TableEvent("shielded", {"seat": seat, "to": target, "total": state.pending}))
        else:
            advance(state, seat, 1 + skip, events)
    elif kind == XRAY:
        xray(state, seat, events)
        advance(state, seat, 1, events)
    elif kind == DEAD_RED:
        dead_red(state, seat, False, events)
        advance(state, seat, 1 + skip, events)
    elif kind == BOO_BLUE:
        boo_blue(state, seat, False, events)
        advance(state, seat, 1 + skip, events)
    return events


def choose_colour(state: HandState, action: ChooseColour) -> list[TableEvent]:
    seat = action.seat
    check_turn(state, seat)
    if state.phase != CHOOSE_COLOUR:
        raise IllegalAction("the colour is already set")
    colour = parse_colour(state, action.colour, CODE[state.discard[-1]])
    state.colour = colour
    state.phase = PLAY
    return [TableEvent("colour_chosen", {"seat": seat, "colour": COLOUR_CODES[colour]})]
