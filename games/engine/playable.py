"""Which cards may be played now: matching the top card, answering a pending draw total, and the Wild
Draw 4 restriction. Shared by `apply`'s handlers and by `legal_actions`."""

from __future__ import annotations

from . import cards as C
from .cards import COLOUR, FACE, IS_WILD, KIND
from .state import HandState


def is_playable(state: HandState, card: int) -> bool:
    """Whether `card` matches the top card in a normal turn (no draw pending)."""
    return IS_WILD[card] or COLOUR[card] == state.colour or FACE[card] == FACE[state.discard[-1]] >= 0


def can_stack(state: HandState, card: int) -> bool:
    """Whether `card` may answer the pending draw total (stack it, or block it with a Shield)."""
    kind = KIND[card]
    if kind == C.SHIELD:
        return True
    if state.resume_after >= 0:  # a Shield sent the pile back: only another Shield answers it
        return False
    stacking = state.rules.stacking
    if kind == C.DRAW2:
        return stacking != "off"
    if kind == C.WILD_DRAW4:
        return stacking == "draw2_draw4"
    return False


def wd4_guilty(state: HandState, hand: list[int], card: int) -> bool:
    """Whether playing this Wild Draw 4 breaks the preset's restriction (holding a matching card)."""
    restriction = state.rules.wd4_restriction
    if restriction == "none":
        return False
    colour = state.colour
    face = FACE[state.discard[-1]] if restriction == "color_or_number" else -2
    for h in hand:
        if h != card and not IS_WILD[h] and (COLOUR[h] == colour or FACE[h] == face):
            return True
    return False


def wd4_enforced(state: HandState) -> bool:
    rules = state.rules
    return rules.wd4_restriction != "none" and not rules.challenge


def has_playable(state: HandState, hand: list[int]) -> bool:
    enforced = wd4_enforced(state)
    for c in hand:
        if is_playable(state, c) and not (enforced and KIND[c] == C.WILD_DRAW4 and wd4_guilty(state, hand, c)):
            return True
    return False
