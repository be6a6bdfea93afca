"""`legal_actions`: exactly what a seat may do now, in a stable order (plays first)."""

from __future__ import annotations

from . import cards as C
from .actions import Accept, Action, CallUno, Catch, Challenge, ChooseColour, Draw, Pass, Play
from .cards import CODE, COLOUR, COLOUR_CODES, FACE, IS_WILD, KIND
from .playable import can_stack, has_playable, wd4_enforced, wd4_guilty
from .state import AFTER_DRAW, CHALLENGE, CHOOSE_COLOUR, OVER, PLAY, HandState

# Actions are immutable, so the same instances are handed out again and again (legal-move generation
# is on the hot path of bots and benchmarks).
_PLAYS: dict[tuple[int, int, tuple[int, ...] | None], list[Play]] = {}
_SIMPLE: dict[tuple[type, int], Action] = {}


def _plays(seat: int, card: int, colours: tuple[int, ...]) -> list[Play]:
    key = (seat, card, colours if IS_WILD[card] else None)
    got = _PLAYS.get(key)
    if got is None:
        code = CODE[card]
        if IS_WILD[card]:
            got = [Play(seat, code, COLOUR_CODES[c]) for c in colours]
        else:
            got = [Play(seat, code)]
        _PLAYS[key] = got
    return got


def _simple(cls: type, seat: int) -> Action:
    got = _SIMPLE.get((cls, seat))
    if got is None:
        got = _SIMPLE[(cls, seat)] = cls(seat)
    return got


# The same per seat, as lists indexed by seat for the hot path (tables hold at most 10 seats).
_SEATS = range(16)
_DRAW = [_simple(Draw, s) for s in _SEATS]
_CALL_UNO = [_simple(CallUno, s) for s in _SEATS]
_PASS = [_simple(Pass, s) for s in _SEATS]
_CHALLENGE = [_simple(Challenge, s) for s in _SEATS]
_ACCEPT = [_simple(Accept, s) for s in _SEATS]


def _play_table(seat: int, suits: bool) -> list[list[Play]]:
    """For one seat, UNO colours or suits: card id -> the Play actions of that card (one per colour if wild)."""
    tables = _SUIT_TABLES if suits else _UNO_TABLES
    table = tables[seat]
    if table is None:
        colours = C.SUIT_COLOURS if suits else C.UNO_COLOURS
        table = tables[seat] = [_plays(seat, card, colours) for card in range(C.CARD_COUNT)]
    return table


_UNO_TABLES: list[list[list[Play]] | None] = [None] * len(_SEATS)
_SUIT_TABLES: list[list[list[Play]] | None] = [None] * len(_SEATS)


def _match_table(seat: int, suits: bool, colour: int, top_face: int) -> list[list[Play] | None]:
    """card id -> the Play actions of that card for `seat` on this colour and top card (empty if it does
    not match): the normal turn's test, computed once per seat, colour and top face (see `_MATCHING`)."""
    plays = (_SUIT_TABLES if suits else _UNO_TABLES)[seat] or _play_table(seat, suits)
    return [plays[card] if IS_WILD[card] or COLOUR[card] == colour or FACE[card] == top_face >= 0 else None
            for card in range(C.CARD_COUNT)]


# seat -> [top card * 8 + colour] -> `_match_table` (None until needed); tables shared per (suits, colour,
# top face)
_MATCHING: list[list[list[list[Play] | None] | None]] = [[None] * (C.CARD_COUNT * 8) for _ in _SEATS]
_TABLES: dict[tuple[int, bool, int, int], list[list[Play] | None]] = {}


def _matching(state: HandState, seat: int) -> list[list[Play] | None]:
    colour = state.colour
    top = state.discard[-1]
    suits = state.rules.deck == "cards"
    key = (seat, suits, colour, FACE[top])
    table = _TABLES.get(key)
    if table is None:
        table = _TABLES[key] = _match_table(seat, suits, colour, FACE[top])
    # a top card id belongs to one card family, so it says whether the colours are suits
    _MATCHING[seat][top * 8 + colour] = table
    return table


def legal_actions(state: HandState, seat: int) -> list[Action]:
    """Every action `seat` may take now; each succeeds in `apply`, and every other action raises."""
    if seat == state.turn:
        return legal_moves(state)
    if state.phase == OVER:
        return []
    window = state.uno_window
    if window < 0:
        out = []
    elif window == seat:
        out = [_CALL_UNO[seat]]
    else:
        out = [Catch(seat, window)]
    state.offered = tuple(out)
    return out


def legal_moves(state: HandState) -> list[Action]:
    """`legal_actions` of the seat on turn, in the same order (what `step` indexes into); [] once the hand
    is over."""
    phase = state.phase
    seat = state.turn
    rules = state.rules
    hand = state.hands[seat]
    if phase == PLAY and not state.pending:
        if not rules.challenge and rules.wd4_restriction != "none":
            out = _enforced_plays(state, seat, hand)
        else:
            # the hot path of every simulation: which cards match, by a table for this colour and top card
            table = _MATCHING[seat][state.discard[-1] * 8 + state.colour] or _matching(state, seat)
            out = []
            cards = []  # the matching cards so far: identical copies in the hand are listed once
            for card in hand:
                plays = table[card]
                if plays is not None:
                    if card in cards:
                        continue
                    cards.append(card)
                    out += plays
        if not out or (rules.reneging and (state.pile or len(state.discard) > 1)):
            out.append(_DRAW[seat])
    elif phase == AFTER_DRAW:
        suits = rules.deck == "cards"
        out = [*((_SUIT_TABLES if suits else _UNO_TABLES)[seat] or _play_table(seat, suits))[state.drawn]]
        if rules.pass_after_draw:
            out.append(_PASS[seat])
    elif phase == CHALLENGE:
        out = [_CHALLENGE[seat], _ACCEPT[seat]]
    elif phase == CHOOSE_COLOUR:
        out = [ChooseColour(seat, COLOUR_CODES[c]) for c in rules.colours]
    elif phase == OVER:
        return []
    else:  # a draw total is pending
        out = []
        colours = rules.colours
        for card in dict.fromkeys(hand):
            if can_stack(state, card):
                if KIND[card] == C.WILD_DRAW4 and wd4_enforced(state) and wd4_guilty(state, hand, card):
                    continue
                out += _plays(seat, card, colours)
        out.append(_DRAW[seat])
    if phase <= AFTER_DRAW and len(hand) == 2 and rules.uno_call and not state.uno[seat]:
        out.append(_CALL_UNO[seat])
    window = state.uno_window
    if window >= 0:
        out.append(_CALL_UNO[seat] if window == seat else Catch(seat, window))
    state.offered = tuple(out)
    return out


def _enforced_plays(state: HandState, seat: int, hand: list[int]) -> list[Action]:
    """The normal turn's plays when the engine enforces the Wild Draw 4 restriction (no challenge)."""
    out: list[Action] = []
    colour = state.colour
    top_face = FACE[state.discard[-1]]
    suits = state.rules.deck == "cards"
    table = (_SUIT_TABLES if suits else _UNO_TABLES)[seat] or _play_table(seat, suits)
    for card in dict.fromkeys(hand):
        if IS_WILD[card] or COLOUR[card] == colour or FACE[card] == top_face >= 0:
            if KIND[card] == C.WILD_DRAW4 and wd4_guilty(state, hand, card):
                continue
            out += table[card]
    return out


def can_act(state: HandState, seat: int) -> bool:
    """Cheaper than `bool(legal_actions(...))` for seats that are not on turn."""
    return state.phase != OVER and (seat == state.turn or state.uno_window >= 0)


__all__ = ["legal_actions", "legal_moves", "can_act", "has_playable"]
