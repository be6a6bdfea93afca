"""Moves by index, for simulations and benchmarks: `legal_moves(state)` lists what the seat on turn may do,
`step(state, i)` makes the i-th of those moves, without building events, and lists the next ones.

A policy reads the tuple (plays first, as `legal_actions` orders them) and picks an index. `step` is
`apply(state, legal_moves(state)[i], events=False)` followed by `legal_moves(state)`: the same move and the
same resulting state, with the listed action applied without checking it again.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from .actions import Accept, Action, CallUno, Challenge, Draw, Play
from .card_play import trusted_play
from .cards import (
    BLANK,
    CARD_ID,
    COLOUR,
    COLOUR_ID,
    DRAW2,
    FACE,
    IS_WILD,
    KIND,
    NUMBER,
    REVERSE,
    SKIP,
    WILD,
    WILD_DRAW4,
)
from .dispatch import TRUSTED_HANDLERS, quietly
from .drawing import draw_cards
from .errors import IllegalAction
from .legal import MATCHING, legal_moves, matching, other_moves, turn_moves_from
from .playable import wd4_guilty
from .state import AFTER_DRAW, CHALLENGE, OVER, PLAY, HandState

__all__ = ["legal_moves", "step"]


# What step does with each card itself; _OTHER cards go through `card_play.do_play`.
_OTHER: Final = 0
_NEXT: Final = 1
_SKIP: Final = 2
_REVERSE: Final = 3
_DRAW2: Final = 4
_WD4: Final = 5
_HOW: Final = [_NEXT if kind in (NUMBER, WILD, BLANK) else _SKIP if kind == SKIP else _REVERSE if kind == REVERSE
        else _DRAW2 if kind == DRAW2 else _WD4 if kind == WILD_DRAW4 else _OTHER for kind in KIND]


def step(state: HandState, index: Any) -> tuple[Action, ...]:
    """Make the `index`-th move of `legal_moves(state)` and return `legal_moves(state)` of the position it
    leads to; `IllegalAction` (state unchanged) for an index out of range. The tuple `legal_moves` (or
    `step`) last returned for this very state is reused, else computed.

    Under plain rules (`state.plain`: no identical-card skips, Ocho announcements, stacking or drawing
    until playable) the commonest moves are made here: a card that is not the player's last with no draw
    total pending (a Draw Two, a Wild Draw 4 awaiting its challenge included), drawing one card from a pile
    that has it, calling UNO, challenging or accepting a Wild Draw 4; everything else goes through
    `apply`'s handlers. tests/engine check that both leave the state `apply` leaves, move by move, on
    every preset.
    """
    try:
        action = state.offered[index]  # type: ignore[index]  # None: TypeError, below
        if index < 0 or action.seat != state.turn:  # offered lists another seat's actions
            raise IndexError
    except (IndexError, TypeError):
        action = _listed(state, index)
    cls = type(action)
    seat = action.seat
    if cls is Play:
        card = CARD_ID[action.card]
        how = _HOW[card]
        hand = state.hands[seat]
        left = len(hand) - 1
        if not how or not left or state.pending or not state.plain:
            return _slowly(state, trusted_play, action)
        rules = state.rules
        if how == _WD4:
            if not rules.challenge or rules.wd4_unavoidable:
                return _slowly(state, trusted_play, action)
            guilty = wd4_guilty(state, hand, card)  # against the colour in force before the play
        hand.remove(card)
        state.discard.append(card)
        colour = state.colour = COLOUR[card] if action.colour is None else COLOUR_ID[action.colour]
        if state.phase:  # after_draw
            state.drawn = -1
            state.phase = PLAY
        state.stalled = 0
        state.uno_window = seat if left == 1 and rules.uno_call and not state.uno[seat] else -1
        seats = state.seats
        if how == _NEXT:
            seat = (seat + state.direction) % seats
        elif how == _SKIP or (how == _REVERSE and seats == 2 and rules.two_player_rules):
            seat = (seat + 2 * state.direction) % seats  # two players: a Reverse skips
        elif how == _REVERSE:
            direction = state.direction = -state.direction
            seat = (seat + direction) % seats
        elif how == _DRAW2:  # the next player draws two and is skipped
            state.pending_from = -1
            state.resume_after = -1
            _take(state, (seat + state.direction) % seats, 2)
            seat = (seat + 2 * state.direction) % seats
        else:  # a Wild Draw 4 awaiting its challenge
            state.phase = CHALLENGE
            state.pending = 4
            state.wd4_from = seat
            state.wd4_guilty = guilty
            state.turn = (seat + state.direction) % seats
            moves = state.offered = other_moves(state, state.turn, state.hands[state.turn], rules)
            return moves
        state.turn = seat
        table = MATCHING[seat][card * 8 + colour] or matching(seat, card, colour)
    elif cls is Draw and state.plain and state.pile and not state.pending:  # one card, nothing pending
        rules = state.rules
        state.uno_window = -1
        state.stalled = 0
        card = state.pile.pop()
        hand = state.hands[seat]
        hand.append(card)
        if state.uno[seat] and (rules.uno_recall or len(hand) >= 3):
            state.uno[seat] = False
        top = state.discard[-1]
        # playable (under plain rules the engine never enforces the Wild Draw 4 restriction itself)
        if IS_WILD[card] or COLOUR[card] == state.colour or FACE[card] == FACE[top] >= 0:
            state.phase = AFTER_DRAW
            state.drawn = card
            moves = state.offered = other_moves(state, seat, hand, rules)
            return moves
        seat = state.turn = (seat + state.direction) % state.seats
        table = MATCHING[seat][top * 8 + state.colour] or matching(seat, top, state.colour)
    elif cls is CallUno and state.offered[-1] is action:  # type: ignore[index]  # the last listed: the others stay listed
        if state.uno_window == seat:  # right after forgetting to call (holding one card)
            state.uno_window = -1
        state.uno[seat] = True
        moves = state.offered = state.offered[:-1]  # type: ignore[index]
        return moves
    else:
        seat = _other_move(state, cls, seat, action)
        if seat < 0:  # made by `apply`'s handlers: the next moves are listed
            return state.offered  # type: ignore[return-value]  # `apply` listed them
        rules = state.rules
        state.turn = seat
        if state.phase or state.pending or not state.plain:
            moves = state.offered = other_moves(state, seat, state.hands[seat], rules)
            return moves
        top = state.discard[-1]
        table = MATCHING[seat][top * 8 + state.colour] or matching(seat, top, state.colour)
    # the normal turn's moves: the hot path of every simulation
    moves = state.offered = turn_moves_from(table, state, seat, state.hands[seat], rules)
    return moves


def _other_move(state: HandState, cls: type, seat: int, action: Action) -> int:
    """A listed move other than a play or a plain draw; the seat on turn next, or -1 when the move went
    through `apply`'s handlers (the next moves are then in `state.offered`)."""
    rules = state.rules
    if cls is CallUno:  # listed, so either on turn with two cards, or right after forgetting to call
        if state.uno_window == seat:
            state.uno_window = -1
        state.uno[seat] = True
        return state.turn
    if cls is Accept:  # take the Wild Draw 4's cards and lose the turn
        state.uno_window = -1
        total = state.pending
        state.phase = PLAY
        state.pending = 0
        state.wd4_from = -1
        state.wd4_guilty = False
        _take(state, seat, total)
        return (seat + state.direction) % state.seats
    if cls is Challenge:
        accused = state.wd4_from
        state.uno_window = -1
        state.reveals.append((seat, accused, tuple(state.hands[accused]), "challenge"))
        state.phase = PLAY
        state.pending = 0
        state.wd4_from = -1
        if state.wd4_guilty:  # the challenger is not hit and plays on the chosen colour
            state.wd4_guilty = False
            _take(state, accused, rules.challenge_guilty_draw)
            return seat
        _take(state, seat, rules.challenge_innocent_draw)
        return (seat + state.direction) % state.seats
    _slowly(state, TRUSTED_HANDLERS[cls], action)
    return -1


def _listed(state: HandState, index: Any) -> Action:
    """The `index`-th of `legal_moves(state)`, or `IllegalAction`."""
    offered = legal_moves(state)
    try:
        if index < 0:
            raise IndexError
        return offered[index]
    except (IndexError, TypeError):
        if state.phase == OVER:
            raise IllegalAction("the hand is over") from None
        raise IllegalAction(f"there is no move {index!r}: the seat on turn has {len(offered)} (0 to "
                            f"{len(offered) - 1})") from None


def _slowly(state: HandState, handler: Callable, action: Action) -> tuple[Action, ...]:
    """Make a listed move through `apply`'s trusted handler, without events; the next moves."""
    state.offered = None
    quietly(handler, state, action)
    return legal_moves(state)


def _take(state: HandState, seat: int, count: int) -> None:
    """`drawing.draw_cards` without events: `count` cards from the pile to `seat`'s hand."""
    pile = state.pile
    if len(pile) < count:  # the pile runs out: refilled from the discard pile
        state.quiet = True
        draw_cards(state, seat, count, "", [])
        state.quiet = False
        return
    hand = state.hands[seat]
    hand += pile[:-count - 1:-1]  # top first, as drawn one by one
    del pile[-count:]
    if state.uno[seat] and (state.rules.uno_recall or len(hand) >= 3):
        state.uno[seat] = False
