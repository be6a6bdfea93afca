"""Deck compositions per card family, and a helper that arranges an explicit deck order for tests."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING

from . import cards as C
from .errors import RuleError

if TYPE_CHECKING:
    from .rules import RuleSet


def _uno(blank: bool) -> list[int]:
    # 108 cards: per colour one 0, two each of 1-9, Skip, Reverse, Draw 2; four Wild, four Wild Draw 4.
    out = []
    for col in "RYGB":
        out.append(C.CARD_ID[f"{col}0"])
        for code in [*(f"{col}{n}" for n in range(1, 10)), f"{col}S", f"{col}R", f"{col}D2"]:
            out += [C.CARD_ID[code]] * 2
        if blank:
            out.append(C.CARD_ID[f"{col}BL"])
    out += [C.CARD_ID["W"]] * 4 + [C.CARD_ID["WD4"]] * 4
    return out


def _plato() -> list[int]:
    # UNO's coloured cards without the numbered 8s (the eight Ocho wilds replace them), four Wild Draw 4,
    # four Shields, four X-Rays, two Dead Reds, two Boo Blues: 116 cards (see docs/rules.md).
    out = []
    for col in "RYGB":
        out.append(C.CARD_ID[f"{col}0"])
        for code in [*(f"{col}{n}" for n in (1, 2, 3, 4, 5, 6, 7, 9)), f"{col}S", f"{col}R", f"{col}D2"]:
            out += [C.CARD_ID[code]] * 2
    for code, count in (("O8", 8), ("WD4", 4), ("SH", 4), ("XR", 4), ("DR", 2), ("BB", 2)):
        out += [C.CARD_ID[code]] * count
    return out


def _playing(jokers: int) -> list[int]:
    out = [C.CARD_ID[f"{r}{s}"] for s in "SHDC" for r in C.RANK_CODES]
    return out + [C.CARD_ID["JK"]] * jokers


@lru_cache(maxsize=64)
def _deck(family: str, decks: int, jokers: int, blank: bool) -> tuple[int, ...]:
    base = {"uno": lambda: _uno(blank), "plato": _plato, "cards": lambda: _playing(jokers)}[family]()
    return tuple(base * decks)


def deck_cards(rules: RuleSet) -> tuple[int, ...]:
    """The card ids of a full deck for these rules, in a fixed canonical order."""
    return _deck(rules.deck, rules.decks, rules.jokers, rules.blank_cards)


def deck_codes(rules: RuleSet) -> list[str]:
    return [C.CODE[c] for c in deck_cards(rules)]


def arrange_deck(rules: RuleSet, seats: int, hands: list[list[str]] | None = None, turn_up: Sequence[str] = (),
                 draws: Sequence[str] = ()) -> list[str]:
    """An explicit deck order (top first) that deals the given hands, turns up `turn_up` (the first card,
    then any that get returned), and has `draws` next on the draw pile.

    Hands are dealt in blocks: seat 0 gets the first `hand_size` cards, seat 1 the next, and so on.
    Missing hand cards and the rest of the pile come from the unused cards in canonical deck order.
    """
    pool = list(deck_codes(rules))

    def take(code: str) -> str:
        try:
            pool.remove(code)
        except ValueError:
            raise RuleError(f"the deck has no more {code} cards") from None
        return code

    hands = hands or []
    chosen = [[take(c) for c in h] for h in hands]
    top = [take(c) for c in turn_up]
    nxt = [take(c) for c in draws]
    order: list[str] = []
    for seat in range(seats):
        h = chosen[seat] if seat < len(chosen) else []
        if len(h) > rules.hand_size:
            raise RuleError(f"seat {seat} is given more than {rules.hand_size} cards")
        while len(h) < rules.hand_size:
            h.append(pool.pop(0))
        order += h
    return order + top + nxt + pool
