"""What a silent seat does: the move the server makes for a seat whose turn timer ran out, and the move
the arena makes for a bot that raised or answered something illegal.

Draw, then pass; accept a pending Wild Draw 4; choose the colour the seat holds most; a card only when
the rules leave nothing else. Catching and calling UNO are never made for a seat.
"""

from __future__ import annotations

from collections import Counter

from .actions import Action, ChooseColour, Play
from .cards import COLOUR, COLOUR_CODES, IS_WILD
from .legal import legal_actions
from .state import HandState


def colour_held_most(hand: HandState, hand_seat: int) -> str:
    colours = hand.rules.colours
    counts = Counter(COLOUR[c] for c in hand.hands[hand_seat] if not IS_WILD[c])
    best = max(colours, key=lambda c: (counts.get(c, 0), -colours.index(c)))
    return COLOUR_CODES[best]


def default_action(hand: HandState, hand_seat: int) -> Action | None:
    """The silent seat's move (one of `legal_actions(hand, hand_seat)`), or None when only catching or
    calling UNO is left."""
    legal = legal_actions(hand, hand_seat)
    if not legal:
        return None
    by_type: dict[str, Action] = {}
    for action in legal:
        by_type.setdefault(action.type, action)
    colour = colour_held_most(hand, hand_seat)
    if "accept" in by_type:
        return by_type["accept"]
    if "choose_colour" in by_type:
        for action in legal:
            if isinstance(action, ChooseColour) and action.colour == colour:
                return action
        return ChooseColour(hand_seat, colour)
    for kind in ("draw", "pass"):
        if kind in by_type:
            return by_type[kind]
    plays = [a for a in legal if isinstance(a, Play)]
    if plays:
        for play in plays:
            if play.colour in (None, colour):
                return play
        return plays[0]
    return None
