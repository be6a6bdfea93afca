"""What each seat (and a spectator) may see: JSON-safe dicts with no hidden card, seed, pile order or
generator state.

A view is built at every decision of a bot, a simulation or the arena and for every seat a live change
is sent to, so it is built for speed: a copy of a template holding every key in its order (copying a
dict of twenty keys costs a sixth of building it from a display), then each value written in, with no
helper per field. Every view is a new dict with new lists and dicts inside (a bot may change what it was
given); only strings, numbers and None are shared.
"""

from __future__ import annotations

from typing import Any

from .actions import Play
from .cards import CODE, COLOUR_CODES
from .legal import legal_actions
from .state import PHASE_NAMES, HandState

_code = CODE.__getitem__
_COLOUR = (*COLOUR_CODES, None)  # by colour id; -1 (none yet) is the last
_DIRECTION = (None, "left", "right")  # by direction: +1 left, -1 right

# The keys in the order a view lists them, each template's values None: the defaults of the fields
# that are None unless something is going on (a pending draw total, a challenge, a UNO window...).
_TABLE_KEYS = ("preset", "players", "top", "colour", "direction", "turn", "dealer", "phase", "pending",
               "pending_from", "shield_reflected", "challengeable_from", "catchable", "draw_pile",
               "discard_pile", "winner", "blocked")
_SEAT_KEYS = ("seat", "hand", "drawn", "legal_actions", "reveals")
_SPECTATOR = dict.fromkeys(_TABLE_KEYS)
_SEAT = dict.fromkeys(_TABLE_KEYS + _SEAT_KEYS)
_PARTNER = dict.fromkeys(_TABLE_KEYS + _SEAT_KEYS + ("partner",))
_PARTNER_HAND = dict.fromkeys(_TABLE_KEYS + _SEAT_KEYS + ("partner", "partner_hand"))


def _table(state: HandState, template: dict[str, Any]) -> dict[str, Any]:
    """A copy of `template` with the public table facts written in."""
    view = template.copy()
    uno = state.uno
    players = []
    seat = 0
    if state.rules.partners:
        for hand in state.hands:
            players.append({"seat": seat, "cards": len(hand), "uno": uno[seat], "team": seat % 2})
            seat += 1
    else:
        for hand in state.hands:  # a plain loop: cheaper than a comprehension over enumerate(zip(...))
            players.append({"seat": seat, "cards": len(hand), "uno": uno[seat]})
            seat += 1
    view["preset"] = state.rules.preset
    view["players"] = players
    view["top"] = CODE[state.discard[-1]]
    view["colour"] = _COLOUR[state.colour]
    view["direction"] = _DIRECTION[state.direction]
    view["turn"] = state.turn
    view["dealer"] = state.dealer
    view["phase"] = PHASE_NAMES[state.phase]
    view["pending"] = state.pending
    if state.pending_from >= 0:
        view["pending_from"] = state.pending_from
    view["shield_reflected"] = state.resume_after >= 0
    if state.wd4_from >= 0:
        view["challengeable_from"] = state.wd4_from
    if state.uno_window >= 0:
        view["catchable"] = state.uno_window
    view["draw_pile"] = len(state.pile)
    view["discard_pile"] = len(state.discard)
    if state.winner >= 0:
        view["winner"] = state.winner
    view["blocked"] = state.blocked
    return view


def view_for(state: HandState, seat: int) -> dict[str, Any]:
    """The view of one seat: its cards, public table facts, its legal actions and reveals meant for it."""
    rules = state.rules
    if rules.partners:
        view = _table(state, _PARTNER_HAND if rules.partners_see_hands else _PARTNER)
    else:
        view = _table(state, _SEAT)
    view["seat"] = seat
    view["hand"] = list(map(_code, state.hands[seat]))
    if state.drawn >= 0 and seat == state.turn:
        view["drawn"] = CODE[state.drawn]
    legal = []
    for action in legal_actions(state, seat):
        if action.__class__ is Play:  # the commonest, written out: a method call costs as much as the dict
            legal.append({"type": "play", "seat": action.seat, "card": action.card, "colour": action.colour})
        else:
            legal.append(action.to_dict())
    view["legal_actions"] = legal
    reveals = state.reveals
    view["reveals"] = [{"of": of, "cards": list(map(_code, cards)), "reason": why}
                       for to, of, cards, why in reveals if to == seat] if reveals else []
    if rules.partners:
        partner = view["partner"] = (seat + 2) % 4
        if rules.partners_see_hands:
            view["partner_hand"] = list(map(_code, state.hands[partner]))
    return view


def spectator_view(state: HandState) -> dict[str, Any]:
    """The public view: counts only, no card anyone holds."""
    return _table(state, _SPECTATOR)
