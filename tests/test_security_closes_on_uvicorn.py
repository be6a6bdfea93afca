"""Every security close of a websocket, on the server `make prod` runs (uvicorn, which carries close reasons
to the client; Daphne drops them): its code and the words a client reads. One uvicorn serves the whole
module; each test comes from its own client address (`X-Forwarded-For`, believed from 127.0.0.1 as behind a
proxy), so that the caps' counts of one test never reach another."""

import os
import time

import pytest
from websockets.exceptions import InvalidStatus

from access_tokens.revocation import REVOKED_REASON
from access_tokens.services import create_token
from access_tokens.websocket import IN_URL_REASON, NOT_FOR_TOKENS_REASON
from config.websocket_origin import FOREIGN_ORIGIN_REASON
from games.services.lifecycle import start_practice_game
from tests.live_asgi import LiveASGIServer, live_asgi_database_cleanup  # noqa: F401 (fixture)
from tests.live_websockets import LoggedInSession, close_frame, next_message, open_socket
from tests.tournament import organizer_factories
from tests.tournament.organizer_factories import make_user
from tournament.services import rounds

pytestmark = [pytest.mark.django_db(transaction=True)]

CAPS = {"SOCKET_OPEN_RATE": [5, 60], "SOCKET_MAX_OPEN_PER_ACCOUNT": 2, "SOCKET_MAX_OPEN_PER_ADDRESS": 2,
        "SOCKET_MAX_OPEN_PER_ADDRESS_LOGGED_IN": 3}


@pytest.fixture(scope="module")
def uvicorn_server(django_db_setup, django_db_blocker, live_asgi_database_cleanup):  # noqa: F811
    """uvicorn as `make prod` runs it, on the test database, for the whole module (tests commit their data
    with `transaction=True`; the server only reads it). Its cache keys and channel layer are its own."""
    from django.db import connection

    if connection.vendor == "sqlite" and connection.is_in_memory_db():
        pytest.fail("the live server needs a file-based SQLite test database (config/environment.py)")
    tag = f"closes-{os.getpid()}-{time.monotonic_ns()}"
    server = LiveASGIServer(str(connection.settings_dict["NAME"]), {**CAPS, "LIVE_BOT_THINK_SECONDS": [0.05, 0.15]}, {
        "LIVE_ASGI_SERVER": "uvicorn", "FORWARDED_ALLOW_IPS": "127.0.0.1",
        "CACHE_KEY_PREFIX": tag, "CHANNEL_LAYER_PREFIX": tag}).start()
    yield server
    server.stop()


def test_tokens_in_the_url_on_an_organizer_socket_and_revoked_are_closed_with_why(uvicorn_server):
    server, address = uvicorn_server, "10.0.0.1"
    student = make_user("student")
    live = start_practice_game(student, "uno-official", 1, seed=5, turn_seconds=0, with_my_bot=True)
    made = create_token(student, "bot")
    in_url = open_socket(server, f"{live.ws_path}?token={made.secret}", origin=False, forwarded_for=address)
    assert close_frame(in_url, 10) == (4401, IN_URL_REASON)

    event = organizer_factories.make_event(min_table_size=3, max_table_size=3, turn_seconds=0)
    organizer = organizer_factories.make_organizer_of(event)
    organizer_factories.make_players(event, 3)
    round_ = rounds.create_first_round(event, rounds.plan_first_round(event, seed=4), organizer)
    organizers_token = create_token(organizer, "script")
    socket = open_socket(server, f"/ws/organizer/rounds/{round_.pk}/", token=organizers_token.secret,
                         forwarded_for=address)
    assert close_frame(socket, 10) == (4403, NOT_FOR_TOKENS_REASON)

    bot = open_socket(server, live.ws_path, token=made.secret, forwarded_for=address)
    assert next_message(bot, "state")["seat"] == 0
    revoked = LoggedInSession(server, student).post_form(f"/account/tokens/{made.token.pk}/revoke/", {},
                                                         form_page="/account/tokens/")
    assert revoked == 200
    assert close_frame(bot, 5) == (4401, REVOKED_REASON)


@pytest.mark.parametrize("origin", ["https://127.0.0.1:{port}", "http://127.0.0.1:1", "ws://127.0.0.1:{port}"])
def test_an_origin_of_another_scheme_or_port_is_refused_with_why(uvicorn_server, origin):
    with pytest.raises(InvalidStatus) as refused:
        open_socket(uvicorn_server, "/ws/health/", origin=origin.format(port=uvicorn_server.port),
                    forwarded_for="10.0.0.2")
    assert refused.value.response.status_code == 403
    assert refused.value.response.body.decode() == FOREIGN_ORIGIN_REASON
    same = open_socket(uvicorn_server, "/ws/health/", forwarded_for="10.0.0.2")  # its own origin opens
    assert next_message(same, "hello")["user"] is None
    same.close()


def test_a_flood_is_closed_with_why(uvicorn_server):
    flooded = open_socket(uvicorn_server, "/ws/health/", forwarded_for="10.0.0.3")
    next_message(flooded, "hello")
    for _ in range(60):  # 20 per 5 s are answered; past 40 the socket is closed
        try:
            flooded.send('{"type": "ping"}')
        except Exception:  # noqa: BLE001 - closed while sending: what is asserted below
            break
    assert close_frame(flooded, 10) == (4429, "too many messages (limit 20 per 5 s): slow down, then reconnect")


def test_each_socket_cap_is_closed_with_which_cap_it_met(uvicorn_server):
    server = uvicorn_server

    def health(address: str, user=None):
        return open_socket(server, "/ws/health/", user=user, forwarded_for=address)

    held = [health("10.0.1.1"), health("10.0.1.1")]  # anonymous sockets from one address: 2 at once
    assert all(next_message(socket, "hello") for socket in held)
    assert close_frame(health("10.0.1.1"), 10) == (
        4430, "too many open sockets for this address (limit 2): close some first")
    for _ in range(2):  # every attempt counts toward the rate, a refused one too: the 4th and 5th of 5...
        assert close_frame(health("10.0.1.1"), 10)[0] == 4430
    assert close_frame(health("10.0.1.1"), 10) == (  # ...and the 6th meets the rate
        4430, "too many sockets opened by this address (limit 5 per 60 s): wait a little, then try again")

    first, second = make_user("first"), make_user("second")
    held += [health("10.0.2.1", first), health("10.0.2.1", first)]
    assert all(next_message(socket, "hello") for socket in held[2:])
    assert close_frame(health("10.0.2.1", first), 10) == (
        4430, "too many open sockets for this account (limit 2): close some first")
    held.append(health("10.0.2.1", second))
    assert next_message(held[-1], "hello")["user"] == "second"
    assert close_frame(health("10.0.2.1", second), 10) == (  # 3 logged-in sockets from this address
        4430, "too many open sockets of logged-in accounts from this address (limit 3): close some first")
    for socket in held:
        socket.close()
