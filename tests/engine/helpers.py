"""Shared helpers for the engine's tests: explicit decks, a first-legal-action game loop."""

from __future__ import annotations

from games.engine import (
    Game,
    HandState,
    RuleSet,
    arrange_deck,
    get_preset,
    legal_actions,
    new_hand,
)


def deal(preset: str | RuleSet, hands: list[list[str]], turn_up: list[str], draws: list[str] = (),
         dealer: int = 0, **overrides) -> HandState:
    """A hand from an explicit deck: `hands[s]` are seat s's cards (hand_size is set to fit them)."""
    rules = get_preset(preset) if isinstance(preset, str) else preset
    size = max(len(h) for h in hands)
    rules = rules.with_overrides(hand_size=size, **overrides)
    deck = arrange_deck(rules, len(hands), hands, turn_up, draws)
    return new_hand(rules, len(hands), deck=deck, dealer=dealer)


def play_game(rules: RuleSet, seats: int, seed: int, max_steps: int = 200_000) -> Game:
    """Play a whole game taking the first legal action of the seat on turn."""
    game, _ = Game.start(rules, seats, seed)
    steps = 0
    while not game.over:
        hand = game.hand
        if hand.over:
            game.next_hand()
            continue
        game.apply(legal_actions(hand, hand.turn)[0])
        steps += 1
        assert steps < max_steps, "the game did not finish"
    return game
