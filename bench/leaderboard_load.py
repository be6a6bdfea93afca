"""Data for the leaderboard and bracket page load tests: a running event of N players at tables of 4, one
game per table with H scored hands and their live moves (bulk-created rows, as the live-game service would
have written them; every player moved at their table, so took part);
with ``--bracket``, round 1 then ends and round 2 is a bracket planned, created and started by the
bracket services (tournament/services/next_round.py: the proposed field, stage one's tables seated and
started), with H scored hands at every stage-one table.

    python bench/leaderboard_load.py --players 10000 --hands 3 --bracket
    wrk -t2 -c50 -d20s --latency http://127.0.0.1:8000/events/<slug>/leaderboard/
    wrk -t2 -c50 -d20s --latency http://127.0.0.1:8000/events/<slug>/rounds/2/bracket/

Prints the URL paths. DATABASE_URL from the environment, as for the site.

Scores changing while people read, as during a real event: ``--churn SECONDS --event SLUG`` records one
scored hand through the organizer's service (``tournament.services.results.record_hand``, which saves
it, moves the event's scores version and tells the live leaderboards, as a hand played live does) every
SECONDS at a random running table of the event, until stopped (Ctrl+C, SIGTERM) or for ``--duration``
seconds, then prints how many it recorded. ``--session`` prints the cookies of one of the event's players,
logged in (run it with the server's SECRET_KEY): the session and a CSRF cookie, as a browser has them
after its first page with a form: ``wrk -H "Cookie: sessionid=...; csrftoken=..."``. ``--sessions N``
prints N players' cookies, one line each, for ``bench/readers.lua`` (N readers, each their own).

    python bench/leaderboard_load.py --event load-d45f43 --churn 0.2
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


def build(players: int, hands: int, seats: int = 4, no_shows: float = 0.0, moves_per_hand: int = 6) -> str:
    """The event (see the module's docstring). Every seat's player made ``moves_per_hand`` moves of their
    own per hand at the game's live table (the participation rule, tournament/services/participation.py),
    except a ``no_shows`` share of the seats, for which the turn timer and a bot moved instead."""
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
        live_moves(games, by_table, hands, moves_per_hand, no_shows, rng)
    return f"/events/{event.slug}/leaderboard/"


def live_moves(games, by_table: dict[int, list], hands: int, per_hand: int, no_shows: float,
               rng: random.Random) -> None:
    """A live table per game and its moves, bulk-created: per hand a deal, then ``per_hand`` moves per seat,
    the player's own or (for a no-show's seat) the timer's and a bot's."""
    from games.models import LiveGame, LiveMove

    lives = LiveGame.objects.bulk_create(
        [LiveGame(kind=LiveGame.Kind.TOURNAMENT, game=g, title=f"game {g.pk}", preset="uno-official",
                  seat_count=len(by_table[g.table_id]), state={}) for g in games], batch_size=2000)
    rows = []
    for live, game in zip(lives, games, strict=True):
        absent = {s.number for s in by_table[game.table_id] if rng.random() < no_shows}
        version = 0
        for hand in range(hands):
            version += 1
            rows.append(LiveMove(live_game=live, version=version, hand_number=hand, actor=LiveMove.Actor.SYSTEM))
            for turn in range(per_hand):
                for seat in sorted(s.number for s in by_table[game.table_id]):
                    version += 1
                    actor = (LiveMove.Actor.PLAYER if seat not in absent else
                             LiveMove.Actor.TIMER if turn == 0 else LiveMove.Actor.BOT)
                    rows.append(LiveMove(live_game=live, version=version, hand_number=hand, seat=seat, actor=actor))
    LiveMove.objects.bulk_create(rows, batch_size=5000)


def score_hands(games, hands: int, rng: random.Random) -> None:
    """``hands`` scored hands for each game (winner-takes scores), bulk-created."""
    from django.utils import timezone

    from tournament.models import Hand, HandScore, Seat

    now = timezone.now()
    by_table: dict[int, list] = {}
    for seat in Seat.objects.filter(table_id__in=[g.table_id for g in games]).order_by("number"):
        by_table.setdefault(seat.table_id, []).append(seat)
    hand_rows = [Hand(game=g, number=h + 1, dealer=h % len(by_table[g.table_id]), started_at=now, ended_at=now)
                 for g in games for h in range(hands)]
    Hand.objects.bulk_create(hand_rows, batch_size=2000)
    score_rows = []
    for hand in hand_rows:
        table_seats = by_table[hand.game.table_id]
        winner = rng.choice(table_seats)
        left = {s.pk: 0 if s is winner else rng.randint(1, 60) for s in table_seats}
        hand.winner = winner
        score_rows += [HandScore(hand=hand, seat=s, points_left=left[s.pk],
                                 points_won=sum(left.values()) if s is winner else 0) for s in table_seats]
    Hand.objects.bulk_update(hand_rows, ["winner"], batch_size=2000)
    HandScore.objects.bulk_create(score_rows, batch_size=5000)


def build_bracket(slug: str, hands: int) -> str:
    """End round 1 of the event (every game won by its leading seat) and start a round-2 bracket through
    the bracket services; stage one's tables get ``hands`` scored hands each. Returns the bracket's path."""
    from django.contrib.auth import get_user_model
    from django.db import transaction
    from django.db.models import Sum
    from django.utils import timezone

    from tournament.models import Event, Game, HandScore, Round
    from tournament.services import next_round

    event = Event.objects.get(slug=slug)
    round_one = Round.objects.get(event=event, number=1)
    now = timezone.now()
    with transaction.atomic():
        leaders: dict[int, tuple[int, int]] = {}
        for game_id, seat_id, total in (HandScore.objects.filter(hand__game__table__round=round_one)
                                        .values_list("hand__game_id", "seat_id").annotate(t=Sum("points_won"))):
            if game_id not in leaders or (total, -seat_id) > (leaders[game_id][1], -leaders[game_id][0]):
                leaders[game_id] = (seat_id, total)
        games = list(Game.objects.filter(table__round=round_one))
        for game in games:
            game.status, game.finished_at = Game.Status.FINISHED, now
            game.winner_id = leaders.get(game.pk, (None, 0))[0]
        Game.objects.bulk_update(games, ["status", "finished_at", "winner"], batch_size=2000)
        Round.objects.filter(pk=round_one.pk).update(status=Round.Status.FINISHED)
    organizer = get_user_model().objects.create_superuser(f"{slug}-organizer", password=None)
    options = next_round.default_options(event)
    plan = next_round.plan_next_round(event, options)
    round_two = next_round.create_bracket_round(event, options, plan.field_ids, organizer)
    with transaction.atomic():  # stage one's games running, as start_stage does (without live tables)
        Game.objects.filter(table__round=round_two).update(status=Game.Status.RUNNING, started_at=now)
        Round.objects.filter(pk=round_two.pk).update(status=Round.Status.RUNNING, started_at=now)
        round_two.bracket_stages.filter(number=1).update(started_at=now)
        score_hands(list(Game.objects.filter(table__round=round_two).select_related("table")), hands,
                    random.Random(slug))
    from tournament.page_notices import notify_scores_changed

    notify_scores_changed(event)
    return f"/events/{slug}/rounds/{round_two.number}/bracket/"


def running_games(slug: str) -> list[int]:
    """Ids of the event's running games in running rounds."""
    from tournament.models import Game, Round

    return list(Game.objects.filter(table__round__event__slug=slug, status=Game.Status.RUNNING,
                                    table__round__status=Round.Status.RUNNING).values_list("pk", flat=True))


def churn(slug: str, every: float, duration: float | None, rng: random.Random) -> tuple[int, int, float]:
    """A scored hand every ``every`` seconds at a random running game of the event, through
    ``record_hand``, until interrupted or ``duration`` is over: (hands recorded, refused, seconds)."""
    from django.contrib.auth import get_user_model

    from tournament.models import Game, Hand
    from tournament.services.results import ResultError, game_seats, record_hand

    organizer, _ = get_user_model().objects.get_or_create(
        username=f"{slug}-organizer", defaults={"is_staff": True, "is_superuser": True})
    games = running_games(slug)
    if not games:
        raise SystemExit(f"No running game in event {slug!r}: nothing to score.")
    recorded = refused = 0
    started = time.monotonic()
    next_at = started
    try:
        while games and (duration is None or time.monotonic() - started < duration):
            game = Game.objects.get(pk=rng.choice(games))
            seats = game_seats(game)
            winner = rng.choice(seats)
            left = {seat.pk: 0 if seat is winner else rng.randint(1, 60) for seat in seats}
            number = (Hand.objects.filter(game=game).order_by("-number").values_list("number", flat=True).first()
                      or 0) + 1
            try:
                outcome = record_hand(game, number, winner.pk, left, organizer, "bench: scores changing")
                recorded += 1
                if outcome.game_finished:
                    games.remove(game.pk)
            except ResultError as error:  # a game that finished meanwhile, or is played live
                refused += 1
                games.remove(game.pk)
                print(f"skipped game {game.pk}: {error}", file=sys.stderr)
            next_at += every
            time.sleep(max(0.0, next_at - time.monotonic()))
    except KeyboardInterrupt:
        pass
    return recorded, refused, time.monotonic() - started


def player_sessions(slug: str, count: int = 1) -> list[str]:
    """Cookie headers of ``count`` of the event's players, logged in (needs the server's SECRET_KEY): the
    session and a CSRF cookie, as a browser holds them after its first page with a form."""
    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore
    from django.middleware.csrf import CSRF_ALLOWED_CHARS, CSRF_SECRET_LENGTH
    from django.utils.crypto import get_random_string

    from tournament.models import Player

    players = list(Player.objects.filter(event__slug=slug).select_related("user").order_by("pk")[:count])
    if len(players) < count:
        raise SystemExit(f"Event {slug!r} has {len(players)} players, not {count}.")
    cookies = []
    for player in players:
        session = SessionStore()
        session[SESSION_KEY] = str(player.user.pk)
        session[BACKEND_SESSION_KEY] = settings.AUTHENTICATION_BACKENDS[0]
        session[HASH_SESSION_KEY] = player.user.get_session_auth_hash()
        session.create()
        cookies.append(f"{settings.SESSION_COOKIE_NAME}={session.session_key}; "
                       f"{settings.CSRF_COOKIE_NAME}={get_random_string(CSRF_SECRET_LENGTH, CSRF_ALLOWED_CHARS)}")
    return cookies


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=10_000)
    parser.add_argument("--hands", type=int, default=3)
    parser.add_argument("--bracket", action="store_true", help="end round 1 and start a round-2 bracket")
    parser.add_argument("--event", metavar="SLUG", help="an event built before (for --churn, --session)")
    parser.add_argument("--churn", type=float, metavar="SECONDS",
                        help="record a scored hand every SECONDS at a random running table of --event")
    parser.add_argument("--duration", type=float, metavar="SECONDS", help="stop --churn after this long")
    parser.add_argument("--session", action="store_true", help="print the cookies of a logged-in player of --event")
    parser.add_argument("--sessions", type=int, metavar="N",
                        help="print the cookies of N logged-in players of --event, one line each")
    args = parser.parse_args()
    if (args.churn is not None or args.session or args.sessions) and not args.event:
        parser.error("--churn, --session and --sessions need --event SLUG (an event this script built)")
    if args.sessions is not None and not args.sessions > 0:
        parser.error("--sessions needs a number of players above 0")
    if args.churn is not None and not args.churn > 0:
        parser.error("--churn needs a number of seconds above 0")
    if args.duration is not None and args.churn is None:
        parser.error("--duration goes with --churn")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    if args.event:
        from tournament.models import Event

        if not Event.objects.filter(slug=args.event).exists():
            raise SystemExit(f"No event {args.event!r} in this database.")
        if args.session or args.sessions:
            print("\n".join(player_sessions(args.event, args.sessions or 1)))
        if args.churn is not None:
            import signal

            signal.signal(signal.SIGTERM, signal.default_int_handler)  # `kill` stops it as Ctrl+C does
            recorded, refused, seconds = churn(args.event, args.churn, args.duration, random.Random())
            print(f"churn: {recorded} hands recorded in {seconds:.1f} s ({recorded / seconds:.2f}/s, "
                  f"one asked every {args.churn:g} s), {refused} refused")
        return
    t0 = time.perf_counter()
    path = build(args.players, args.hands)
    print(f"{args.players} players, {args.hands} hands per table in {time.perf_counter() - t0:.1f} s: {path}")
    if args.bracket:
        t0 = time.perf_counter()
        bracket = build_bracket(path.split("/")[2], args.hands)
        print(f"round-2 bracket started in {time.perf_counter() - t0:.1f} s: {bracket}")


if __name__ == "__main__":
    main()
