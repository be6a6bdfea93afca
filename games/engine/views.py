"""What each seat (and a spectator) may see: JSON-safe dicts with no hidden card, seed, pile order or
generator state."""

from __future__ import annotations

from typing import Any

from .cards import CODE, COLOUR_CODES
from .legal import legal_actions
from .state import PHASE_NAMES, HandState


def _table(state: HandState) -> dict[str, Any]:
    rules = state.rules
    players = []
    for seat, hand in enumerate(state.hands):
        p: dict[str, Any] = {"seat": seat, "cards": len(hand), "uno": state.uno[seat]}
        if rules.partners:
            p["team"] = seat % 2
        players.append(p)
    top = state.discard[-1]
    return {
        "preset": rules.preset,
        "players": players,
        "top": CODE[top],
        "colour": COLOUR_CODES[state.colour] if state.colour >= 0 else None,
        "direction": "left" if state.direction > 0 else "right",
        "turn": state.turn,
        "dealer": state.dealer,
        "phase": PHASE_NAMES[state.phase],
        "pending": state.pending,
        "pending_from": state.pending_from if state.pending_from >= 0 else None,
        "shield_reflected": state.resume_after >= 0,
        "challengeable_from": state.wd4_from if state.wd4_from >= 0 else None,
        "catchable": state.uno_window if state.uno_window >= 0 else None,
        "draw_pile": len(state.pile),
        "discard_pile": len(state.discard),
        "winner": state.winner if state.winner >= 0 else None,
        "blocked": state.blocked,
    }


def view_for(state: HandState, seat: int) -> dict[str, Any]:
    """The view of one seat: its cards, public table facts, its legal actions and reveals meant for it."""
    view = _table(state)
    view["seat"] = seat
    view["hand"] = [CODE[c] for c in state.hands[seat]]
    view["drawn"] = CODE[state.drawn] if state.drawn >= 0 and seat == state.turn else None
    view["legal_actions"] = [a.to_dict() for a in legal_actions(state, seat)]
    view["reveals"] = [{"of": of, "cards": [CODE[c] for c in cards], "reason": why}
                       for to, of, cards, why in state.reveals if to == seat]
    rules = state.rules
    if rules.partners:
        partner = (seat + 2) % 4
        view["partner"] = partner
        if rules.partners_see_hands:
            view["partner_hand"] = [CODE[c] for c in state.hands[partner]]
    return view


def spectator_view(state: HandState) -> dict[str, Any]:
    """The public view: counts only, no card anyone holds."""
    return _table(state)
