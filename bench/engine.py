"""Engine benchmark: random legal UNO through our engine and through RLCard 1.2.0's UNO game.

    .venv/bin/python bench/engine.py [--seconds 3] [--players 2 4] [--seed 1]

A "game" in the comparison is one hand played to its end (RLCard's game is a single hand); full games to
500 points are timed for our engine alone. RLCard is not a dependency of the project: install it for the
benchmark only (`pip install --no-deps rlcard==1.2.0 numpy termcolor`); without it our half still runs.

Both sides use the same kind of policy, acting on the game itself (not on a player's view):
* RLCard: `random.choice(game.get_legal_actions())` (its legal actions offer 'draw' only when nothing can
  be played, and a drawn playable card is played at once).
* Ours: `legal_actions(state, state.turn)`, then a uniformly random play when there is one (so, like
  RLCard, no drawing while a card can be played), else a random one of the rest (draw, pass, accept or
  challenge, choose a colour); UNO is called when offered, as a real player would. Our full rules stay on:
  uno-official as preset (UNO calls, Wild Draw 4 challenge, two-player rules, first-card rules...).
"""

from __future__ import annotations

import argparse
import datetime
import platform
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games import engine  # noqa: E402
from games.engine.actions import CallUno, Play  # noqa: E402
from games.engine.state import OVER  # noqa: E402

PRESET = "uno-official"


def our_move(rng: random.Random, state: engine.HandState) -> engine.Action:
    legal = engine.legal_actions(state, state.turn)
    # legal_actions lists the plays first; UNO calls, draw, pass, catches... follow them
    n = len(legal)
    plays = n
    while plays and type(legal[plays - 1]) is not Play:
        plays -= 1
        if type(legal[plays]) is CallUno:
            return legal[plays]
    # a uniform pick (what rng.choice does, without its slower _randbelow)
    if plays:
        return legal[int(rng.random() * plays)]
    return legal[int(rng.random() * n)]


def bench_our_hands(players: int, seconds: float, seed: int) -> tuple[int, int, float]:
    rules = engine.get_preset(PRESET)
    rng = random.Random(seed)
    new_hand, apply = engine.new_hand, engine.apply
    hands = moves = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        state = new_hand(rules, players, seed=rng.getrandbits(32))
        while state.phase != OVER:
            apply(state, our_move(rng, state), False)
            moves += 1
        hands += 1
    return hands, moves, time.perf_counter() - start


def bench_our_games(players: int, seconds: float, seed: int) -> tuple[int, int, int, float]:
    rules = engine.get_preset(PRESET)
    rng = random.Random(seed)
    games = hands = moves = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        game, _ = engine.Game.start(rules, players, rng.getrandbits(32))
        while True:
            state = game.hand
            while state.phase != OVER:
                game.apply(our_move(rng, state), False)
                moves += 1
            hands += 1
            if game.over:
                break
            game.next_hand()
        games += 1
    return games, hands, moves, time.perf_counter() - start


def bench_rlcard(players: int, seconds: float, seed: int) -> tuple[int, int, float] | None:
    try:
        from rlcard.games.uno.game import UnoGame
    except ImportError:
        return None
    game = UnoGame(num_players=players)
    game.np_random.seed(seed)
    rng = random.Random(seed)
    hands = moves = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        game.init_game()
        while not game.is_over():
            game.step(rng.choice(game.get_legal_actions()))
            moves += 1
        hands += 1
    return hands, moves, time.perf_counter() - start


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time spent on each measurement")
    parser.add_argument("--players", type=int, nargs="+", default=[2, 4])
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    print(f"engine benchmark, {PRESET}, random legal play, {args.seconds:g} s per measurement; "
          f"Python {platform.python_version()} on {platform.machine()}, {datetime.date.today()}")
    try:
        import rlcard
        print(f"RLCard {rlcard.__version__} found")
    except ImportError:
        print("RLCard is not installed, so only our engine is measured. For the comparison install it in "
              "the virtualenv (not a project dependency): pip install --no-deps rlcard==1.2.0 numpy termcolor")
    print(f"{'players':>7}  {'engine':<8}{'hands/s':>10}{'moves/s':>11}{'moves/hand':>12}")
    for players in args.players:
        hands, moves, elapsed = bench_our_hands(players, args.seconds, args.seed)
        ours = hands / elapsed, moves / elapsed
        print(f"{players:>7}  {'ours':<8}{ours[0]:>10,.0f}{ours[1]:>11,.0f}{moves / hands:>12.1f}")
        theirs = bench_rlcard(players, args.seconds, args.seed)
        if theirs is not None:
            t_hands, t_moves, t_elapsed = theirs
            rl = t_hands / t_elapsed, t_moves / t_elapsed
            print(f"{players:>7}  {'RLCard':<8}{rl[0]:>10,.0f}{rl[1]:>11,.0f}{t_moves / t_hands:>12.1f}")
            print(f"{players:>7}  {'ours/RL':<8}{ours[0] / rl[0]:>9.2f}x{ours[1] / rl[1]:>10.2f}x")
    print("full games to 500 points, ours:")
    for players in args.players:
        games, hands, moves, elapsed = bench_our_games(players, args.seconds, args.seed)
        print(f"{players:>7}  {games / elapsed:,.1f} games/s ({hands / games:.1f} hands and {moves / games:,.0f} "
              f"moves per game, {moves / elapsed:,.0f} moves/s)")


if __name__ == "__main__":
    main()
