"""Checks every handler makes before it changes anything, and the messages an `IllegalAction` carries
(whose turn, which phase, which colour, what the top card asks for)."""

from __future__ import annotations

from . import cards as C
from .cards import CARD_ID, CODE, COLOUR_CODES, COLOUR_ID, FACE, KIND
from .errors import IllegalAction
from .state import AFTER_DRAW, CHALLENGE, CHOOSE_COLOUR, HandState


def _colour_name(colour: int) -> str:
    return C.COLOUR_NAMES[colour]


def _face_name(card: int) -> str:
    kind = KIND[card]
    if FACE[card] < 0:
        return ""
    if kind == C.NUMBER:
        return CODE[card][1:] if card < CARD_ID["AS"] else CODE[card][:-1]
    if card >= CARD_ID["AS"]:
        return {C.REVERSE: "an Ace", C.DRAW2: "a 2"}.get(kind, CODE[card][:-1])
    return {C.SKIP: "a Skip", C.REVERSE: "a Reverse", C.DRAW2: "a Draw 2", C.BLANK: "a blank card",
            C.DEAD_RED: "a Dead Red", C.BOO_BLUE: "a Boo Blue"}[kind]


def must_match_message(state: HandState) -> str:
    top = state.discard[-1]
    face = _face_name(top)
    if face and KIND[top] == C.NUMBER:
        face = f"a {face}"
    colour = _colour_name(state.colour)
    what = f"a {colour} card" + (f" or {face}" if face else "") + " or a wild"
    if state.rules.deck == "cards":
        what = f"a card of {colour}" + (f" or {face}" if face else "") + " or a wild"
    return f"you must play {what}, or draw"


def pending_message(state: HandState) -> str:
    n = state.pending
    if state.resume_after >= 0:
        return f"you must draw {n} cards or send them back with a Shield"
    options = []
    if state.rules.stacking != "off":
        options.append("a Draw 2" if state.rules.deck != "cards" else "a 2")
    if state.rules.stacking == "draw2_draw4":
        options.append("a Wild Draw 4")
    if state.rules.deck == "plato":
        options.append("a Shield")
    hint = f", or answer with {' or '.join(options)}" if options else ""
    return f"you must draw {n} cards{hint}"


def check_turn(state: HandState, seat: int) -> None:
    if seat != state.turn:
        raise IllegalAction("it is not your turn")


def check_phase(state: HandState, *allowed: int) -> None:
    phase = state.phase
    if phase in allowed:
        return
    if phase == CHOOSE_COLOUR:
        raise IllegalAction("choose the starting colour first")
    if phase == CHALLENGE:
        raise IllegalAction("challenge the Wild Draw 4 or accept it first")
    if phase == AFTER_DRAW:
        if state.rules.pass_after_draw:
            raise IllegalAction(f"you may only play the card you just drew ({CODE[state.drawn]}), or pass")
        raise IllegalAction(f"you must play the card you just drew ({CODE[state.drawn]})")
    raise IllegalAction("you cannot do that now")


def parse_colour(state: HandState, letter: str | None, card_code: str) -> int:
    col = COLOUR_ID.get(letter) if isinstance(letter, str) else None
    if col is None or col not in state.rules.colours:
        options = ", ".join(COLOUR_CODES[c] for c in state.rules.colours)
        if letter is None:
            raise IllegalAction(f"choose a colour for {card_code}: one of {options}")
        raise IllegalAction(f"{letter!r} is not a colour in this game: choose one of {options}")
    return col
