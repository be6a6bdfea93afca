"""`python -m games.arena BOT [--against BOT ...]`: the arena's command (docs/bots.md).

Reads the options, loads the bots, runs every preset asked for and prints, per preset, the win rate of
BOT with its 95% Wilson interval, points per game, the speed and the faults (the first few in full: game,
seed, view, answer). No Django: it needs neither settings nor a database. Bad options and broken bot
modules end with a one-line error (exit status 2), never a traceback.
"""

from __future__ import annotations

import argparse
import json
import os
import sys

from games import command_line, simulation
from games.engine import PRESETS
from games.engine.bots import BOTS

from . import matches
from .entrants import BotLoadError, load
from .results import Results
from .seats import Fault


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m games.arena",
        description="Play your bot (a module with act(view)) against the built-in bots or other modules, "
                    "offline, and print its win rate.")
    p.add_argument("bot", help=f"your bot: a .py file or an importable module with act(view), or a built-in "
                               f"bot ({', '.join(BOTS)})")
    p.add_argument("--against", nargs="+", default=["heuristic"], metavar="BOT",
                   help="the opponents, seated after yours in this order and repeated to fill the table "
                        "(built-in bots or modules; default: heuristic)")
    p.add_argument("--rules", default="uno-official", help=f"a preset ({', '.join(PRESETS)}) or 'all'")
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--games", type=int, default=100, help="games per preset")
    p.add_argument("--seed", type=int, default=0, help="the same seed plays the same games")
    p.add_argument("--set", dest="overrides", action="append", default=[], metavar="NAME=VALUE",
                   help="change a rule option, e.g. --set target=200")
    p.add_argument("--show-faults", type=int, default=3, metavar="N",
                   help="faults printed in full (game, seed, view, answer); all are counted")
    shown = p.add_mutually_exclusive_group()
    shown.add_argument("--progress", dest="progress", action="store_true", default=None,
                       help="a progress bar on stderr (the default on a terminal)")
    shown.add_argument("--no-progress", dest="progress", action="store_false")
    return p


def main(argv: list[str] | None = None) -> int:
    p = parser()
    args = p.parse_args(argv)
    if args.games < 1:
        p.error(f"--games must be at least 1, not {args.games}")
    presets = list(PRESETS) if args.rules == "all" else [args.rules]
    try:
        overrides = dict(command_line.parse_override(o) for o in args.overrides)
        rules = [simulation.build_rules(name, overrides) for name in presets]
        for r in rules:
            simulation.check_players(r, args.players)
    except (ValueError, simulation.SimulationError) as error:
        p.error(str(error))
    try:
        subject = load(args.bot)
        opponents = [load(spec) for spec in args.against]
    except BotLoadError as error:
        p.error(str(error))
    progress = sys.stderr.isatty() if args.progress is None else args.progress
    out = sys.stdout
    print(f"arena: {subject.name} against {', '.join(o.name for o in opponents)}; {args.players} players, "
          f"its seat rotated; {args.games} games per preset, seed {args.seed}", file=out)
    shown = [0]

    def on_fault(fault: Fault) -> None:
        if shown[0] < args.show_faults:
            shown[0] += 1
            print_fault(fault, out)

    done: list[Results] = []
    for r in rules:
        bar = command_line.ProgressBar(sys.stderr, r.preset) if progress else None
        results = matches.run(r, subject, opponents, args.players, args.games, args.seed, bar, on_fault)
        print_results(results, subject.name, out)
        done.append(results)
    if len(done) > 1:
        print_summary(done, out)
    return 0


def print_fault(fault: Fault, out) -> None:
    then = "its seat made the silent seat's move" if fault.on_turn else "off its turn: nothing was done"
    print(f"fault: {fault.bot} ({'your bot' if fault.subject else 'an opponent'}) {fault.kind} in game "
          f"{fault.game} (seed {fault.seed}), hand {fault.hand}, seat {fault.seat}: {fault.detail}; {then}",
          file=out)
    print(f"  view: {json.dumps(fault.view, default=repr)}", file=out)
    if fault.answer is not None:
        print(f"  answer: {_shown(fault.answer)}", file=out)


def _shown(answer) -> str:
    try:
        return json.dumps(answer)
    except (TypeError, ValueError):
        return repr(answer)


def print_results(r: Results, name: str, out) -> None:
    low, high = r.interval
    print(f"{r.preset}: {r.games} games, {r.hands} hands, {r.seconds:.1f} s of CPU", file=out)
    print(f"  win rate         {r.win_rate:.1%} (95% CI {low:.1%} to {high:.1%}; a fair share is "
          f"{r.fair_share:.1%})", file=out)
    print(f"  points per game  {r.points_per_game:.1f} (an opponent: {r.opponent_points_per_game:.1f})", file=out)
    print(f"  speed            {r.games_per_second:,.1f} games/s, {r.hands_per_second:,.0f} hands/s", file=out)
    if r.faults:
        counts = ", ".join(f"{bot} {kind}: {n}" for (kind, bot), n in sorted(r.faults.items()))
        print(f"  faults           {sum(r.faults.values())} ({counts}); {r.subject_faults} by {name}", file=out)
    else:
        print("  faults           none", file=out)
    for game, seed, why in r.stuck:
        print(f"  stopped          game {game} (seed {seed}): {why}; not counted", file=out)


def print_summary(done: list[Results], out) -> None:
    print("all presets:", file=out)
    for r in done:
        low, high = r.interval
        print(f"  {r.preset:<14} win rate {r.win_rate:6.1%} ({low:.1%} to {high:.1%})  points/game "
              f"{r.points_per_game:6.1f}  faults {sum(r.faults.values())}", file=out)


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        sys.exit("\ninterrupted")
    except BrokenPipeError:  # the output piped into `head` or a pager that closed early
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(1)
