"""Every close code carries its reason to the client under the server `make run` and `make prod` use
(uvicorn; Daphne drops reasons): the 4404 of a table socket whose game was deleted, a bot's token socket
at a table that does not exist, and the organizer's live round view once they may no longer watch it."""

import asyncio
import json
import re

import pytest
import websockets

from access_tokens.services import create_token
from games.models import LiveGame, LiveWatcher
from tests.games.factories import make_tournament_game
from tests.live_asgi import ROOT
from tests.live_websockets import next_message, open_socket
from tests.tournament.test_live_round import start_round
from tournament.services.live_tables import live_game_for

pytestmark = pytest.mark.django_db(transaction=True)


def test_make_run_serves_with_uvicorn_as_make_prod_does():
    makefile = (ROOT / "Makefile").read_text()
    run = re.search(r"^run:.*?(?=^\S)", makefile, re.M | re.S).group(0)
    assert "uvicorn config.asgi:application" in run and "$(UVICORN_WS)" in run
    assert "runserver" not in run


def test_a_socket_at_a_deleted_game_hears_why_it_is_closed(live_uvicorn):
    server = live_uvicorn()
    game, _users = make_tournament_game(2)
    live = live_game_for(game, seed=3)

    async def watch_then_sync() -> tuple[int, str]:
        url = server.url.replace("http://", "ws://") + live.ws_path
        async with websockets.connect(url, origin=server.url) as socket:
            assert json.loads(await socket.recv())["type"] == "state"
            for _ in range(50):  # the watcher's row is stored after its state: then delete the game
                if await asyncio.to_thread(LiveWatcher.objects.filter(live_game_id=live.pk).exists):
                    break
                await asyncio.sleep(0.1)
            await asyncio.to_thread(LiveGame.objects.filter(pk=live.pk).delete)
            await socket.send(json.dumps({"type": "sync"}))
            with pytest.raises(websockets.ConnectionClosed) as closed:
                while True:
                    await asyncio.wait_for(socket.recv(), 10)
            assert closed.value.rcvd is not None, repr(closed.value)
            return closed.value.rcvd.code, closed.value.rcvd.reason

    assert asyncio.run(watch_then_sync()) == (4404, "this game does not exist any more")


def closed_with(socket) -> tuple[int, str]:
    """The code and reason of the server's close (frames before it are read and dropped)."""
    with pytest.raises(websockets.ConnectionClosed) as closed:
        while True:
            socket.recv(timeout=10)
    assert closed.value.rcvd is not None, repr(closed.value)
    return closed.value.rcvd.code, closed.value.rcvd.reason


def test_a_bot_at_no_table_and_an_organizer_no_longer_allowed_hear_why(live_uvicorn):
    server = live_uvicorn()
    event, organizer, round_, _ = start_round()
    bot = create_token(organizer, "bot").secret
    assert closed_with(open_socket(server, "/ws/games/999999/", token=bot)) == (4404, "there is no such game")

    view = open_socket(server, f"/ws/organizer/rounds/{round_.pk}/", user=organizer)
    assert next_message(view, "round")["round"] == round_.pk
    type(organizer).objects.filter(pk=organizer.pk).update(is_staff=False)
    view.send(json.dumps({"type": "refresh"}))
    assert closed_with(view) == (4403, "only the event's organizers may watch this round live")
