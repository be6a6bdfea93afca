"""Caps on sockets, through the real server (the live ASGI server, clients through `websockets`): sockets
open at once and opened per window, per account and per anonymous client address, each refused with
4430; the live leaderboard's, "My event"'s, the organizer's live round view's and the health probe's
sockets close a flood (4429) and a huge frame (4413) as a table's do."""

import json
import os
import time

import pytest

from access_tokens.services import create_token
from games.services.lifecycle import create_demo_bot_table, start_practice_game
from tests.live_asgi import live_asgi_workers  # noqa: F401 (fixture)
from tests.live_websockets import LoggedInSession, close_code, next_message, open_socket
from tests.tournament import organizer_factories
from tests.tournament.organizer_factories import make_user
from tests.tournament.standings_data import make_event, make_players, record_games, seat_round
from tournament.models import Event
from tournament.services import rounds

pytestmark = [pytest.mark.django_db(transaction=True)]

CAPS = {"SOCKET_MAX_OPEN_PER_ACCOUNT": 3, "SOCKET_MAX_OPEN_PER_ADDRESS": 4, "SOCKET_OPEN_RATE": [6, 30]}


@pytest.fixture
def live_asgi_settings(live_asgi_settings):
    return {**live_asgi_settings, **CAPS}


@pytest.fixture(autouse=True)
def _fresh_address_count():
    """The address's count of openings lives in the cache, which with Redis outlasts a test's server."""
    from django.core.cache import cache

    cache.delete("window-count:socket-opens:addr:127.0.0.1")


def first_state(socket) -> dict:
    return next_message(socket, "state")


def test_open_sockets_and_openings_are_capped_per_account_and_per_anonymous_address(live_asgi):
    student = make_user("student")
    mine = start_practice_game(student, "uno-official", 1, seed=5, turn_seconds=0)
    seats = [open_socket(live_asgi, mine.ws_path, user=student) for _ in range(3)]
    assert all(first_state(socket)["seat"] == 0 for socket in seats)
    fourth = open_socket(live_asgi, mine.ws_path, user=student)
    assert close_code(fourth, 10) == 4430  # 3 open at once for this account
    seats.pop().close()
    time.sleep(0.5)  # the server hears of the close
    again = open_socket(live_asgi, mine.ws_path, user=student)
    assert first_state(again)["seat"] == 0  # room for one again

    # Anonymous spectators from one address count against it, not against the student's account.
    table = create_demo_bot_table(seats=2, seed=1)
    watchers = [open_socket(live_asgi, table.ws_path) for _ in range(4)]
    assert all(first_state(socket)["role"] == "spectator" for socket in watchers)
    assert close_code(open_socket(live_asgi, table.ws_path), 10) == 4430  # 4 open at once
    for socket in watchers[:3]:
        socket.close()
    time.sleep(0.5)
    # 5 attempts in this window (every attempt counts), of 6: one more opens, the next is refused though
    # only two are open.
    assert first_state(open_socket(live_asgi, table.ws_path))["role"] == "spectator"
    assert close_code(open_socket(live_asgi, table.ws_path), 10) == 4430
    for socket in [*seats, again, *watchers[3:]]:
        socket.close()


def test_logged_in_sockets_of_many_accounts_are_capped_per_client_address(live_asgi_workers):  # noqa: F811
    """Two accounts from one address, each under its own cap of 3: together they meet the address's cap
    for logged-in sockets (4), which anonymous sockets from that address do not count against."""
    server = live_asgi_workers({"SOCKET_MAX_OPEN_PER_ADDRESS_LOGGED_IN": 4, "SOCKET_OPEN_RATE": [100, 30]})
    first, second = make_user("first"), make_user("second")
    tables = [start_practice_game(user, "uno-official", 1, seed=5, turn_seconds=0) for user in (first, second)]
    held = [open_socket(server, tables[0].ws_path, user=first) for _ in range(3)]
    held.append(open_socket(server, tables[1].ws_path, user=second))
    assert all(first_state(socket)["seat"] == 0 for socket in held)
    assert close_code(open_socket(server, tables[1].ws_path, user=second), 10) == 4430  # 5th from the address
    watcher = open_socket(server, create_demo_bot_table(seats=2, seed=1).ws_path)  # anonymous: its own count
    assert first_state(watcher)["role"] == "spectator"
    held.pop().close()
    time.sleep(0.5)  # the server hears of the close
    assert first_state(open_socket(server, tables[1].ws_path, user=second))["seat"] == 0
    for socket in [*held, watcher]:
        socket.close()


def public_event() -> Event:
    event = make_event(slug="live", status=Event.Status.RUNNING)
    players = make_players(event, ["Asha", "Ravi", "Meera"])
    _round, tables = seat_round(event, players, table_size=3)
    record_games(tables, [(0, [0, 10, 5])])
    return event


def flood_target(page: str) -> tuple[str, object, str, dict]:
    """(socket path, user or None, type of its first frame, a frame it reads) for one of the sockets whose
    frames pass `games.socket_limits` besides a table's."""
    if page == "live_round":
        event = organizer_factories.make_event(min_table_size=3, max_table_size=3, turn_seconds=0)
        organizer = organizer_factories.make_organizer_of(event)
        organizer_factories.make_players(event, 3)
        round_ = rounds.create_first_round(event, rounds.plan_first_round(event, seed=4), organizer)
        return f"/ws/organizer/rounds/{round_.pk}/", organizer, "round", {"type": "refresh"}
    if page == "health":
        return "/ws/health/", None, "hello", {"type": "ping"}
    event = public_event()
    if page == "my_event":
        return f"/ws/events/{event.slug}/me/", event.players.first().user, "my_event", {"type": "refresh"}
    return f"/ws/events/{event.slug}/", None, "leaderboard", {"type": "refresh"}


@pytest.mark.parametrize("page", ["leaderboard", "my_event", "live_round", "health"])
def test_event_organizer_and_health_sockets_close_a_flood_and_a_huge_frame(live_asgi, page):
    path, user, first, frame = flood_target(page)
    flooded = open_socket(live_asgi, path, user=user)
    next_message(flooded, first)
    for _ in range(60):  # 20 per 5 s are answered; past 40 the socket is closed
        try:
            flooded.send(json.dumps(frame))
        except Exception:  # noqa: BLE001 - closed while sending: what is asserted below
            break
    assert close_code(flooded, 10) == 4429
    huge = open_socket(live_asgi, path, user=user)
    next_message(huge, first)
    huge.send("x" * 70_000)
    assert close_code(huge, 10) == 4413


def test_workers_share_the_opening_count_and_a_revocation_reaches_every_worker(live_asgi_workers):  # noqa: F811
    """Two workers on one Redis (as behind a load balancer): the openings counted by one count on the
    other, and a token revoked through one closes its socket on the other through the channel layer
    (each worker's own recheck is off here, so only the layer can do it)."""
    from django.db import connection

    if connection.vendor != "postgresql" or not os.environ.get("REDIS_URL"):
        pytest.skip("several workers need a shared database, cache and channel layer: run with "
                    "DATABASE_URL=postgres://... and REDIS_URL=redis://... (CI's PostgreSQL + Redis run does)")
    tag = f"caps-{os.getpid()}-{time.monotonic_ns()}"
    environ = {"CHANNEL_LAYER_PREFIX": tag, "CACHE_KEY_PREFIX": tag}
    settings = {**CAPS, "SOCKET_MAX_OPEN_PER_ADDRESS": 100, "ACCESS_TOKEN_RECHECK_SECONDS": 0}
    a, b = live_asgi_workers(settings, environ), live_asgi_workers(settings, environ)
    table = create_demo_bot_table(seats=2, seed=1)
    watchers = [open_socket(server, table.ws_path) for server in (a, b, a, b, a, b)]
    assert all(first_state(socket)["role"] == "spectator" for socket in watchers)
    assert close_code(open_socket(a, table.ws_path), 10) == 4430  # the 7th of 6, counted on both

    owner = make_user("owner")
    live = start_practice_game(owner, "uno-official", 1, seed=5, turn_seconds=0, with_my_bot=True)
    made = create_token(owner, "bot")
    bot = open_socket(b, live.ws_path, token=made.secret)
    first_state(bot)
    revoked = LoggedInSession(a, owner).post_form(f"/account/tokens/{made.token.pk}/revoke/", {},
                                                   form_page="/account/tokens/")
    assert revoked == 200
    assert close_code(bot, 5) == 4401
    for socket in watchers:
        socket.close()
