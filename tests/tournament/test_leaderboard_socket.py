"""The live leaderboard through the real ASGI application: connect, updates after notify_scores_changed,
and every kind of bad client message answered with an error."""

import json

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from config.asgi import application
from tests.tournament.standings_data import make_event, make_players, record_games, seat_round
from tournament.models import Event, HandScore
from tournament.page_notices import notify_scores_changed

pytestmark = [pytest.mark.django_db(transaction=True)]

ORIGIN = [(b"origin", b"http://127.0.0.1:8000"), (b"host", b"127.0.0.1:8000")]


@database_sync_to_async
def build_event(status=Event.Status.RUNNING):
    event = make_event(slug="live", status=status)
    players = make_players(event, ["Asha", "Ravi", "Meera"])
    _round, tables = seat_round(event, players, table_size=3)
    record_games(tables, [(0, [0, 10, 5])])
    return event


async def connect(path="/ws/events/live/"):
    communicator = WebsocketCommunicator(application, path, headers=ORIGIN)
    connected, _ = await communicator.connect()
    return communicator, connected


async def test_connect_sends_the_current_public_leaderboard():
    await build_event()
    communicator, connected = await connect()
    assert connected
    message = await communicator.receive_json_from()
    assert message["type"] == "leaderboard"
    # Asha went out with Ravi holding 10 and Meera 5: 15 points; Meera beats Ravi on fewer points left.
    assert [(r["rank"], r["display_name"], r["points_won"]) for r in message["rows"]] == [
        (1, "Asha", 15),
        (2, "Meera", 0),
        (3, "Ravi", 0),
    ]
    assert set(message["rows"][0]) == {
        "player_id", "rank", "display_name", "points_won", "games_won", "hands_won", "points_left", "status",
        "participation", "participation_label", "place",
    }, "only public data: no roll number, no e-mail, no user"
    await communicator.disconnect()


async def test_notify_scores_changed_pushes_fresh_rows():
    event = await build_event()
    communicator, _ = await connect()
    await communicator.receive_json_from()

    @database_sync_to_async
    def ravi_scores_100():
        score = HandScore.objects.get(seat__player__display_name="Ravi")
        score.points_won = 100
        score.save()
        notify_scores_changed(event)

    await ravi_scores_100()
    message = await communicator.receive_json_from(timeout=5)
    assert message["type"] == "leaderboard"
    assert (message["rows"][0]["display_name"], message["rows"][0]["points_won"]) == ("Ravi", 100)
    await communicator.disconnect()


async def test_notify_inside_a_transaction_waits_for_the_commit():
    event = await build_event()
    communicator, _ = await connect()
    await communicator.receive_json_from()

    @database_sync_to_async
    def rolled_back_change():
        from django.db import transaction

        try:
            with transaction.atomic():
                HandScore.objects.filter(seat__player__display_name="Ravi").update(points_won=500)
                notify_scores_changed(event)
                raise RuntimeError("the organizer's save failed")
        except RuntimeError:
            pass

    await rolled_back_change()
    assert await communicator.receive_nothing(timeout=0.3)
    await communicator.disconnect()


async def test_refresh_is_answered_with_the_rows():
    await build_event()
    communicator, _ = await connect()
    await communicator.receive_json_from()
    await communicator.send_json_to({"type": "refresh"})
    assert (await communicator.receive_json_from())["type"] == "leaderboard"
    await communicator.disconnect()


@pytest.mark.parametrize(
    "payload",
    [
        "not json",
        json.dumps({"type": "delete_everything"}),
        json.dumps({"type": "refresh", "extra": 1}),
        json.dumps(["refresh"]),
        json.dumps("refresh"),
        json.dumps({"type": "refresh", "pad": "x" * 300}),
    ],
)
async def test_bad_messages_get_errors(payload):
    await build_event()
    communicator, _ = await connect()
    await communicator.receive_json_from()
    await communicator.send_to(text_data=payload)
    answer = await communicator.receive_json_from()
    assert answer["type"] == "error" and answer["error"]
    # The connection survives a bad message and still answers a good one.
    await communicator.send_json_to({"type": "refresh"})
    assert (await communicator.receive_json_from())["type"] == "leaderboard"
    await communicator.disconnect()


async def test_oversized_message_is_refused_with_the_limit():
    await build_event()
    communicator, _ = await connect()
    await communicator.receive_json_from()
    await communicator.send_to(text_data="x" * 10_000)
    answer = await communicator.receive_json_from()
    assert answer["type"] == "error" and "too large" in answer["error"]
    await communicator.disconnect()


async def test_binary_messages_are_refused():
    await build_event()
    communicator, _ = await connect()
    await communicator.receive_json_from()
    await communicator.send_to(bytes_data=b"\x00\x01")
    assert (await communicator.receive_json_from())["type"] == "error"
    await communicator.disconnect()


async def test_refreshing_too_often_is_refused():
    await build_event()
    communicator, _ = await connect()
    await communicator.receive_json_from()
    await communicator.send_json_to({"type": "refresh"})
    assert (await communicator.receive_json_from())["type"] == "leaderboard"
    await communicator.send_json_to({"type": "refresh"})
    assert (await communicator.receive_json_from())["type"] == "error"
    await communicator.disconnect()


async def test_unknown_or_draft_events_are_refused():
    await build_event(status=Event.Status.DRAFT)
    _communicator, connected = await connect()
    assert not connected
    _communicator, connected = await connect("/ws/events/no-such-event/")
    assert not connected


async def test_foreign_origin_is_refused():
    await build_event()
    communicator = WebsocketCommunicator(application, "/ws/events/live/", headers=[(b"origin", b"http://evil.example")])
    connected, _ = await communicator.connect()
    assert not connected


async def test_the_socket_sends_the_page_its_url_asks_for():
    @database_sync_to_async
    def big_event():
        event = make_event(slug="live")
        players = make_players(event, [f"P{i:03d}" for i in range(150)])
        _round, tables = seat_round(event, players, table_size=3)
        record_games(tables, [(0, [0, 10, 5])])

    await big_event()
    communicator, connected = await connect("/ws/events/live/?page=2")
    assert connected
    message = await communicator.receive_json_from()
    assert (message["page"], message["pages"], message["total"]) == (2, 2, 150)
    assert len(message["rows"]) == 50 and message["rows"][0]["rank"] > 1
    await communicator.disconnect()
    for path in ("/ws/events/live/?page=x", "/ws/events/live/?page=0"):
        communicator, connected = await connect(path)
        message = await communicator.receive_json_from()
        assert connected and message["page"] == 1 and len(message["rows"]) == 100
        await communicator.disconnect()
