"""Whole games played by bots, and the statistics the `simulate` command prints.

Pure apart from reading the CPU clock: no Django, no I/O (progress goes to a callback). A guard turns a
game that would never end into a `SimulationStuck` naming the preset, the players and the seed.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from games import engine
from games.engine.bots import Bot, get_bot

# Generous guards: a heuristic hand takes tens of moves, a random one about a thousand (it draws a lot).
MAX_MOVES_PER_HAND = 50_000
MAX_HANDS_PER_GAME = 2_000

Progress = Callable[[int, int], None]  # (games done, games in all)


class SimulationError(ValueError):
    """Options that cannot be simulated; the message says what to change."""


class SimulationStuck(RuntimeError):
    """A hand or game passed its guard: an engine or bot bug that would otherwise loop forever."""


# ---- options ---------------------------------------------------------------------------------------------


def build_rules(preset: str, overrides: dict[str, Any] | None = None) -> engine.RuleSet:
    try:
        rules = engine.get_preset(preset)
        return rules.with_overrides(overrides) if overrides else rules
    except engine.RuleError as error:
        raise SimulationError(str(error)) from None


def check_players(rules: engine.RuleSet, players: int) -> None:
    try:
        rules.check_seats(players)
    except engine.RuleError as error:
        raise SimulationError(str(error)) from None


# ---- playing ---------------------------------------------------------------------------------------------


def next_action(state: engine.HandState, bots: Sequence[Bot]) -> engine.Action:
    """The next action a table of bots takes (`bots[i]` plays hand seat i).

    While someone may be caught for not calling UNO, the seats off turn are asked first, in turn order
    from the one after the seat on turn (so the culprit, usually the previous player, answers last); the
    first who catches or calls wins the race. Then the seat on turn acts, and must.
    """
    turn = state.turn
    if state.uno_window >= 0:
        n = state.seats
        for i in range(1, n):
            seat = (turn + i * state.direction) % n
            choice = bots[seat].act(engine.view_for(state, seat))
            if choice is not None:
                return engine.action_from_dict(choice)
    choice = bots[turn].act(engine.view_for(state, turn))
    if choice is None:
        raise SimulationStuck(f"{bots[turn]!r} did nothing on its turn (seat {turn})")
    return engine.action_from_dict(choice)


@dataclass
class HandRecord:
    moves: int
    cpu_seconds: float
    winner: int  # game seat
    blocked: bool


@dataclass
class GameRecord:
    seed: int
    winners: list[int]
    totals: list[int]
    hands: list[HandRecord] = field(default_factory=list)


def play_game(rules: engine.RuleSet, bots: Sequence[Bot], seed: int, *,
              max_moves_per_hand: int = MAX_MOVES_PER_HAND,
              max_hands: int = MAX_HANDS_PER_GAME) -> GameRecord:
    """Play one game to the target; `bots[s]` plays game seat s (Challenge UNO may eliminate seats)."""
    players = len(bots)
    game, _ = engine.Game.start(rules, players, seed)
    record = GameRecord(seed, [], [])
    where = f"{rules.preset} with {players} players, seed {seed}"
    while True:
        hand = game.hand
        table = [bots[s] for s in game.hand_seats]
        moves = 0
        started = time.process_time()
        while not hand.over:
            game.apply(next_action(hand, table))
            moves += 1
            if moves >= max_moves_per_hand:
                raise SimulationStuck(f"{where}: hand {len(record.hands) + 1} passed {max_moves_per_hand} "
                                      "moves without ending")
        result = game.results[-1]
        record.hands.append(HandRecord(moves, time.process_time() - started, result.winner, result.blocked))
        if game.over:
            break
        if len(record.hands) >= max_hands:
            raise SimulationStuck(f"{where}: the game passed {max_hands} hands without reaching the target")
        game.next_hand()
    record.winners = list(game.winners)
    record.totals = list(game.totals)
    return record


def game_seed(seed: int, number: int) -> int:
    return (seed * 1_000_003 + number * 9_176_671) % (2**63)


def table_of(names: Sequence[str], seed: int) -> list[Bot]:
    return [get_bot(name, (seed * 31 + seat) % (2**63)) for seat, name in enumerate(names)]


# ---- statistics --------------------------------------------------------------------------------------------


@dataclass
class Statistics:
    """What a batch of games came to. Wins are shared on ties (and between partners), so they add up
    to the number of games and a fair share is 1/players."""

    preset: str
    players: int
    games: int = 0
    hands: int = 0
    blocked: int = 0
    moves: int = 0
    cpu_seconds: float = 0.0
    min_moves: int = 0
    max_moves: int = 0
    seat_wins: list[float] = field(default_factory=list)

    def add(self, record: GameRecord) -> None:
        if not self.seat_wins:
            self.seat_wins = [0.0] * self.players
        self.games += 1
        for s in record.winners:
            self.seat_wins[s] += 1 / len(record.winners)
        for h in record.hands:
            self.min_moves = h.moves if not self.hands else min(self.min_moves, h.moves)
            self.max_moves = max(self.max_moves, h.moves)
            self.hands += 1
            self.blocked += h.blocked
            self.moves += h.moves
            self.cpu_seconds += h.cpu_seconds

    @property
    def moves_per_hand(self) -> float:
        return self.moves / self.hands if self.hands else 0.0

    @property
    def seconds_per_hand(self) -> float:
        return self.cpu_seconds / self.hands if self.hands else 0.0

    @property
    def hands_per_game(self) -> float:
        return self.hands / self.games if self.games else 0.0

    def win_rates(self) -> list[float]:
        return [w / self.games if self.games else 0.0 for w in self.seat_wins]


@dataclass
class Duel:
    """The heuristic bot against random bots: game g seats it at seat g % players (all rotations)."""

    players: int
    games: int = 0
    wins: float = 0.0
    by_seat_games: list[int] = field(default_factory=list)
    by_seat_wins: list[float] = field(default_factory=list)

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    def seat_rate(self, seat: int) -> float:
        n = self.by_seat_games[seat]
        return self.by_seat_wins[seat] / n if n else 0.0

    @property
    def fair_share(self) -> float:
        return 1 / self.players


def simulate(rules: engine.RuleSet, players: int, games: int, bot: str, seed: int,
             progress: Progress | None = None, **guards: int) -> Statistics:
    """`games` games with `bot` in every seat."""
    check_players(rules, players)
    stats = Statistics(rules.preset, players)
    for g in range(games):
        s = game_seed(seed, g)
        stats.add(play_game(rules, table_of([bot] * players, s), s, **guards))
        if progress:
            progress(g + 1, games)
    return stats


def duel(rules: engine.RuleSet, players: int, games: int, seed: int, progress: Progress | None = None,
         **guards: int) -> Duel:
    """`games` games of one heuristic bot against random bots, rotating its seat."""
    check_players(rules, players)
    result = Duel(players, by_seat_games=[0] * players, by_seat_wins=[0.0] * players)
    for g in range(games):
        s = game_seed(seed + 1, g)
        seat = g % players
        names = ["random"] * players
        names[seat] = "heuristic"
        record = play_game(rules, table_of(names, s), s, **guards)
        won = 1 / len(record.winners) if seat in record.winners else 0.0
        result.games += 1
        result.wins += won
        result.by_seat_games[seat] += 1
        result.by_seat_wins[seat] += won
        if progress:
            progress(g + 1, games)
    return result
