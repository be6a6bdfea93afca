"""`manage.py simulate`: bots play whole games to the target and the statistics are printed."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from games import command_line, simulation
from games.engine import PRESETS
from games.engine.bots import BOTS


def parse_override(text: str) -> tuple[str, object]:
    try:
        return command_line.parse_override(text)
    except ValueError as error:
        raise CommandError(str(error)) from None


class Command(BaseCommand):
    help = "Play whole games between bots and print hands, moves, timings and win rates."

    def add_arguments(self, parser):
        parser.add_argument("--rules", default="uno-official", help=f"preset: {', '.join(PRESETS)}")
        parser.add_argument("--players", type=int, default=4)
        parser.add_argument("--games", type=int, default=100)
        parser.add_argument("--bot", default="heuristic", help=f"bot in every seat: {', '.join(BOTS)}")
        parser.add_argument("--seed", type=int, default=0)
        parser.add_argument("--set", dest="overrides", action="append", default=[], metavar="NAME=VALUE",
                            help="change a rule option, e.g. --set target=200 --set stacking=draw2")
        parser.add_argument("--duel-games", type=int, default=None,
                            help="games of the heuristic bot against random bots (default: --games; 0: skip)")
        parser.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")

    def handle(self, *args, **opts):
        if opts["games"] < 1:
            raise CommandError(f"--games must be at least 1, not {opts['games']}")
        if opts["bot"] not in BOTS:
            raise CommandError(f"unknown bot '{opts['bot']}'; the bots are: {', '.join(BOTS)}")
        duel_games = opts["games"] if opts["duel_games"] is None else opts["duel_games"]
        if duel_games < 0:
            raise CommandError(f"--duel-games must be 0 or more, not {duel_games}")
        overrides = dict(parse_override(o) for o in opts["overrides"])
        players, seed = opts["players"], opts["seed"]
        try:
            rules = simulation.build_rules(opts["rules"], overrides)
            simulation.check_players(rules, players)
        except simulation.SimulationError as error:
            raise CommandError(str(error)) from None

        self.stderr.style_func = None  # a progress bar, not an error: no red on a terminal

        def bar(label):
            return None if opts["no_progress"] else command_line.ProgressBar(
                self.stderr, label, write=lambda text: self.stderr.write(text, ending=""))

        try:
            stats = simulation.simulate(rules, players, opts["games"], opts["bot"], seed, bar(opts["bot"]))
            versus = simulation.duel(rules, players, duel_games, seed, bar("duel")) if duel_games else None
        except simulation.SimulationStuck as error:
            raise CommandError(str(error)) from None
        self.report(rules, opts, stats, versus)

    def report(self, rules, opts, stats: simulation.Statistics, versus: simulation.Duel | None) -> None:
        out = self.stdout.write
        changed = ", ".join(f"{k}={v}" for k, v in sorted(dict(parse_override(o) for o in opts["overrides"]).items()))
        out(f"{rules.preset}{f' ({changed})' if changed else ''}: {stats.players} players, bot {opts['bot']} in "
            f"every seat, seed {opts['seed']}, target {rules.target}")
        out(f"games              {stats.games}")
        out(f"hands              {stats.hands} ({stats.hands_per_game:.1f} per game, {stats.blocked} blocked)")
        out(f"moves per hand     {stats.moves_per_hand:.1f} on average (fewest {stats.min_moves}, most "
            f"{stats.max_moves}); {stats.moves} moves in all")
        out(f"average hand       {stats.moves_per_hand:.1f} moves, {stats.seconds_per_hand * 1000:.2f} ms of "
            "CPU (engine and bots)")
        out("wins by seat       " + ", ".join(f"seat {s}: {w:g} ({r:.1%})" for s, (w, r)
                                            in enumerate(zip(stats.seat_wins, stats.win_rates(), strict=True))))
        if versus is not None:
            out(f"heuristic vs random: {versus.games} games, one heuristic bot rotating through the seats: "
                f"wins {versus.win_rate:.1%} (a fair share is {versus.fair_share:.1%})")
            out("  by its seat      " + ", ".join(
                f"seat {s}: {versus.seat_rate(s):.1%} of {versus.by_seat_games[s]}" for s in range(versus.players)))
