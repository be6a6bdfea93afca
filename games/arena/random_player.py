"""The arena's built-in `random` bot: the engine benchmark's random player (`bench/engine.py`).

On its turn it calls UNO when its moves offer it, else plays a card chosen uniformly among those it may
play (a wild once per colour, as listed), else picks uniformly among the rest (draw, pass, accept or
challenge, a colour, a catch); off its turn it does nothing. It never reads a view: it picks among
`engine.legal_moves(hand)`, the moves of its seat on turn, which depend only on its own hand and what
every player sees, and the arena makes the move by position (`Game.step`). So a table of random bots plays
at nearly the engine's own pace, and a seat of it costs a student's module nothing.

Seeded per game and seat, it makes the same moves again for the same seed.
"""

from __future__ import annotations

import random

from games.engine import Action
from games.engine.actions import CallUno, Draw, Pass, Play


class RandomPlayer:
    """One seat's random player for one game: `pick(moves)` is the position of its move in `moves`
    (`legal_moves(hand)` of its seat on turn, plays first)."""

    name = "random"

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self.bits = random.Random(seed).getrandbits

    def pick(self, moves: tuple[Action, ...]) -> int:
        """As the benchmark's loop picks (`bench/engine.py`): a uniform pick among the plays (32 random
        bits scaled to their count, what `random.choice` does without its slower `_randbelow`), else the
        draw or pass; a UNO call when offered."""
        last = moves[-1].__class__
        if last is Draw or last is Pass:  # the common lists: the plays, then Draw or Pass
            return self.bits(32) * (len(moves) - 1) >> 32
        if last is CallUno:
            return len(moves) - 1
        n = plays = len(moves)
        while plays and moves[plays - 1].__class__ is not Play:
            plays -= 1
            if moves[plays].__class__ is CallUno:
                return plays
        return self.bits(32) * (plays or n) >> 32

    def __repr__(self) -> str:
        return f"<RandomPlayer seed={self.seed}>"
