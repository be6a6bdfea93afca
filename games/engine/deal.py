"""Starting a hand: choosing the dealer, shuffling or taking an explicit deck order, dealing, and the
first-card rules. `HandSetup` records everything a hand is determined by, for `replay`."""

from __future__ import annotations

import _random
import random
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Final

from . import cards as C
from .actions import Action, action_from_dict
from .cards import CARD_ID, CODE, COLOUR, IS_WILD, KIND, POINTS
from .decks import deck_cards
from .drawing import draw_cards, seen_by
from .errors import RuleError
from .events import TableEvent
from .rules import RuleSet
from .shuffle import shuffle
from .state import CHOOSE_COLOUR, PLAY, HandState, plain_rules


def _choose_dealer(rules: RuleSet, seats: int, rng: random.Random, events: list[TableEvent] | None) -> int:
    """001: "Each player draws a card. Player with the highest point value is the dealer." Ties draw again.

    `events` None: the same draws, without the dealer_draw events (`new_hand`)."""
    full = deck_cards(rules)
    candidates = list(range(seats))
    points = rules.card_points
    blank = rules.blank_cards
    while True:
        drawn = _sample(rng, full, len(candidates))
        values = [points(c) for c in drawn] if blank else [POINTS[c] for c in drawn]  # no blank: the table
        best = max(values)
        if events is not None:
            events.append(TableEvent("dealer_draw", {"draws": [[s, CODE[c]] for s, c in zip(candidates, drawn,
                                                                                         strict=True)]}))
        if values.count(best) == 1:
            return candidates[values.index(best)]
        candidates = [s for s, v in zip(candidates, values, strict=True) if v == best]


def _sample(rng: random.Random, population: tuple[int, ...], k: int) -> list[int]:
    """`rng.sample(population, k)` with its draws inlined for a few cards from a full deck (CPython 3.11's
    set-based selection, which it uses there): the same cards and the same generator state (tested)."""
    n = len(population)
    if k > 5 or n <= 21:
        return rng.sample(population, k)
    getrandbits = rng.getrandbits
    bits = n.bit_length()
    result = []
    selected: set[int] = set()
    for _ in range(k):
        j = getrandbits(bits)
        while j >= n:
            j = getrandbits(bits)
        while j in selected:
            j = getrandbits(bits)
            while j >= n:
                j = getrandbits(bits)
        selected.add(j)
        result.append(population[j])
    return result


_Random: Final = random.Random
_seed: Final = _random.Random.seed


def _generator(seed: Any) -> random.Random:
    """`random.Random(seed)`, built in one seeding instead of two for an int seed (`Random(seed)` seeds in
    its `__new__` and again in `__init__`): the same generator state, checked in tests/engine/test_rules.py."""
    if type(seed) is not int:
        return _Random(seed)
    rng = _Random.__new__(_Random)
    _seed(rng, seed)
    rng.gauss_next = None  # type: ignore[attr-defined]
    return rng


def _deck_order(rules: RuleSet, deck: Iterable[str]) -> list[int]:
    codes = list(deck)
    unknown = [c for c in codes if c not in CARD_ID]
    if unknown:
        raise RuleError(f"unknown card code(s) in the deck order: {', '.join(unknown[:5])}")
    given = Counter(codes)
    wanted = Counter(CODE[c] for c in deck_cards(rules))
    if given != wanted:
        missing = wanted - given
        extra = given - wanted
        parts = []
        if missing:
            parts.append(f"missing {', '.join(sorted(missing.elements()))[:200]}")
        if extra:
            parts.append(f"not in this deck {', '.join(sorted(extra.elements()))[:200]}")
        raise RuleError(f"the deck order must hold exactly the cards of a {rules.preset} deck: {'; '.join(parts)}")
    return [CARD_ID[c] for c in reversed(codes)]  # internal piles keep their top at the end


def start_hand(rules: RuleSet, seats: int, *, seed: int | None = None, deck: list[str] | None = None,
               dealer: int | None = None) -> tuple[HandState, list[TableEvent]]:
    """Deal a hand and return it with the opening events (dealer draw, deal, first card and its effect).

    The hand is determined by (rules, seats, seed) or by (rules, seats, deck, dealer[, seed]). `deck` lists
    card codes top of the draw pile first; hands are dealt in blocks (seat 0 takes the first `hand_size`
    cards, then seat 1, ...), and the next card is turned up. Without `dealer`, the seats draw for it.
    """
    events: list[TableEvent] = []
    return _deal(rules, seats, seed, deck, dealer, events), events


def new_hand(rules: RuleSet, seats: int, *, seed: int | None = None, deck: list[str] | None = None,
             dealer: int | None = None) -> HandState:
    """`start_hand` without the opening events (the same hand; the events are not even built)."""
    return _deal(rules, seats, seed, deck, dealer, None)


def _deal(rules: RuleSet, seats: int, seed: int | None, deck: list[str] | None, dealer: int | None,
          events: list[TableEvent] | None) -> HandState:
    rules.check_seats(seats)
    if seed is None:
        if deck is None:
            raise RuleError("a hand needs a seed or an explicit deck order")
        seed = 0
    rng = _generator(seed)
    if dealer is None:
        dealer = _choose_dealer(rules, seats, rng, events)
    elif not (isinstance(dealer, int) and 0 <= dealer < seats):
        raise RuleError(f"the dealer must be a seat from 0 to {seats - 1}, not {dealer!r}")
    if deck is None:
        order = list(deck_cards(rules))
        shuffle(rng, order)
    else:
        order = _deck_order(rules, deck)

    state = HandState()
    state.rules = rules
    state.seats = seats
    size = rules.hand_size
    hands = []
    for _ in range(seats):
        hand = order[-size:]
        hand.reverse()
        del order[-size:]
        hands.append(hand)
    state.hands = hands
    state.pile = order
    state.discard = []
    state.colour = -1
    state.direction = 1
    state.dealer = dealer
    state.phase = PLAY
    state.pending = 0
    state.pending_from = -1
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
    state.rng = rng
    state.rng_shared = False
    state.offered = None
    state.plain = plain_rules(rules)
    if events is None:
        # quiet: the first card's effects are applied the same way, their events thrown away
        state.quiet = True
        _turn_up(state, None)
        state.quiet = False
        return state
    state.quiet = False
    events.append(TableEvent("hand_started", {"seats": seats, "dealer": dealer, "hand_size": size}))
    for seat in range(seats):
        events.append(TableEvent("dealt", {"seat": seat, "count": size}, {"cards": [CODE[c] for c in hands[seat]]},
                            seen_by(state, seat)))
    _turn_up(state, events)
    return state


def _turn_up(state: HandState, events: list[TableEvent] | None) -> None:
    """The first card and its effect; `events` None: the same without events (`new_hand`)."""
    rules = state.rules
    pile = state.pile
    for _ in range(len(pile)):
        card = pile.pop()
        kind = KIND[card]
        if kind == C.WILD_DRAW4:
            how = rules.first_card_wd4
        elif IS_WILD[card] and rules.first_card_wild == "return":
            how = "return"
        else:
            break
        if events is not None:
            events.append(TableEvent("first_card_returned", {"card": CODE[card], "how": how}))
        if how == "return":
            pile.insert(0, card)  # bottom of the draw pile
        else:
            pile.append(card)
            shuffle(state.own_rng(), pile)
    state.discard.append(card)
    n = state.seats
    dealer = state.dealer
    first = (dealer + 1) % n
    state.turn = first
    state.colour = COLOUR[card]
    if events is None:
        events = []  # the rarer first cards below still report into a list, thrown away
    else:
        events.append(TableEvent("first_card", {"card": CODE[card]}))
    if IS_WILD[card]:
        state.phase = CHOOSE_COLOUR  # 001: "the person to the left of the dealer chooses the color"
    elif kind == C.SKIP:
        events.append(TableEvent("skipped", {"seat": first}))
        state.turn = (first + 1) % n
    elif kind == C.REVERSE:
        state.direction = -1
        events.append(TableEvent("reversed", {"seat": None, "direction": "right"}))
        state.turn = (dealer - 1) % n if rules.first_card_reverse == "dealer_right_first" else dealer
    elif kind == C.DRAW2:
        draw_cards(state, first, 2, "first_card", events)
        if rules.first_card_draw2 == "draw_and_skip":
            events.append(TableEvent("skipped", {"seat": first}))
            state.turn = (first + 1) % n
    state.phase = CHOOSE_COLOUR if IS_WILD[card] else PLAY


@dataclass(frozen=True)
class HandSetup:
    """Everything a hand is determined by; with its action log it replays to the identical state."""

    rules: RuleSet
    seats: int
    seed: int | None = None
    deck: tuple[str, ...] | None = None
    dealer: int | None = None

    def start(self) -> tuple[HandState, list[TableEvent]]:
        return start_hand(self.rules, self.seats, seed=self.seed,
                          deck=None if self.deck is None else list(self.deck), dealer=self.dealer)

    def to_dict(self) -> dict[str, Any]:
        return {"rules": self.rules.to_dict(), "seats": self.seats, "seed": self.seed,
                "deck": None if self.deck is None else list(self.deck), "dealer": self.dealer}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> HandSetup:
        deck = d.get("deck")
        return cls(RuleSet.from_dict(d["rules"]), d["seats"], d.get("seed"),
                   None if deck is None else tuple(deck), d.get("dealer"))


def replay(setup: HandSetup | dict[str, Any], actions: Iterable[Action | dict[str, Any]]) -> HandState:
    """Deal the hand again and apply the logged actions (objects or dicts) in order."""
    from .dispatch import apply

    if isinstance(setup, dict):
        setup = HandSetup.from_dict(setup)
    state = setup.start()[0]
    for action in actions:
        apply(state, action if isinstance(action, Action) else action_from_dict(action))
    return state
