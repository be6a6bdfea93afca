"""Builders for the live-game tests: a running tournament game at a table, logged-in sockets."""

from __future__ import annotations

import itertools
import json

from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client
from django.utils import timezone

from config.asgi import application
from games.view_changes import merge
from tests.tournament.organizer_factories import make_event, make_user
from tournament.models import Game, Player, Round, Seat, Table

ORIGIN = (b"origin", b"http://127.0.0.1:8000")
HOST = (b"host", b"127.0.0.1:8000")  # the socket's own address: ORIGIN is the same origin
_counter = itertools.count(1)


def make_tournament_game(players: int = 3, bots: int = 0, bot_kind: str = "heuristic", **event_fields):
    """A running game at one table: `players` students (seats 0..) then `bots` bot seats. The turn clock
    runs from the start unless `arrival_grace_seconds` is given (tests/games/test_arrival.py)."""
    event_fields.setdefault("turn_seconds", 0)
    event_fields.setdefault("arrival_grace_seconds", 0)
    event = make_event(status="running", **event_fields)
    round_ = Round.objects.create(event=event, number=1, seed=1, status=Round.Status.RUNNING,
                                  started_at=timezone.now())
    table = Table.objects.create(round=round_, number=1)
    users = []
    for i in range(players):
        n = next(_counter)
        user = make_user(f"live{n}")
        player = Player.objects.create(event=event, user=user, display_name=f"Player {n}", status="checked_in")
        Seat.objects.create(table=table, number=i, player=player)
        users.append(user)
    for i in range(players, players + bots):
        Seat.objects.create(table=table, number=i, bot_kind=bot_kind)
    from tournament.services.rounds import target_score_for

    game = Game.objects.create(table=table, number=1, target_score=target_score_for(event),
                               status=Game.Status.RUNNING, started_at=timezone.now())
    return game, users


def session_cookie(user) -> bytes:
    client = Client()
    client.force_login(user)
    return f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}".encode()


class Socket:
    """A websocket at a table that records every frame it receives; `state` is the client's whole picture:
    the last `state` with every later `update` merged into it, as docs/protocol.md says clients do."""

    def __init__(self, live_id: int, cookie: bytes | None = None) -> None:
        headers = [ORIGIN, HOST] + ([(b"cookie", cookie)] if cookie else [])
        self.comm = WebsocketCommunicator(application, f"/ws/games/{live_id}/", headers=headers)
        self.frames: list[dict] = []
        self.state: dict | None = None

    async def connect(self) -> dict:
        # Generous: the connect runs a few queries, and a loaded 2-core CI machine can take over a second.
        connected, code = await self.comm.connect(timeout=10)
        assert connected, f"refused with {code}"
        first = await self.receive()
        assert first["type"] == "state", first
        return first

    async def receive(self, timeout: float = 10, presence: bool = False) -> dict:
        """The next frame (`presence` frames are recorded but skipped unless asked for)."""
        while True:
            raw = await self.comm.receive_from(timeout=timeout)
            message = json.loads(raw)
            self.frames.append(message)
            if message["type"] == "state":
                self.state = message
            elif message["type"] == "update" and self.state is not None:
                self.state = merge(self.state, message)
            elif message["type"] == "presence" and self.state is not None:  # as the table page shows it
                seats = [{**s, "connected": s["seat"] in message["connected"]} for s in self.state["game"]["seats"]]
                self.state = {**self.state, "game": {**self.state["game"], "seats": seats}}
            if message["type"] != "presence" or presence:
                return message

    async def receive_until(self, predicate, timeout: float = 5) -> dict:
        while True:
            message = await self.receive(timeout)
            if predicate(message):
                return message

    def picture_at(self, version: int) -> dict | None:
        """The client's whole picture as it was at `version` (replayed from the recorded frames)."""
        picture = None
        for frame in self.frames:
            if frame["type"] == "state":
                picture = frame
            elif frame["type"] == "update" and picture is not None:
                picture = merge(picture, frame)
            else:
                continue
            if picture["version"] == version:
                return picture
        return None

    async def send(self, message) -> None:
        if isinstance(message, str):
            await self.comm.send_to(text_data=message)
        else:
            await self.comm.send_to(text_data=json.dumps(message))

    async def drain(self, wait: float = 0.05) -> list[dict]:
        """Every frame that arrives within `wait` seconds of the previous one (a timed-out `receive`
        would cancel the application, so this uses `receive_nothing`)."""
        got = []
        while not await self.comm.receive_nothing(timeout=wait):
            got.append(await self.receive(presence=True))
        return [m for m in got if m["type"] != "presence"]

    async def close(self) -> None:
        await self.comm.disconnect()


@database_sync_to_async
def engine_game_of(live):
    """The engine game of `live` at its version (derived from the stored log: a query, so off the loop)."""
    from games import engine

    return engine.Game.from_dict(live.state)


async def login_socket(live_id: int, user) -> Socket:
    cookie = await database_sync_to_async(session_cookie)(user)
    return Socket(live_id, cookie)
