"""The "My event" socket through the real ASGI application: a student's page is pushed when the organizer
seats and starts the round and when their game ends; the organizer's announcements reach it at once and
the latest is sent after the first page; only logged-in users, only their own page; bad messages are
answered with an error."""

import json

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from config.asgi import application
from tests.games.factories import session_cookie
from tests.tournament.bracket_factories import finish_table
from tests.tournament.organizer_factories import make_event, make_organizer_of, make_players
from tournament.models import Event, Game, Player
from tournament.services import announcements, rounds

pytestmark = [pytest.mark.django_db(transaction=True)]

ORIGIN = (b"origin", b"http://127.0.0.1:8000")
HOST = (b"host", b"127.0.0.1:8000")


@database_sync_to_async
def checked_in_event():
    event = make_event(status=Event.Status.RUNNING, min_table_size=4, max_table_size=4, target_score=100)
    organizer = make_organizer_of(event)
    players = make_players(event, 8, status=Player.Status.CHECKED_IN)
    return event, organizer, players


async def my_socket(event, user=None) -> WebsocketCommunicator:
    headers = [ORIGIN, HOST]
    if user is not None:
        headers.append((b"cookie", await database_sync_to_async(session_cookie)(user)))
    return WebsocketCommunicator(application, f"/ws/events/{event.slug}/me/", headers=headers)


async def next_page(socket, step: str, timeout: float = 5) -> dict:
    while True:
        message = await socket.receive_json_from(timeout=timeout)
        if message["type"] == "my_event" and message["step"] == step:
            return message


async def next_announcement(socket, timeout: float = 5) -> dict:
    """The next announcement, past any page the announcement's audit entry may send again."""
    while True:
        message = await socket.receive_json_from(timeout=timeout)
        if message["type"] == "announcement":
            return message


async def test_the_students_page_is_pushed_as_the_round_is_seated_started_and_played():
    event, organizer, players = await checked_in_event()
    me = players[0]
    socket = await my_socket(event, me.user)
    connected, _ = await socket.connect(timeout=10)
    assert connected
    first = await socket.receive_json_from(timeout=5)
    assert first["type"] == "my_event" and first["step"] == "wait_table"
    assert "You are checked in." in first["html"] and "Student" in first["html"]

    @database_sync_to_async
    def seat_round():
        plan = rounds.plan_first_round(event, seed=1, source=rounds.CHECKED_IN)
        return rounds.create_first_round(event, plan, organizer)

    round_ = await seat_round()
    seated = await next_page(socket, "seated")
    assert "Your table for round 1." in seated["html"] and "See my table" in seated["html"]
    assert "Go to my table" not in seated["html"]  # one button to the table: the next step's

    await database_sync_to_async(rounds.start_round)(round_, organizer)
    ready = await next_page(socket, "play")
    game = await database_sync_to_async(Game.objects.get)(table__seats__player=me)
    assert "Your table is ready" in ready["html"]
    assert f'href="/play/games/{game.pk}/"' in ready["html"] and "Play now" in ready["html"]

    await database_sync_to_async(finish_table)(game, actor=organizer)
    over = await next_page(socket, "between")
    assert "Your games of round 1 are over." in over["html"]
    await socket.disconnect()


async def test_an_announcement_made_while_the_page_is_open_reaches_it():
    event, organizer, players = await checked_in_event()
    socket = await my_socket(event, players[0].user)
    assert (await socket.connect(timeout=10))[0]
    assert (await socket.receive_json_from(timeout=5))["type"] == "my_event"
    assert await socket.receive_nothing(timeout=0.2), "no announcement yet: nothing else is sent"
    await database_sync_to_async(announcements.announce)(event, "Round 2 starts at 3 pm", organizer)
    message = await next_announcement(socket)
    assert message["text"] == "Round 2 starts at 3 pm" and message["at"]
    await socket.disconnect()


async def test_the_latest_announcement_is_sent_once_after_the_first_page():
    event, organizer, players = await checked_in_event()
    await database_sync_to_async(announcements.announce)(event, "Old news", organizer)
    await database_sync_to_async(announcements.announce)(event, "Tables 1-2 move to room B", organizer)
    socket = await my_socket(event, players[0].user)
    assert (await socket.connect(timeout=10))[0]
    assert (await socket.receive_json_from(timeout=5))["type"] == "my_event"
    latest = await socket.receive_json_from(timeout=5)
    assert latest["type"] == "announcement" and latest["text"] == "Tables 1-2 move to room B"
    await socket.send_json_to({"type": "refresh"})
    assert (await socket.receive_json_from(timeout=5))["type"] == "my_event"
    assert await socket.receive_nothing(timeout=0.2), "a refresh sends the page, not the announcement again"
    await socket.disconnect()


async def test_each_student_gets_only_their_own_page():
    event, organizer, players = await checked_in_event()
    socket = await my_socket(event, players[1].user)
    await socket.connect(timeout=10)
    first = await socket.receive_json_from(timeout=5)
    assert players[1].display_name in first["html"] and players[0].display_name not in first["html"]
    assert players[1].roll_number in first["html"]
    await socket.disconnect()


async def test_anonymous_and_unknown_events_are_refused():
    event, organizer, players = await checked_in_event()
    anonymous = await my_socket(event)
    connected, code = await anonymous.connect(timeout=10)
    assert not connected and code == 4403
    missing = WebsocketCommunicator(application, "/ws/events/no-such-event/me/", headers=[
        ORIGIN, HOST, (b"cookie", await database_sync_to_async(session_cookie)(players[0].user))])
    connected, code = await missing.connect(timeout=10)
    assert not connected and code == 4404


@pytest.mark.parametrize("frame", ["not json", json.dumps({"type": "move"}), json.dumps([1]), "x" * 300])
async def test_bad_messages_get_an_error(frame):
    event, organizer, players = await checked_in_event()
    socket = await my_socket(event, players[0].user)
    await socket.connect(timeout=10)
    await socket.receive_json_from(timeout=5)
    await socket.send_to(text_data=frame)
    answer = await socket.receive_json_from(timeout=5)
    assert answer["type"] == "error" and answer["error"]
    await socket.send_to(text_data=json.dumps({"type": "refresh"}))
    assert (await socket.receive_json_from(timeout=5))["type"] == "my_event"
    await socket.disconnect()
