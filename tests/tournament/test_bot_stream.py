"""The bots' stream (tournament/bot_stream.py) through the real ASGI application: a bot holding its
owner's token hears at once that check-in opened (and checks in through the API), that its table is
ready when the organizer starts the round (event, round, table, seat, rules, the socket to open), and
that a practice table for it was started; a token that may not read tables, a browser socket and a bad
frame are refused with a clear answer."""

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from access_tokens.models import PLAY_TABLES
from access_tokens.services import create_token
from config.asgi import application
from games.services.lifecycle import start_practice_game
from tests.tournament.organizer_factories import make_event, make_organizer_of, make_players
from tournament.models import Event, Player
from tournament.services import event_status, rounds

pytestmark = [pytest.mark.django_db(transaction=True)]


def stream(secret: str | None) -> WebsocketCommunicator:
    headers = [(b"authorization", f"Bearer {secret}".encode())] if secret else \
        [(b"origin", b"http://127.0.0.1:8000"), (b"host", b"127.0.0.1:8000")]
    return WebsocketCommunicator(application, "/ws/bots/stream/", headers=headers)


async def next_of(socket, kind: str, timeout: float = 5) -> dict:
    while True:
        message = await socket.receive_json_from(timeout=timeout)
        if message["type"] == kind:
            return message


@database_sync_to_async
def registered_league():
    event = make_event(status=Event.Status.RUNNING, min_table_size=4, max_table_size=4, target_score=100)
    organizer = make_organizer_of(event)
    players = make_players(event, 4, status=Player.Status.REGISTERED)
    return event, organizer, players, create_token(players[0].user, "my bot").secret


async def test_the_stream_tells_check_in_then_the_table_and_the_bot_checks_itself_in():
    event, organizer, players, secret = await registered_league()
    socket = stream(secret)
    connected, _ = await socket.connect()
    assert connected
    assert (await socket.receive_json_from())["type"] == "hello"
    assert await socket.receive_nothing(0.3)  # nothing ready yet

    await database_sync_to_async(event_status.set_checkin)(event, organizer, True)
    told = await next_of(socket, "checkin_open")
    assert told == {"type": "checkin_open", "event": event.slug, "check_in": f"/api/events/{event.slug}/check-in/"}

    def check_in_everyone() -> list[int]:
        answers = [Client().post(told["check_in"], HTTP_AUTHORIZATION=f"Bearer {secret}").status_code]
        again = Client().post(told["check_in"], HTTP_AUTHORIZATION=f"Bearer {secret}")
        answers.append(again.status_code)
        assert "already checked in" in again.json()["error"]
        Player.objects.filter(event=event).exclude(pk=players[0].pk).update(status=Player.Status.CHECKED_IN)
        return answers

    assert await database_sync_to_async(check_in_everyone)() == [200, 409]
    assert (await database_sync_to_async(Player.objects.get)(pk=players[0].pk)).status == Player.Status.CHECKED_IN

    def seat_and_start():
        plan = rounds.plan_first_round(event, seed=1, source=rounds.CHECKED_IN)
        rounds.start_round(rounds.create_first_round(event, plan, organizer), organizer)

    await database_sync_to_async(seat_and_start)()
    ready = await next_of(socket, "table_ready")
    assert (ready["event"], ready["round"], ready["stage"], ready["table"]) == (event.slug, 1, None, 1)
    assert ready["kind"] == "tournament" and ready["rules"] == event.rules_preset and ready["seat"] in range(4)
    assert ready["ws_path"] == f"/ws/games/{ready['game']}/"
    await socket.send_json_to({"type": "ping", "echo": 3})
    assert await next_of(socket, "pong") == {"type": "pong", "echo": 3}
    assert [m for m in [await socket.receive_nothing(0.3)] if not m] == []  # told once, not again
    await socket.disconnect()


async def test_a_practice_table_for_my_bot_is_told_at_once_and_on_connect():
    event, organizer, players, secret = await registered_league()
    user = players[0].user
    socket = stream(secret)
    await socket.connect()
    await next_of(socket, "hello")
    live = await database_sync_to_async(start_practice_game)(user, "uno-official", 2, seed=5, with_my_bot=True)
    ready = await next_of(socket, "table_ready")
    assert (ready["game"], ready["kind"], ready["event"], ready["seat"], ready["bot_seat"]) == \
        (live.pk, "practice", None, 0, True)
    await database_sync_to_async(start_practice_game)(user, "uno-official", 2, seed=6)  # not the bot's
    assert await socket.receive_nothing(0.5)
    await socket.disconnect()
    again = stream(secret)  # a bot that reconnects is told what is ready at once
    await again.connect()
    await next_of(again, "hello")
    assert (await next_of(again, "table_ready"))["game"] == live.pk
    await again.disconnect()


async def test_the_stream_refuses_what_it_does_not_serve():
    event, organizer, players, _secret = await registered_league()
    play_only = (await database_sync_to_async(create_token)(players[1].user, "writer", scopes=[PLAY_TABLES])).secret
    socket = stream(play_only)
    await socket.connect()
    closed = await socket.receive_output()
    assert closed["type"] == "websocket.close" and closed["code"] == 4403 and "read your tables" in closed["reason"]

    browser = stream(None)  # a page's socket: the stream is a token's only
    await browser.connect()
    closed = await browser.receive_output()
    assert closed["type"] == "websocket.close" and closed["code"] == 4403 and "access token" in closed["reason"]

    secret = (await database_sync_to_async(create_token)(players[2].user, "mine")).secret
    socket = stream(secret)
    await socket.connect()
    await next_of(socket, "hello")
    await socket.send_to(text_data="not json")
    error = await next_of(socket, "error")
    assert error["code"] == "malformed" and "only" in error["message"]
    await socket.send_json_to({"type": "move"})
    assert (await next_of(socket, "error"))["code"] == "malformed"
    await socket.disconnect()


def test_the_check_in_api_answers_bad_requests_clearly(client, django_user_model):
    from tests.tournament.organizer_factories import make_user

    user = make_user("lonebot")
    secret = create_token(user, "bot").secret
    auth = {"HTTP_AUTHORIZATION": f"Bearer {secret}"}
    assert client.get("/api/events/nowhere/check-in/", **auth).status_code == 405
    missing = client.post("/api/events/nowhere/check-in/", **auth)
    assert missing.status_code == 404 and missing.json()["error"] == "No event nowhere."
    event = make_event(status=Event.Status.RUNNING)
    other = client.post(f"/api/events/{event.slug}/check-in/", **auth)
    assert other.status_code == 404 and "not registered" in other.json()["error"]
    assert client.post(f"/api/events/{event.slug}/check-in/").status_code == 401
    read_only = create_token(user, "reader", scopes=["tables:read"]).secret
    assert client.post(f"/api/events/{event.slug}/check-in/",
                       HTTP_AUTHORIZATION=f"Bearer {read_only}").status_code == 403
