"""`situation`: a hand in an exact position (hands, top card, colour, draw pile, turn), for tests, puzzles
and bots, without dealing one and playing up to it.

The state is an ordinary `HandState`: every card of the rules' deck is in exactly one place (the given hands,
the discard pile, the draw pile with `draws` on top and the unused cards below in the deck's canonical
order), so `legal_actions`, `apply`, `view_for` and the rest work on it as on a dealt hand.
"""

from __future__ import annotations

from collections.abc import Sequence

from .cards import CARD_ID, COLOUR, COLOUR_CODES, COLOUR_ID, IS_WILD
from .deal import _generator
from .decks import deck_cards
from .errors import RuleError
from .presets import get_preset
from .rules import RuleSet
from .state import PLAY, HandState, plain_rules


def situation(rules: RuleSet | str, hands: Sequence[Sequence[str]], top: str, *, turn: int = 0,
              colour: str | None = None, draws: Sequence[str] = (), discard: Sequence[str] = (),
              direction: int = 1, dealer: int | None = None, pending: int = 0, pending_from: int = -1,
              seed: int = 0) -> HandState:
    """A hand where seat s holds exactly `hands[s]` (card codes), `top` is face up on `discard` (older
    cards, bottom first), `colour` is in force (default: the top card's; required for a wild top), `draws`
    are the next cards drawn (first drawn first) and `turn` is to play in the play phase.

    `direction` is +1 (seat numbers increase) or -1; `dealer` defaults to the seat before `turn`. `pending`
    draw cards (stacking presets) wait for `turn`, sent by `pending_from`. `seed` seeds the hand's
    generator (reshuffles, X-Ray picks). `RuleError` if a card is unknown or the deck has too few of it,
    or the seat count, turn, colour or direction does not fit the rules.
    """
    rules = get_preset(rules) if isinstance(rules, str) else rules
    seats = len(hands)
    rules.check_seats(seats)
    if not 0 <= turn < seats:
        raise RuleError(f"turn must be a seat from 0 to {seats - 1}, not {turn}")
    if direction not in (1, -1):
        raise RuleError(f"direction must be 1 or -1, not {direction}")
    if pending < 0 or (pending and not 0 <= pending_from < seats):
        raise RuleError("a pending draw total needs the seat that sent it (pending_from)")
    pool = list(deck_cards(rules))

    def take(code: str) -> int:
        card = CARD_ID.get(code)
        if card is None:
            raise RuleError(f"there is no card {code!r}")
        try:
            pool.remove(card)
        except ValueError:
            raise RuleError(f"the {rules.preset} deck has no more {code} cards") from None
        return card

    held = [[take(c) for c in h] for h in hands]
    shown = [take(c) for c in discard] + [take(top)]
    upcoming = [take(c) for c in draws]
    top_card = shown[-1]
    if colour is None:
        if IS_WILD[top_card]:
            raise RuleError(f"the top card {top} is wild: say which colour is in force")
        in_force = COLOUR[top_card]
    else:
        in_force = COLOUR_ID.get(colour, -1)
        if in_force not in rules.colours:
            raise RuleError(f"{colour!r} is not a colour in this game: one of "
                            f"{', '.join(COLOUR_CODES[c] for c in rules.colours)}")
    state = HandState()
    state.rules = rules
    state.seats = seats
    state.hands = held
    state.pile = pool[::-1] + upcoming[::-1]  # top at the end: `draws` first, then the rest in deck order
    state.discard = shown
    state.colour = in_force
    state.turn = turn
    state.direction = direction
    state.dealer = (turn - direction) % seats if dealer is None else dealer
    state.phase = PLAY
    state.pending = pending
    state.pending_from = pending_from if pending else -1
    state.resume_after = -1
    state.drawn = -1
    state.uno = [False] * seats
    state.uno_window = -1
    state.wd4_from = -1
    state.wd4_guilty = False
    state.reveals = []
    state.winner = -1
    state.stalled = 0
    state.blocked = False
    state.rng = _generator(seed)
    state.rng_shared = False
    state.offered = None
    state.plain = plain_rules(rules)
    state.quiet = False
    return state
