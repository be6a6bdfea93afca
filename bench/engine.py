"""Engine benchmark: random legal UNO through our engine and through RLCard 1.2.0's UNO game.

    .venv/bin/python bench/engine.py [--rounds 9] [--hands 400] [--players 2 4] [--seed 1] [--seconds S]

A "game" in the comparison is one hand played until the first player is out (RLCard's game is a single
hand); full games to 500 points are timed for our engine alone. RLCard is not a dependency of the project:
install it for the benchmark only (`pip install --no-deps rlcard==1.2.0 numpy termcolor`); without it our
half still runs.

The machine this runs on is shared and noisy, so the two engines are measured in short interleaved rounds
(ours, RLCard, RLCard, ours, ...), each round playing the SAME set of hands again (same seeds, same policy
generator), timed in CPU time (`time.process_time`). Per side it reports the best round (least disturbed)
and the median round, and the ratio ours/RLCard of each, all from the same run.

Both sides use the same kind of policy, acting on the game itself (not on a player's view):
* RLCard: `random.choice(game.get_legal_actions())`, then `game.step(action)` (its legal actions offer
  'draw' only when nothing can be played; a drawn playable card is played at once).
* Ours: `legal_moves(state)` (the legal actions of the seat on turn, plays first, as `legal_actions`
  lists them), then a uniformly random play when there is one (so, like RLCard, no drawing while a card
  can be played), else a uniformly random one of the rest (draw, pass, accept or challenge, choose a
  colour); UNO is called when offered, as a real player would. `step(state, i)` applies the i-th of them
  and returns the moves of the position it leads to. Our full rules stay on: the uno-official preset
  (UNO calls, Wild Draw 4 challenge, two-player rules, first-card rules...).
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

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games import compiled_engine, engine  # noqa: E402
from games.engine.actions import CallUno, Draw, Pass, Play  # noqa: E402
from games.engine.state import OVER  # noqa: E402

PRESET = "uno-official"


def our_move(rng: random.Random, state: engine.HandState) -> engine.Action:
    """The benchmark policy on `legal_actions`, as the timed loop (`play_our_hands`) inlines it, drawing
    the same random numbers (kept for `apply`-based callers)."""
    legal = engine.legal_actions(state, state.turn)
    last = type(legal[-1])
    if last is Draw or last is Pass:
        return legal[rng.getrandbits(32) * (len(legal) - 1) >> 32]
    if last is CallUno:
        return legal[-1]
    n = plays = len(legal)
    while plays and type(legal[plays - 1]) is not Play:
        plays -= 1
        if type(legal[plays]) is CallUno:
            return legal[plays]
    return legal[rng.getrandbits(32) * (plays or n) >> 32]


def play_our_hands(players: int, seeds: list[int], policy_seed: int) -> int:
    """Play one hand per seed to its end with the benchmark policy; return the number of moves."""
    rules = engine.get_preset(PRESET)
    bits = random.Random(policy_seed).getrandbits
    new_hand, legal_moves, step = engine.new_hand, engine.legal_moves, engine.step
    moves = 0
    for seed in seeds:
        state = new_hand(rules, players, seed=seed)
        legal = legal_moves(state)
        while legal:  # () once the hand is over
            # Plays come first; Draw, Pass, UNO calls, catches... follow them. The common lists end with
            # Draw or Pass after the plays; anything else is scanned from the end (a UNO call is taken).
            last = type(legal[-1])
            if last is Draw or last is Pass:
                # a uniform pick among the plays, else the Draw: what rng.choice does, with 32 random
                # bits scaled to the count instead of its slower _randbelow
                legal = step(state, bits(32) * (len(legal) - 1) >> 32)
            elif last is CallUno:
                legal = step(state, len(legal) - 1)
            else:
                n = plays = len(legal)
                while plays and type(legal[plays - 1]) is not Play:
                    plays -= 1
                    if type(legal[plays]) is CallUno:
                        break
                else:
                    plays = bits(32) * (plays or n) >> 32
                legal = step(state, plays)
            moves += 1
    return moves


def play_rlcard_hands(game, players: int, seed: int, hands: int) -> int:
    """Play `hands` hands of RLCard's UnoGame (its generator reseeded, so every round deals the same)."""
    game.np_random.seed(seed)
    choice = random.Random(seed).choice
    moves = 0
    for _ in range(hands):
        game.init_game()
        while not game.is_over():
            game.step(choice(game.get_legal_actions()))
            moves += 1
    return moves


def timed(fn, *args) -> tuple[float, int]:
    start = time.process_time()
    moves = fn(*args)
    return time.process_time() - start, moves


def bench_our_games(players: int, seconds: float, seed: int) -> tuple[int, int, int, float]:
    rules = engine.get_preset(PRESET)
    rng = random.Random(seed)
    games = hands = moves = 0
    start = time.process_time()
    deadline = start + seconds
    while time.process_time() < deadline:
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
    return games, hands, moves, time.process_time() - start


def summary(times: list[float], hands: int, moves: int) -> tuple[float, float, float, float]:
    """(best games/s, median games/s, best moves/s, median moves/s) from per-round CPU times."""
    best, median = min(times), statistics.median(times)
    return hands / best, hands / median, moves / best, moves / median


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=9, help="interleaved rounds per engine and player count")
    parser.add_argument("--hands", type=int, default=400, help="hands (games) per round")
    parser.add_argument("--players", type=int, nargs="+", default=[2, 4])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--seconds", type=float, default=2.0,
                        help="CPU seconds for the full games to 500 points (ours only); 0 skips them")
    args = parser.parse_args(argv)
    print(f"engine benchmark, {PRESET}, random legal play; {args.rounds} interleaved rounds of {args.hands} "
          f"hands per engine, CPU time; Python {platform.python_version()} on {platform.machine()}, "
          f"{os.cpu_count()} CPUs, load {os.getloadavg()[0]:.1f}, {datetime.date.today()}")
    print("our engine: " + ("compiled with mypyc (make install; tools/compile_engine.py)"
                            if compiled_engine.running_compiled() else
                            "pure Python (not compiled: make install compiles it)"))
    try:
        import rlcard
        from rlcard.games.uno.game import UnoGame
        print(f"RLCard {rlcard.__version__} found")
    except ImportError:
        UnoGame = None
        print("RLCard is not installed, so only our engine is measured. For the comparison install it in "
              "the virtualenv (not a project dependency): pip install --no-deps rlcard==1.2.0 numpy termcolor")
    seed_rng = random.Random(args.seed)
    print(f"{'players':>7}  {'engine':<8}{'games/s best':>13}{'median':>9}{'moves/s best':>14}{'median':>10}"
          f"{'moves/game':>12}")
    for players in args.players:
        seeds = [seed_rng.getrandbits(32) for _ in range(args.hands)]
        game = UnoGame(num_players=players) if UnoGame else None
        ours: list[float] = []
        theirs: list[float] = []
        our_moves = their_moves = 0
        for r in range(args.rounds):
            # alternate who goes first, so a slow spell does not always land on the same side
            order = ("ours", "rl") if r % 2 == 0 else ("rl", "ours")
            for side in order:
                if side == "ours":
                    t, our_moves = timed(play_our_hands, players, seeds, args.seed)
                    ours.append(t)
                elif game is not None:
                    t, their_moves = timed(play_rlcard_hands, game, players, args.seed, args.hands)
                    theirs.append(t)
        o = summary(ours, args.hands, our_moves)
        print(f"{players:>7}  {'ours':<8}{o[0]:>13,.0f}{o[1]:>9,.0f}{o[2]:>14,.0f}{o[3]:>10,.0f}"
              f"{our_moves / args.hands:>12.1f}")
        if theirs:
            t = summary(theirs, args.hands, their_moves)
            print(f"{players:>7}  {'RLCard':<8}{t[0]:>13,.0f}{t[1]:>9,.0f}{t[2]:>14,.0f}{t[3]:>10,.0f}"
                  f"{their_moves / args.hands:>12.1f}")
            print(f"{players:>7}  {'ours/RL':<8}{o[0] / t[0]:>12.2f}x{o[1] / t[1]:>8.2f}x{o[2] / t[2]:>13.2f}x"
                  f"{o[3] / t[3]:>9.2f}x")
    if args.seconds > 0:
        print("full games to 500 points, ours:")
        for players in args.players:
            games, hands, moves, elapsed = bench_our_games(players, args.seconds, args.seed)
            print(f"{players:>7}  {games / elapsed:,.1f} games/s ({hands / games:.1f} hands and "
                  f"{moves / games:,.0f} moves per game, {moves / elapsed:,.0f} moves/s)")


if __name__ == "__main__":
    main()
