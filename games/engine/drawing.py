"""Taking cards from the draw pile, refilling it from the discard pile when it runs out."""

from __future__ import annotations

from typing import Final

from .cards import CODE
from .events import TableEvent
from .shuffle import shuffle
from .state import HandState


def refill(state: HandState, events: list[TableEvent]) -> bool:
    """Shuffle the discard pile (all but its top card) into an empty draw pile; False if nothing to take."""
    discard = state.discard
    if len(discard) <= 1:
        return False
    pile = discard[:-1]
    del discard[:-1]
    shuffle(state.own_rng(), pile)
    state.pile = pile
    events.append(TableEvent("reshuffled", {"count": len(pile)}))
    return True


def seen_by(state: HandState, seat: int) -> frozenset[int]:
    """Who may see `seat`'s cards: the seat, and its partner where partners see each other's hands."""
    if state.rules.partners_see_hands:
        return _WITH_PARTNER[seat]
    return _ALONE[seat]


_ALONE: Final = [frozenset((seat,)) for seat in range(16)]
_WITH_PARTNER: Final = [frozenset((seat, (seat + 2) % 4)) for seat in range(16)]


def draw_cards(state: HandState, seat: int, count: int, reason: str, events: list[TableEvent]) -> list[int]:
    """Move up to `count` cards from the pile to `seat`'s hand (fewer if pile and discard run dry)."""
    pile = state.pile
    got: list[int] = []
    for _ in range(count):
        if not pile:
            if not refill(state, events):
                break
            pile = state.pile
        got.append(pile.pop())
    hand = state.hands[seat]
    hand += got
    if state.uno[seat] and (state.rules.uno_recall or len(hand) >= 3):
        state.uno[seat] = False
    if state.quiet:
        return got
    events.append(TableEvent("drew", {"seat": seat, "count": len(got), "reason": reason},
                        {"cards": [CODE[c] for c in got]}, seen_by(state, seat)))
    return got


def can_draw(state: HandState) -> bool:
    return bool(state.pile) or len(state.discard) > 1
