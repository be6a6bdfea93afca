"""A seeded bot that picks uniformly among its legal actions (and, out of turn, sometimes nothing)."""

from __future__ import annotations

from typing import Any

from .base import Bot, on_turn


class RandomBot(Bot):
    """On its turn: any legal action, uniformly (UNO calls and catches included, as a careless player).
    Out of turn: catches or self-calls UNO half of the time it could."""

    name = "random"

    def act(self, view: dict[str, Any]) -> dict[str, Any] | None:
        legal = view["legal_actions"]
        if not legal:
            return None
        if on_turn(view):
            return legal[self.rng.randrange(len(legal))]
        if self.rng.random() < 0.5:
            return legal[self.rng.randrange(len(legal))]
        return None
