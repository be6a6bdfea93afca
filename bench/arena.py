"""Arena benchmark: hands per CPU second of the offline arena (`python -m games.arena`) against the
engine benchmark's (`bench/engine.py`), in the same run, in interleaved rounds.

    .venv/bin/python bench/arena.py [--rounds 9] [--hands 300] [--players 2 4] [--seed 1]

Every side plays random legal UNO (`uno-official`). Sides:

* engine: `bench/engine.py`'s loop on `legal_moves`/`step` (hands until the first player is out, no
  view), its policy inline: call UNO when offered, else a uniformly random play, else a uniformly random
  one of the rest;
* arena: the arena's own loop (`games.arena.matches.run`) with its built-in `random` bot in every seat
  (`games/arena/random_player.py`: the same policy, deciding from `legal_moves` of its seat, no view),
  whole games to 500 with their scoring and the seats rotated. The target: at least 70% of the engine's
  hands/s (the arena's own overhead small beside the engine).

What a student's module costs, as further figures (its policy is the same but for catches, which it makes
whenever offered, and draws, taking the first action listed):

* bot: the engine side's hands, the policy being `examples/bot.py`'s `act(view)` on a view holding only
  its legal actions (as dicts), its answer found among them by identity and made by `step`;
* view: the same with the whole live view (`engine.view_for`) per decision;
* module: the arena with `examples/bot.py` in every seat, a live view per decision, whole games.

Every round plays the same work again: the engine, bot and view sides the same hands (the same seeds),
the arena and module sides the same whole games (the same seeds, about as many hands). Rounds are
interleaved (every side once, then the other way round) and timed in CPU time; the median round is
compared, the best round printed beside it.
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.engine import PRESET, play_our_hands  # noqa: E402
from games import engine, simulation  # noqa: E402
from games.arena import matches  # noqa: E402
from games.arena.entrants import load  # noqa: E402
from games.engine.actions import Play  # noqa: E402
from games.engine.state import OVER  # noqa: E402


def engine_round(players: int, seeds: list[int], seed: int) -> tuple[float, int]:
    start = time.process_time()
    play_our_hands(players, seeds, seed)
    return time.process_time() - start, len(seeds)


def bot_round(players: int, seeds: list[int], seed: int, live_view: bool) -> tuple[float, int]:
    """The engine side's hands with `examples/bot.py` choosing: on a view of its legal actions alone, or
    (`live_view`) on `engine.view_for`'s."""
    act = load(str(ROOT / "examples" / "bot.py")).act
    rules = engine.get_preset(PRESET)
    new_hand, legal_moves, step, view_for = engine.new_hand, engine.legal_moves, engine.step, engine.view_for
    random.seed(seed)  # the bot's random module
    start = time.process_time()
    for hand_seed in seeds:
        state = new_hand(rules, players, seed=hand_seed)
        while state.phase != OVER:
            if live_view:
                view = view_for(state, state.turn)
            else:
                view = {"legal_actions": [
                    {"type": "play", "seat": a.seat, "card": a.card, "colour": a.colour} if a.__class__ is Play
                    else a.to_dict() for a in legal_moves(state)]}
            answer = act(view)
            i = 0
            for offer in view["legal_actions"]:
                if offer is answer:
                    break
                i += 1
            step(state, i)
    return time.process_time() - start, len(seeds)


def arena_round(players: int, hands: int, seed: int, spec: str) -> tuple[float, int]:
    """Whole arena games of one bot (`spec`: a built-in bot or a module) in every seat until at least
    `hands` hands are played; (CPU seconds, hands)."""
    bot = load(spec)
    rules = engine.get_preset(PRESET)
    seconds = 0.0
    played = 0
    number = 0
    while played < hands:
        results = matches.run(rules, bot, [bot], players, 1, seed + number)
        seconds += results.seconds
        played += results.hands
        number += 1
    return seconds, played


def arena_moves(players: int, hands: int, seed: int) -> tuple[int, int]:
    """The moves and hands of `arena_round`'s games of random bots, counted in a pass of their own (untimed):
    the arena's hands are not the engine side's, so their lengths are printed beside each other."""
    bot = load("random")
    rules = engine.get_preset(PRESET)
    moves = [0]

    def counted(pick):
        def count(legal):
            moves[0] += 1
            return pick(legal)
        return count

    played = number = 0
    while played < hands:
        game_seed = simulation.game_seed(seed + number, 1)  # what `matches.run(..., 1, seed + number)` plays
        seats = [matches.Seat(None, s.name, s.subject, counted(s.pick))
                 for s in matches.table_for(bot, [bot], players, 1, game_seed)]
        played += len(matches.play_game(rules, seats, game_seed, _no_fault).results)
        number += 1
    return moves[0], played


def _no_fault(fault: object) -> None:
    raise AssertionError(f"a built-in random bot cannot fault: {fault}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=9, help="interleaved rounds per side and player count")
    parser.add_argument("--hands", type=int, default=300, help="hands per round")
    parser.add_argument("--players", type=int, nargs="+", default=[2, 4])
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    print(f"arena benchmark, {PRESET}, random legal play; {args.rounds} interleaved rounds of {args.hands} "
          f"hands per side, CPU time; Python {platform.python_version()} on {platform.machine()}, "
          f"{os.cpu_count()} CPUs, load {os.getloadavg()[0]:.1f}, {datetime.date.today()}")
    print(f"{'players':>7}  {'side':<8}{'hands/s best':>13}{'median':>9}{'/ engine, best':>16}{'median':>8}")
    sides = ("engine", "arena", "bot", "view", "module")
    example = str(ROOT / "examples" / "bot.py")
    seed_rng = random.Random(args.seed)
    for players in args.players:
        seeds = [seed_rng.getrandbits(32) for _ in range(args.hands)]
        rates: dict[str, list[float]] = {side: [] for side in sides}
        for r in range(args.rounds):
            for side in (sides if r % 2 == 0 else sides[::-1]):
                if side == "engine":
                    seconds, hands = engine_round(players, seeds, args.seed)
                elif side == "arena":
                    seconds, hands = arena_round(players, args.hands, args.seed, "random")
                elif side == "module":
                    seconds, hands = arena_round(players, args.hands, args.seed, example)
                else:
                    seconds, hands = bot_round(players, seeds, args.seed + r, side == "view")
                rates[side].append(hands / seconds)
        best = {side: max(v) for side, v in rates.items()}
        median = {side: statistics.median(v) for side, v in rates.items()}
        for side in sides:
            ratios = "" if side == "engine" else (f"{best[side] / best['engine']:>16.0%}"
                                                  f"{median[side] / median['engine']:>8.0%}")
            print(f"{players:>7}  {side:<8}{best[side]:>13,.0f}{median[side]:>9,.0f}{ratios}")
        engine_moves = play_our_hands(players, seeds, args.seed)
        moves, hands = arena_moves(players, args.hands, args.seed)
        print(f"{players:>7}  moves per hand: engine {engine_moves / len(seeds):.1f}, arena {moves / hands:.1f}")
        ratio = median["arena"] / median["engine"]
        print(f"{players:>7}  {'arena/engine':<12}{best['arena'] / best['engine']:>9.0%}{ratio:>9.0%}"
              f"  (target: median at least 70%: {'met' if ratio >= 0.7 else 'not met'})")


if __name__ == "__main__":
    main()
