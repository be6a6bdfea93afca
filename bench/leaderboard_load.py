"""Data for the leaderboard page load test: a running event of N players at tables of 4, one game per
table with H scored hands (bulk-created rows, as the live-game service would have written them).

    python bench/leaderboard_load.py --players 10000 --hands 3
    wrk -t2 -c50 -d20s --latency http://127.0.0.1:8000/events/<slug>/leaderboard/

Prints the event's leaderboard URL path. DATABASE_URL from the environment, as for the site.
"""

from __future__ import annotations

import argparse
import os
import random
import secrets
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def build(players: int, hands: int, seats: int = 4) -> str:
    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import make_password
    from django.db import transaction
    from django.utils import timezone

    from tournament.models import Event, Game, Hand, HandScore, Player, Round, Seat, Table

    tag = secrets.token_hex(3)
    rng = random.Random(tag)
    now = timezone.now()
    with transaction.atomic():
        event = Event.objects.create(name=f"Load {tag}", slug=f"load-{tag}", rules_preset="uno-official",
                                     status="running", min_table_size=2, max_table_size=seats, target_score=500)
        round_ = Round.objects.create(event=event, number=1, seed=1, status=Round.Status.RUNNING, started_at=now)
        password = make_password(None)
        users = get_user_model().objects.bulk_create(
            [get_user_model()(username=f"load-{tag}-{i}", password=password) for i in range(players)], batch_size=2000)
        people = Player.objects.bulk_create(
            [Player(event=event, user=u, display_name=f"Student {i}", status="checked_in") for i, u in enumerate(users)],
            batch_size=2000)
        tables = Table.objects.bulk_create([Table(round=round_, number=t + 1) for t in range((players + seats - 1) // seats)])
        seat_rows = Seat.objects.bulk_create(
            [Seat(table=tables[i // seats], number=i % seats, player=p) for i, p in enumerate(people)], batch_size=2000)
        games = Game.objects.bulk_create([Game(table=t, number=1, target_score=500, status=Game.Status.RUNNING,
                                               started_at=now) for t in tables])
        by_table: dict[int, list] = {}
        for s in seat_rows:
            by_table.setdefault(s.table_id, []).append(s)
        hand_rows, score_rows = [], []
        for g in games:
            for h in range(hands):
                hand_rows.append(Hand(game=g, number=h + 1, dealer=h % seats, started_at=now, ended_at=now))
        Hand.objects.bulk_create(hand_rows, batch_size=2000)
        for hand in hand_rows:
            table_seats = by_table[hand.game.table_id]
            winner = rng.choice(table_seats)
            left = {s.pk: 0 if s is winner else rng.randint(1, 60) for s in table_seats}
            hand.winner = winner
            for s in table_seats:
                score_rows.append(HandScore(hand=hand, seat=s, points_left=left[s.pk],
                                            points_won=sum(left.values()) if s is winner else 0))
        Hand.objects.bulk_update(hand_rows, ["winner"], batch_size=2000)
        HandScore.objects.bulk_create(score_rows, batch_size=5000)
    return f"/events/{event.slug}/leaderboard/"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=10_000)
    parser.add_argument("--hands", type=int, default=3)
    args = parser.parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    t0 = time.perf_counter()
    path = build(args.players, args.hands)
    print(f"{args.players} players, {args.hands} hands per table in {time.perf_counter() - t0:.1f} s: {path}")


if __name__ == "__main__":
    main()
