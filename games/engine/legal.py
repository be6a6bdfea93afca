"""`legal_actions`: exactly what a seat may do now, in a stable order (plays first); `legal_moves`: the same
for the seat on turn as a tuple, the hot path of simulations and bots."""

from __future__ import annotations

from typing import Final

from . import cards as C
from .actions import Accept, Action, CallUno, Catch, Challenge, ChooseColour, Draw, Pass, Play
from .cards import CODE, COLOUR, COLOUR_CODES, FACE, IS_WILD, KIND
from .playable import can_stack, has_playable, wd4_enforced, wd4_guilty
from .rules import RuleSet
from .state import AFTER_DRAW, CHALLENGE, CHOOSE_COLOUR, OVER, HandState

# Actions are immutable, so the same instances are handed out again and again (shared with `moves.step`).
_SEATS: Final = range(16)  # tables hold at most 10 seats


def _colours(card: int) -> tuple[int, ...]:
    """The colours a wild card may name (a card id belongs to one card family)."""
    return C.SUIT_COLOURS if card >= C.CARD_ID["AS"] else C.UNO_COLOURS


# seat -> card id -> the Play actions of that card (one per colour if wild)
PLAYS: Final[list[list[tuple[Play, ...]]]] = [
    [tuple(Play(seat, CODE[card], COLOUR_CODES[c]) for c in _colours(card)) if IS_WILD[card]
     else (Play(seat, CODE[card]),) for card in range(C.CARD_COUNT)]
    for seat in _SEATS]
DRAW: Final = [Draw(s) for s in _SEATS]
CALL_UNO: Final = [CallUno(s) for s in _SEATS]
PASS: Final = [Pass(s) for s in _SEATS]
CHALLENGE_OR_ACCEPT: Final = [(Challenge(s), Accept(s)) for s in _SEATS]
PLAYS_AND_PASS: Final = [[plays + (PASS[seat],) for plays in PLAYS[seat]] for seat in _SEATS]  # after a draw
CATCH: Final = [[Catch(s, t) for t in _SEATS] for s in _SEATS]

# seat -> top card * 8 + colour in force -> card id -> the Play actions of that card for that seat if it
# may be played on that top card in a normal turn, else () (each table built when first needed, and shared
# by the top cards of the same face)
MATCHING: Final[list[list[list[tuple[Play, ...]] | None]]] = [[None] * (C.CARD_COUNT * 8) for _ in _SEATS]
_TABLES: Final[dict[tuple[int, int, int], list[tuple[Play, ...]]]] = {}


def matching(seat: int, top: int, colour: int) -> list[tuple[Play, ...]]:
    """`MATCHING[seat][top * 8 + colour]`, built."""
    face = FACE[top]
    table = _TABLES.get((seat, colour, face))
    if table is None:
        plays = PLAYS[seat]
        table = _TABLES[(seat, colour, face)] = [
            plays[card] if IS_WILD[card] or COLOUR[card] == colour or FACE[card] == face >= 0 else ()
            for card in range(C.CARD_COUNT)]
    MATCHING[seat][top * 8 + colour] = table
    return table


def turn_moves(state: HandState, seat: int, hand: list[int], rules: RuleSet) -> tuple[Action, ...]:
    """The moves of a normal turn (no draw total pending) when the Wild Draw 4 restriction is not enforced:
    the hot path of every simulation."""
    top = state.discard[-1]
    table = MATCHING[seat][top * 8 + state.colour] or matching(seat, top, state.colour)
    return turn_moves_from(table, state, seat, hand, rules)


def turn_moves_from(table: list[tuple[Play, ...]], state: HandState, seat: int, hand: list[int],
                    rules: RuleSet) -> tuple[Action, ...]:
    """`turn_moves` with the matching plays of the card on top (`table`, by card) already looked up."""
    out: list[Action] = []
    cards = []  # the matching cards so far: identical copies in the hand are listed once
    for card in hand:
        plays = table[card]
        if plays:
            if card in cards:
                continue
            cards.append(card)
            out += plays
    if not out or (rules.reneging and (state.pile or len(state.discard) > 1)):
        out.append(DRAW[seat])
    if len(hand) == 2 and rules.uno_call and not state.uno[seat]:
        out.append(CALL_UNO[seat])
    window = state.uno_window
    if window >= 0:
        out.append(CALL_UNO[seat] if window == seat else CATCH[seat][window])
    return tuple(out)


def legal_actions(state: HandState, seat: int) -> list[Action]:
    """Every action `seat` may take now; each succeeds in `apply`, and every other action raises."""
    if seat == state.turn:
        return list(legal_moves(state))
    if state.phase == OVER:
        return []
    window = state.uno_window
    out: list[Action]
    if window < 0:
        out = []
    elif window == seat:
        out = [CALL_UNO[seat]]
    else:
        out = [CATCH[seat][window]]
    state.offered = tuple(out)
    return out


def legal_moves(state: HandState) -> tuple[Action, ...]:
    """`legal_actions` of the seat on turn, in the same order, as a tuple (what `step` indexes into); ()
    once the hand is over. Tuples are shared between states and hands: never rely on their identity."""
    seat = state.turn
    hand = state.hands[seat]
    rules = state.rules
    if not state.phase and not state.pending and (rules.challenge or rules.wd4_restriction == "none"):
        moves = turn_moves(state, seat, hand, rules)
    else:
        moves = other_moves(state, seat, hand, rules)
    state.offered = moves
    return moves


def other_moves(state: HandState, seat: int, hand: list[int], rules: RuleSet) -> tuple[Action, ...]:
    """The moves of the seat on turn outside `turn_moves`' normal turn."""
    phase = state.phase
    if phase == OVER:
        return ()
    out: list[Action]
    if phase == AFTER_DRAW:
        if state.uno_window < 0 and (len(hand) != 2 or not rules.uno_call or state.uno[seat]):
            return (PLAYS_AND_PASS if rules.pass_after_draw else PLAYS)[seat][state.drawn]
        out = [*PLAYS[seat][state.drawn]]
        if rules.pass_after_draw:
            out.append(PASS[seat])
    elif phase == CHALLENGE:
        if state.uno_window < 0:
            return CHALLENGE_OR_ACCEPT[seat]
        out = [*CHALLENGE_OR_ACCEPT[seat]]
    elif phase == CHOOSE_COLOUR:
        out = [ChooseColour(seat, COLOUR_CODES[c]) for c in rules.colours]
    elif not state.pending:  # a normal turn, the Wild Draw 4 restriction enforced
        out = _enforced_plays(state, seat, hand)
        if not out or (rules.reneging and (state.pile or len(state.discard) > 1)):
            out.append(DRAW[seat])
    else:  # a draw total is pending
        out = []
        plays = PLAYS[seat]
        for card in dict.fromkeys(hand):
            if can_stack(state, card):
                if KIND[card] == C.WILD_DRAW4 and wd4_enforced(state) and wd4_guilty(state, hand, card):
                    continue
                out += plays[card]
        out.append(DRAW[seat])
    if phase <= AFTER_DRAW and len(hand) == 2 and rules.uno_call and not state.uno[seat]:
        out.append(CALL_UNO[seat])
    window = state.uno_window
    if window >= 0:
        out.append(CALL_UNO[seat] if window == seat else CATCH[seat][window])
    return tuple(out)


def _enforced_plays(state: HandState, seat: int, hand: list[int]) -> list[Action]:
    """The normal turn's plays when the engine enforces the Wild Draw 4 restriction (no challenge)."""
    out: list[Action] = []
    colour = state.colour
    top_face = FACE[state.discard[-1]]
    plays = PLAYS[seat]
    for card in dict.fromkeys(hand):
        if IS_WILD[card] or COLOUR[card] == colour or FACE[card] == top_face >= 0:
            if KIND[card] == C.WILD_DRAW4 and wd4_guilty(state, hand, card):
                continue
            out += plays[card]
    return out


def can_act(state: HandState, seat: int) -> bool:
    """Cheaper than `bool(legal_actions(...))` for seats that are not on turn."""
    return state.phase != OVER and (seat == state.turn or state.uno_window >= 0)


__all__ = ["legal_actions", "legal_moves", "can_act", "has_playable"]
