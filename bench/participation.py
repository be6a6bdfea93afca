"""How long deciding participation takes (tournament/services/participation.py): the event and round
standings (participation is part of their player query), the set of players who took part in a round
and "Plan next round"'s summary, for an event of N players with their live moves.

    DATABASE_URL=postgres://... .venv/bin/python bench/participation.py --players 1000 --hands 3

Builds the event with ``bench/leaderboard_load.py`` (every seat moved 6 times a hand; a ``--no-shows``
share of seats had only the timer and a bot), then prints the best and median of ``--repeat`` runs of
each. Measures, never asserts.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def timed(label: str, repeat: int, run) -> None:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        result = run()
        times.append((time.perf_counter() - t0) * 1000)
    print(f"{label:<44} best {min(times):7.1f} ms  median {statistics.median(times):7.1f} ms  ({result})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--hands", type=int, default=3)
    parser.add_argument("--no-shows", type=float, default=0.1, help="share of seats only bots played (0-1)")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    if args.players < 1 or args.hands < 1 or not 0 <= args.no_shows <= 1 or args.repeat < 1:
        parser.error("--players, --hands and --repeat above 0; --no-shows between 0 and 1")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.db import connection

    from bench.leaderboard_load import build
    from games.models import LiveMove
    from tournament.models import Event, Round
    from tournament.services import participation
    from tournament.standings import compute_standings

    print(f"bench/participation.py --players {args.players} --hands {args.hands} --no-shows {args.no_shows} "
          f"--repeat {args.repeat}; {datetime.now(UTC):%Y-%m-%d %H:%M} UTC, Python "
          f"{platform.python_version()}, {connection.vendor}")
    t0 = time.perf_counter()
    path = build(args.players, args.hands, no_shows=args.no_shows)
    event = Event.objects.get(slug=path.split("/")[2])
    round_ = Round.objects.get(event=event, number=1)
    moves = LiveMove.objects.filter(live_game__game__table__round=round_).count()
    print(f"built in {time.perf_counter() - t0:.1f} s: {args.players} players, {moves} live moves")
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")

    def no_shows():
        rows = compute_standings(event)
        return f"{sum(r.participation == participation.NO_SHOW for r in rows)} no-shows"

    timed("event standings (3 queries)", args.repeat, no_shows)
    timed("round standings (3 queries)", args.repeat, lambda: f"{len(compute_standings(event, round=round_))} rows")
    timed("players_who_took_part(round) (1 query)", args.repeat,
          lambda: f"{len(participation.players_who_took_part(round_))} took part")
    timed("round_participation(round) (1 query)", args.repeat,
          lambda: f"{len(participation.round_participation(round_).no_shows)} no-shows")


if __name__ == "__main__":
    main()
