"""Moves by index, for simulations and benchmarks: `legal_moves(state)` lists what the seat on turn may do,
`step(state, i)` makes the i-th of those moves, without building events.

A policy reads the list (plays first, as `legal_actions` orders them) and picks an index. `step` is
`apply(state, legal_moves(state)[i], events=False)`: the same move and the same resulting state, with the
listed action applied without checking it again.
"""

from __future__ import annotations

from .actions import CallUno, Draw, Play
from .card_play import trusted_play
from .cards import (
    BLANK,
    CARD_ID,
    COLOUR,
    COLOUR_ID,
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
from .draw_and_pass import trusted_draw
from .errors import IllegalAction
from .legal import legal_moves
from .playable import wd4_enforced, wd4_guilty
from .state import AFTER_DRAW, OVER, PLAY, HandState

__all__ = ["legal_moves", "step"]


# What step does with each card itself: pass the turn on, skip, reverse, or leave it to `card_play.do_play`.
_NEXT, _SKIP, _REVERSE, _OTHER = "next", "skip", "reverse", "other"
_HOW = [_NEXT if kind in (NUMBER, WILD, BLANK) else _SKIP if kind == SKIP else _REVERSE if kind == REVERSE
        else _OTHER for kind in KIND]


def step(state: HandState, index: int) -> None:
    """Make the `index`-th move of `legal_moves(state)`; `IllegalAction` (state unchanged) for an index
    out of range. The list `legal_moves` last returned for this very state is reused, else computed.

    The commonest moves are made here: a number, Wild, Skip or Reverse that is not the player's last card
    (without identical-card skips or Ocho announcements), drawing one card from a pile that has it, and
    calling UNO; everything else goes through `apply`'s handlers. tests/engine check that both leave the
    state `apply` leaves, move by move, on every preset.
    """
    offered = state.offered
    if not offered or offered[0].seat != state.turn:
        offered = legal_moves(state)
    try:
        action = offered[index]
        if index < 0:
            raise IndexError
    except (IndexError, TypeError):
        if state.phase == OVER:
            raise IllegalAction("the hand is over") from None
        raise IllegalAction(f"there is no move {index!r}: the seat on turn has {len(offered)} (0 to "
                            f"{len(offered) - 1})") from None
    state.offered = None
    cls = type(action)
    rules = state.rules
    if cls is Play:
        card = CARD_ID[action.card]
        how = _HOW[card]
        seat = action.seat
        hand = state.hands[seat]
        left = len(hand) - 1
        if how is _OTHER or not left or rules.identical_card_skips or rules.ocho_announcement:
            quietly(trusted_play, state, action)
            return
        hand.remove(card)
        state.discard.append(card)
        state.colour = COLOUR[card] if action.colour is None else COLOUR_ID[action.colour]
        state.drawn = -1
        state.phase = PLAY
        state.stalled = 0
        state.uno_window = seat if left == 1 and rules.uno_call and not state.uno[seat] else -1
        if how is _NEXT:
            state.turn = (seat + state.direction) % state.seats
        elif how is _SKIP or (state.seats == 2 and rules.two_player_rules):  # two players: Reverse skips
            state.turn = (seat + 2 * state.direction) % state.seats
        else:  # a Reverse
            state.direction = -state.direction
            state.turn = (seat + state.direction) % state.seats
    elif cls is Draw:
        pile = state.pile
        if state.pending or not pile or rules.draw_until_playable:
            quietly(trusted_draw, state, action)
            return
        seat = action.seat
        state.uno_window = -1
        state.stalled = 0
        card = pile.pop()
        hand = state.hands[seat]
        hand.append(card)
        if state.uno[seat] and (rules.uno_recall or len(hand) >= 3):
            state.uno[seat] = False
        if IS_WILD[card] or COLOUR[card] == state.colour or FACE[card] == FACE[state.discard[-1]] >= 0:
            if not (KIND[card] == WILD_DRAW4 and wd4_enforced(state) and wd4_guilty(state, hand, card)):
                state.phase = AFTER_DRAW
                state.drawn = card
                return
        state.turn = (seat + state.direction) % state.seats
    elif cls is CallUno:  # listed, so either on turn with two cards, or right after forgetting to call
        seat = action.seat
        if state.uno_window == seat:
            state.uno_window = -1
        state.uno[seat] = True
    else:
        quietly(TRUSTED_HANDLERS[cls], state, action)
