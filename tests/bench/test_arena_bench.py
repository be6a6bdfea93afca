"""bench/arena.py at a small scale: every side plays and the figures are printed; the arena's random bot
makes the engine benchmark's choices, so the two sides compare the same player."""

import random
import re

from bench import arena
from bench.engine import our_move
from games import engine
from games.arena.random_player import RandomPlayer
from games.engine.state import OVER


def test_every_side_plays_and_prints_its_rate(capsys):
    arena.main(["--rounds", "2", "--hands", "5", "--players", "2"])
    out = capsys.readouterr().out
    for side in ("engine", "arena", "bot", "view", "module"):
        assert re.search(rf"^ +2  {side} +[\d,]+ +[\d,]+", out, re.M), out
    assert re.search(r"^ +2  moves per hand: engine [\d.]+, arena [\d.]+$", out, re.M), out
    assert re.search(r"^ +2  arena/engine +\d+% +\d+%  \(target: median at least 70%: (not )?met\)$", out,
                     re.M), out


def test_the_arenas_random_bot_makes_the_benchmarks_choices():
    """Hand after hand, the arena's random player and the engine benchmark's policy (`our_move`, on the
    checked `legal_actions`), fed the same random numbers, make the same move."""
    moves = 0
    seen = set()
    for preset, players in (("uno-official", 2), ("uno-official", 4), ("ocho-plato", 3)):
        rules = engine.get_preset(preset)
        for seed in range(12):
            state = engine.new_hand(rules, players, seed=seed)
            player = RandomPlayer(seed)
            reference = random.Random(seed)
            while state.phase != OVER:
                expected = our_move(reference, state)
                picked = player.pick(engine.legal_moves(state))
                assert engine.legal_moves(state)[picked] == expected
                seen.add(type(expected).__name__)
                engine.apply(state, expected)
                moves += 1
    assert moves > 1000 and {"Play", "Draw", "CallUno", "Challenge", "Accept"} <= seen, seen
