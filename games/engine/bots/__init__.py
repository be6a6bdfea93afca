"""Bots: players that see only a seat's view (`engine.view_for(state, seat)`) and answer with one of the
action dicts listed in `view["legal_actions"]`, or None to let the moment pass when it is not their turn.

They fill empty seats, give students practice games and drive load tests, so they are fast and
deterministic: the same seed and the same views give the same answers.

    bot = get_bot("heuristic", seed=7)
    action = bot.act(engine.view_for(state, seat))   # a dict such as {"type": "play", "seat": 1, ...}
"""

from __future__ import annotations

from .base import Bot
from .heuristic import HeuristicBot
from .random_bot import RandomBot

BOTS: dict[str, type[Bot]] = {"random": RandomBot, "heuristic": HeuristicBot}


def get_bot(name: str, seed: int = 0) -> Bot:
    """A new bot by name ("random" or "heuristic"); `ValueError` naming the bots for an unknown one."""
    try:
        cls = BOTS[name]
    except KeyError:
        raise ValueError(f"unknown bot '{name}'; the bots are: {', '.join(BOTS)}") from None
    return cls(seed)


__all__ = ["BOTS", "Bot", "HeuristicBot", "RandomBot", "get_bot"]
