"""Small builders for the organizer-side tests (events, organizers, players, a seated round)."""

from __future__ import annotations

import functools
import itertools

from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password

from tournament.models import Event, Player
from tournament.services.organizers import make_organizer

PASSWORD = "pw-for-tests-1"
_counter = itertools.count(1)


def make_event(**fields) -> Event:
    n = next(_counter)
    defaults = {"name": f"Event {n}", "slug": f"event-{n}", "rules_preset": "uno-official",
                "min_table_size": 3, "max_table_size": 4, "target_score": 500}
    defaults.update(fields)
    return Event.objects.create(**defaults)


@functools.cache
def _password_hash() -> str:
    return make_password(PASSWORD)  # hashed once: PBKDF2 per user would make the tests slow


def make_user(username: str | None = None, **fields):
    username = username or f"user{next(_counter)}"
    return get_user_model().objects.create(username=username, password=_password_hash(), **fields)


def make_verified_user(username: str | None = None, email: str | None = None, **fields):
    """A student account whose e-mail address is verified (as after opening the sign-up link)."""
    from tournament.services.email_verification import mark_verified

    username = username or f"user{next(_counter)}"
    user = make_user(username, email=email or f"{username}@students.example", **fields)
    mark_verified(user)
    return user


def make_organizer_of(event: Event, username: str | None = None):
    user = make_user(username or f"org{next(_counter)}")
    make_organizer(user, event)
    return user


def make_players(event: Event, count: int, status: str = Player.Status.REGISTERED) -> list[Player]:
    players = []
    for _ in range(count):
        n = next(_counter)
        user = make_user(f"student{n}")
        players.append(Player.objects.create(event=event, user=user, display_name=f"Student {n}",
                                             roll_number=f"R{n:05d}", status=status))
    return players


def pause_for_paper(game, actor=None) -> None:
    """Pause a running game whose live table is open, as an organizer does before recording hands by hand
    (``results.record_hand`` refuses them while the table plays live)."""
    from games.models import LiveGame
    from tournament.models import Game
    from tournament.services import game_status

    game.refresh_from_db(fields=["status"])
    if game.status == Game.Status.RUNNING and LiveGame.objects.filter(
            game=game, status=LiveGame.Status.RUNNING).exists():
        game_status.change_game_status(game, "pause", actor)


def seat_first_round_in_admin(client, event, seed: int = 1, source: str = "registered", **options):
    """Preview round 1 on the organizer's page and confirm it, as an organizer does; the response."""
    from django.urls import reverse

    from tournament.models import RoundDraft

    url = reverse("admin:tournament_event_first_round", args=[event.pk])
    client.post(url, {"seed": str(seed), "source": source, "preview": "Preview", **options})
    draft = RoundDraft.objects.get(event=event)
    return client.post(url, {"version": draft.version, "confirm": "Confirm"})


def bulk_players(event: Event, count: int, status: str = Player.Status.CHECKED_IN) -> list[Player]:
    """``count`` players in a few queries (for rounds of hundreds or thousands)."""
    first = next(_counter)
    for _ in range(count):
        next(_counter)
    users = get_user_model().objects.bulk_create(
        [get_user_model()(username=f"bulk{first}-{i}", password=_password_hash()) for i in range(count)])
    return Player.objects.bulk_create(
        [Player(event=event, user=user, display_name=f"Student {first}-{i}", roll_number=f"B{first}-{i:05d}",
                status=status) for i, user in enumerate(users)])
