"""Builders of tournament data for the student/viewer tests: events, players, seated rounds, games.

Everything goes through ``bulk_create`` so the same builders make 10 players or 1,000.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.utils import timezone

from tournament.models import Event, Game, Hand, HandScore, Player, Round, Seat, Table


def make_event(slug: str = "ocho", status: str = Event.Status.RUNNING, **fields) -> Event:
    fields.setdefault("name", f"Event {slug}")
    fields.setdefault("rules_preset", "ocho-plato")
    return Event.objects.create(slug=slug, status=status, **fields)


def make_players(event: Event, names: list[str], prefix: str | None = None) -> list[Player]:
    """One user and one player per name; usernames are the names lower-cased (with an optional prefix)."""
    User = get_user_model()
    prefix = prefix if prefix is not None else f"{event.slug}-"
    users = User.objects.bulk_create(
        [User(username=f"{prefix}{name.lower()}", password="!", email=f"{name.lower()}@example.com") for name in names]
    )
    return Player.objects.bulk_create(
        [
            Player(event=event, user=user, display_name=name, roll_number=f"{prefix}R{index:05d}")
            for index, (user, name) in enumerate(zip(users, names, strict=True))
        ]
    )


@dataclass
class SeatedTable:
    table: Table
    seats: list[Seat]


def seat_round(
    event: Event, players: list[Player], table_size: int = 4, number: int = 1, status: str = Round.Status.RUNNING
) -> tuple[Round, list[SeatedTable]]:
    """A round whose tables take the players in order, ``table_size`` to a table."""
    round_ = Round.objects.create(
        event=event, number=number, status=status, seed=1234, started_at=timezone.now() if status != "planned" else None
    )
    groups = [players[i : i + table_size] for i in range(0, len(players), table_size)]
    tables = Table.objects.bulk_create([Table(round=round_, number=n) for n in range(1, len(groups) + 1)])
    seats = Seat.objects.bulk_create(
        [Seat(table=table, number=i, player=player) for table, group in zip(tables, groups, strict=True) for i, player in enumerate(group)]
    )
    by_table: dict[int, list[Seat]] = {}
    for seat in seats:
        by_table.setdefault(seat.table_id, []).append(seat)
    return round_, [SeatedTable(table, by_table[table.pk]) for table in tables]


def record_games(
    tables: list[SeatedTable], hands: list[tuple[int, list[int]]], winner: int | None = None, target: int = 200
) -> list[Game]:
    """One game per table with the same hands at each: ``(winner seat index, points left per seat)``.

    The hand's winner scores the sum of the others' points left (the UNO rule); ``winner`` is the seat
    index of the game's winner, if the game is over.
    """
    games = Game.objects.bulk_create(
        [
            Game(
                table=t.table,
                target_score=target,
                status=Game.Status.FINISHED if winner is not None else Game.Status.RUNNING,
                winner=t.seats[winner] if winner is not None else None,
            )
            for t in tables
        ]
    )
    hand_rows = Hand.objects.bulk_create(
        [
            Hand(game=game, number=n, dealer=(n - 1) % len(t.seats), winner=t.seats[win], source=Hand.Source.MANUAL)
            for game, t in zip(games, tables, strict=True)
            for n, (win, _left) in enumerate(hands, start=1)
        ]
    )
    scores = []
    index = 0
    for t in tables:
        for win, left in hands:
            hand = hand_rows[index]
            index += 1
            for i, seat in enumerate(t.seats):
                won = sum(left) - left[i] if i == win else 0
                scores.append(HandScore(hand=hand, seat=seat, points_left=left[i], points_won=won))
    HandScore.objects.bulk_create(scores)
    return games
