"""The database side of the harness (Django): the event, its tables and logged-in users, and the check
afterwards that the stored moves are exactly the acknowledged ones and no socket saw a card not its own."""

from __future__ import annotations

import os
import secrets
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bench.live.clients import Client


def django_setup() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    if os.environ.get("REDIS_URL") and not os.environ.get("CHANNEL_LAYER_KEY"):
        # As production must (games.E001): table changes carry the cards through Redis, encrypted.
        os.environ["CHANNEL_LAYER_KEY"] = secrets.token_urlsafe(40)
    import django

    django.setup()


@dataclass
class Table:
    live_id: int
    cookies: list[str]  # per seat: "sessionid=..."


def create_tables(tables: int, seats: int, spectators: int, preset: str = "uno-official") -> tuple[list[Table], list[str], int]:
    """A running event with `tables` tables of `seats` logged-in players each (and `spectators` users).
    Returns the tables, the spectators' cookies and the event's id."""
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import make_password
    from django.test import Client
    from django.utils import timezone

    from tournament.models import Event, Game, Player, Round, Seat
    from tournament.models import Table as TableRow
    from tournament.services.live_tables import live_game_for

    tag = secrets.token_hex(3)
    password = make_password(None)  # unusable: bench users never log in with a password
    User = get_user_model()
    event = Event.objects.create(name=f"Bench {tag}", slug=f"bench-{tag}", rules_preset=preset, status="running",
                                 min_table_size=2, max_table_size=max(seats, 2), target_score=100_000,
                                 turn_seconds=0, missed_turns_before_bot=0)
    round_ = Round.objects.create(event=event, number=1, seed=1, status=Round.Status.RUNNING, started_at=timezone.now())

    def login(user) -> str:
        client = Client()
        client.force_login(user)
        return f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"

    out = []
    for t in range(tables):
        row = TableRow.objects.create(round=round_, number=t + 1)
        cookies = []
        for s in range(seats):
            user = User.objects.create(username=f"bench-{tag}-{t}-{s}", password=password)
            player = Player.objects.create(event=event, user=user, display_name=f"Bench {t}.{s}", status="checked_in")
            Seat.objects.create(table=row, number=s, player=player)
            cookies.append(login(user))
        game = Game.objects.create(table=row, number=1, target_score=100_000, status=Game.Status.RUNNING,
                                   started_at=timezone.now())
        live = live_game_for(game, seed=1000 + t)
        out.append(Table(live.pk, cookies))
    watchers = [login(User.objects.create(username=f"bench-{tag}-watch-{i}", password=password))
                for i in range(spectators)]
    return out, watchers, event.pk


def check_database(tables: list[Table], clients: list[Client]) -> list[str]:
    """Problems found: player moves stored but not acknowledged or acknowledged but not stored (or
    stored twice), and cards a socket saw that its seat was never dealt, drew or was shown."""
    from games.hidden_cards import known_cards
    from games.models import LiveMove

    problems = []
    by_live: dict[int, list] = {}
    for move in LiveMove.objects.filter(live_game_id__in=[t.live_id for t in tables]).order_by("live_game_id", "version"):
        by_live.setdefault(move.live_game_id, []).append(move)
    acked = {}
    for c in clients:
        for version, action in c.acked.items():
            if (c.live_id, version) in acked:
                problems.append(f"table {c.live_id}: version {version} acknowledged twice")
            acked[(c.live_id, version)] = (c.seat, action)
    stored = {}
    for live_id, moves in by_live.items():
        versions = [m.version for m in moves]
        if versions != list(range(1, len(versions) + 1)):
            problems.append(f"table {live_id}: stored versions are not 1..n")
        for m in moves:
            if m.actor == LiveMove.Actor.PLAYER:
                stored[(live_id, m.version)] = (m.seat, m.action)
    lost = set(acked) - set(stored)
    unacked = set(stored) - set(acked)
    if lost:
        problems.append(f"{len(lost)} acknowledged move(s) not in the database, e.g. {sorted(lost)[:3]}")
    if unacked:
        problems.append(f"{len(unacked)} stored player move(s) never acknowledged, e.g. {sorted(unacked)[:3]}")
    for key in set(acked) & set(stored):
        seat, action = acked[key]
        if stored[key][0] != seat or {k: v for k, v in stored[key][1].items() if k != "seat"} != action:
            problems.append(f"table {key[0]} version {key[1]}: stored {stored[key]}, acknowledged {(seat, action)}")
    for c in clients:
        if c.seat is None:
            if c.seen_private:
                problems.append(f"a spectator of table {c.live_id} saw hidden cards {sorted(c.seen_private)[:5]}")
            continue
        leaked = c.seen_private - known_cards(by_live.get(c.live_id, []), c.seat)
        if leaked:
            problems.append(f"seat {c.seat} of table {c.live_id} saw cards it never held: {sorted(leaked)[:5]}")
    return problems
