"""Playing the arena's games: the bot under test and its opponents around a table, its seat rotated
game by game, every game's seed fixed by (seed, game number) so the same options give the same games.

Python's own `random` module is seeded at the start of every game too, so a bot that uses it (as
examples/bot.py does) plays the same moves again. Progress and faults go to callbacks.

A seat that reads views (a module, the heuristic bot) is asked through `seats.ask` with the live view; a
built-in bot that picks among the engine's moves (the random player) gets no view: on its turn it picks
the position of its move in `legal_moves(hand)` and the game makes it by `Game.step`, and off its turn it
is never asked (it never acts there). A hand where no seat reads views runs as the engine's own loop does.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from games.engine import Game, RuleSet, legal_moves
from games.engine.state import OVER
from games.simulation import MAX_HANDS_PER_GAME, MAX_MOVES_PER_HAND, game_seed

from .entrants import Act, Entrant, Pick
from .results import Results
from .seats import Fault, Report, ask

Progress = Callable[[int, int], None]  # (games done, games in all)


@dataclass
class Seat:
    act: Act | None  # a bot that reads views; None for one that picks among the engine's moves
    name: str
    subject: bool  # the bot under test
    pick: Pick | None = None  # a built-in bot that reads no view: its move's position in `legal_moves`


class GameStuck(RuntimeError):
    """A hand or a game passed its guard (bots that keep drawing and passing, for ever)."""


def table_for(subject: Entrant, opponents: Sequence[Entrant], players: int, number: int, seed: int) -> list[Seat]:
    """Game `number`'s seats: the bot under test at seat `number % players`, the opponents after it in
    the order given (repeated to fill the table)."""
    others = [opponents[i % len(opponents)] for i in range(players - 1)]
    order = [subject, *others]
    shift = number % players
    order = order[-shift:] + order[:-shift] if shift else order
    return [Seat(e.player(bot_seed), e.name, s == shift) if e.reads_views
            else Seat(None, e.name, s == shift, e.picker(bot_seed))
            for s, e in enumerate(order) for bot_seed in [(seed * 31 + s) % (2**63)]]


def play_game(rules: RuleSet, seats: list[Seat], seed: int, report: Report,
              max_moves_per_hand: int = MAX_MOVES_PER_HAND, max_hands: int = MAX_HANDS_PER_GAME) -> Game:
    """One whole game to the target; the finished `Game` (totals, winners, hand results). Faults reach
    `report` with their seed, hand number and game seat filled in."""
    random.seed(seed)
    game, _ = Game.start(rules, len(seats), seed, events=False)

    def located(fault: Fault) -> None:
        fault.seed, fault.hand, fault.seat = seed, len(game.results) + 1, game.active[fault.seat]
        fault.subject = seats[fault.seat].subject
        report(fault)

    while True:
        table = [seats[s] for s in game.active]
        acts = [seat.act for seat in table]
        picks = [seat.pick for seat in table]
        names = [seat.name for seat in table]
        readers = [s for s in range(len(table)) if acts[s] is not None]  # the seats that read views
        if readers:
            _play_hand(game, acts, picks, names, readers, located, max_moves_per_hand)
        else:
            _play_picked_hand(game, picks, max_moves_per_hand)
        if game.over:
            return game
        if len(game.results) >= max_hands:
            raise GameStuck(f"the game passed {max_hands} hands without reaching the target")
        game.next_hand(events=False)


def _play_picked_hand(game: Game, picks: list[Pick], max_moves_per_hand: int) -> None:
    """The current hand to its end when no seat reads views: nobody to ask off turn, so this is the engine
    benchmark's loop, with the seat on turn picking its move."""
    hand, step = game.hand, game.step
    legal = legal_moves(hand)
    moves = 0
    while legal:  # () once the hand is over
        if moves == max_moves_per_hand:
            raise _hand_too_long(game, max_moves_per_hand)
        moves += 1
        legal = step(picks[hand.turn](legal))


def _hand_too_long(game: Game, max_moves_per_hand: int) -> GameStuck:
    return GameStuck(f"hand {len(game.results) + 1} passed {max_moves_per_hand} moves without ending")


def _play_hand(game: Game, acts: list[Act | None], picks: list[Pick | None], names: list[str],
               readers: list[int], located: Report, max_moves_per_hand: int) -> None:
    """The current hand to its end, with seats that read views (`readers`) among the pickers."""
    hand = game.hand
    n = len(acts)
    # Live, every seat's bot sees every change, with nothing to do most of the time: ask the seats off
    # turn once per hand, so a bot that fails on an empty `legal_actions` fails here as it would there.
    turn = hand.turn
    for s in readers:
        if s != turn:
            ask(acts[s], names[s], hand, s, located)
    moves = 0
    while hand.phase != OVER:
        if moves == max_moves_per_hand:
            raise _hand_too_long(game, max_moves_per_hand)
        moves += 1
        if hand.uno_window >= 0:  # a UNO call or a catch is possible: the readers off turn may act first
            turn = hand.turn
            choice = None
            for i in range(1, n):
                s = (turn + i * hand.direction) % n
                if acts[s] is not None:
                    choice = ask(acts[s], names[s], hand, s, located)
                    if choice is not None:
                        break
            if choice is not None:
                game.apply(hand.offered[choice] if choice.__class__ is int else choice, False)
                continue
        turn = hand.turn
        pick = picks[turn]
        if pick is not None:
            game.step(pick(legal_moves(hand)))
            continue
        choice = ask(acts[turn], names[turn], hand, turn, located)
        if choice.__class__ is int:
            game.step(choice)  # the answer was found among the listed moves: no need to check it again
        else:
            game.apply(choice, False)


def run(rules: RuleSet, subject: Entrant, opponents: Sequence[Entrant], players: int, games: int, seed: int,
        progress: Progress | None = None, on_fault: Report | None = None) -> Results:
    """`games` games of `subject` against `opponents` on `rules`; faults are counted in the results and
    passed on to `on_fault`."""
    rules.check_seats(players)
    results = Results(rules.preset, players)
    started = time.process_time()
    for number in range(1, games + 1):
        seed_ = game_seed(seed, number)
        seats = table_for(subject, opponents, players, number, seed_)

        def report(fault: Fault, number: int = number) -> None:
            fault.game = number
            results.add_fault(fault)
            if on_fault:
                on_fault(fault)

        try:
            game = play_game(rules, seats, seed_, report)
        except GameStuck as error:
            results.add_stuck(number, seed_, str(error))
        else:
            results.add_game(game, next(s for s, seat in enumerate(seats) if seat.subject))
        if progress:
            progress(number, games)
    results.seconds = time.process_time() - started
    return results
