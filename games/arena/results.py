"""What the arena's games came to for the bot under test: win rate with its Wilson score interval, points
per game, the faults counted by kind, and the speed.

The Wilson interval (Wilson 1927) is written out here, a few lines, rather than taken from a statistics
library the engine does not otherwise need.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field

from games.engine import Game

from .seats import Fault

Z95 = 1.959963984540054  # the normal quantile for a two-sided 95% interval


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (`successes` may be fractional: a shared win)."""
    if n <= 0:
        return 0.0, 1.0
    p = successes / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z / (1 + z2 / n) * math.sqrt(max(0.0, p * (1 - p) / n + z2 / (4 * n * n)))
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass
class Results:
    preset: str
    players: int
    games: int = 0  # finished games (a game stopped by its guard is not one)
    wins: float = 0.0  # shared on ties and between partners
    points: int = 0  # the bot under test's final totals, added up
    opponent_points: int = 0  # the opponents' final totals, added up
    hands: int = 0
    faults: Counter = field(default_factory=Counter)  # (kind, bot) -> count
    subject_faults: int = 0
    stuck: list[tuple[int, int, str]] = field(default_factory=list)  # (game, seed, why)
    seconds: float = 0.0  # CPU time of the run (this process): the speed of the bots and the engine

    def add_game(self, game: Game, seat: int) -> None:
        self.games += 1
        if seat in game.winners:
            self.wins += 1 / len(game.winners)
        self.points += game.totals[seat]
        self.opponent_points += sum(game.totals) - game.totals[seat]
        self.hands += len(game.results)

    def add_fault(self, fault: Fault) -> None:
        self.faults[(fault.kind, fault.bot)] += 1
        self.subject_faults += fault.subject

    def add_stuck(self, game: int, seed: int, why: str) -> None:
        self.stuck.append((game, seed, why))

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.wins, self.games)

    @property
    def fair_share(self) -> float:
        return 1 / self.players

    @property
    def points_per_game(self) -> float:
        return self.points / self.games if self.games else 0.0

    @property
    def opponent_points_per_game(self) -> float:
        """An average opponent's final total per game."""
        return self.opponent_points / (self.games * (self.players - 1)) if self.games else 0.0

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds else 0.0

    @property
    def hands_per_second(self) -> float:
        return self.hands / self.seconds if self.seconds else 0.0
