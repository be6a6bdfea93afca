"""A live server worker killed mid-game (SIGKILL, no cleanup): after a restart the game is exactly at the last
acknowledged move, and the players' sockets reconnect, get that state and play on. A real Daphne process
on the test database (tests/live_asgi.py), talked to over TCP by a minimal websocket client."""

import base64
import json
import os
import signal
import socket
import struct
import time

import pytest

from games.models import LiveGame, LiveMove
from games.view_changes import merge
from tests.games.factories import make_tournament_game, session_cookie
from tests.live_asgi import LiveASGIServer
from tournament.services.live_tables import live_game_for

pytestmark = [pytest.mark.django_db(transaction=True)]


class RawSocket:
    """Just enough of RFC 6455 for JSON text frames (client frames masked, server frames unfragmented)."""

    def __init__(self, host: str, port: int, path: str, cookie: str) -> None:
        self.sock = socket.create_connection((host, port), timeout=10)
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall((f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
                           f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
                           f"Origin: http://{host}:{port}\r\nCookie: {cookie}\r\n\r\n").encode())
        self.buffer = b""
        while b"\r\n\r\n" not in self.buffer:
            chunk = self.sock.recv(4096)
            assert chunk, "the server closed the connection during the handshake"
            self.buffer += chunk
        head, self.buffer = self.buffer.split(b"\r\n\r\n", 1)
        assert b" 101 " in head.split(b"\r\n")[0], head
        self.frames: list[dict] = []

    def send(self, message: dict) -> None:
        payload = json.dumps(message).encode()
        mask = os.urandom(4)
        n = len(payload)
        header = bytes([0x81]) + (bytes([0x80 | n]) if n < 126 else bytes([0x80 | 126]) + struct.pack("!H", n))
        self.sock.sendall(header + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))

    def _fill(self, n: int) -> None:
        """At least `n` bytes buffered (nothing consumed: a timeout here loses no part of a frame)."""
        while len(self.buffer) < n:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise ConnectionError("closed")
            self.buffer += chunk

    def receive(self) -> dict:
        while True:
            self._fill(2)
            first, second = self.buffer[0], self.buffer[1]
            n, head = second & 0x7F, 2
            if n == 126:
                self._fill(4)
                n, head = struct.unpack("!H", self.buffer[2:4])[0], 4
            elif n == 127:
                self._fill(10)
                n, head = struct.unpack("!Q", self.buffer[2:10])[0], 10
            self._fill(head + n)
            payload, self.buffer = self.buffer[head:head + n], self.buffer[head + n:]
            opcode = first & 0x0F
            if opcode == 8:
                raise ConnectionError("closed by the server")
            if opcode == 1:
                message = json.loads(payload)
                self.frames.append(message)
                return message

    def receive_until(self, predicate) -> dict:
        while True:
            message = self.receive()
            if predicate(message):
                return message

    def close(self) -> None:
        self.sock.close()


def _play(sockets: list[RawSocket], version: int, view_of: dict) -> int:
    """The seat on turn plays its first legal action; returns the acknowledged version."""
    turn = view_of[0]["turn"]
    mover = next(i for i, v in view_of.items() if v["seat"] == turn)
    action = {k: v for k, v in view_of[mover]["legal_actions"][0].items() if k != "seat"}
    sockets[mover].send({"type": "move", "version": version, "action": action, "id": f"v{version}"})
    ack = sockets[mover].receive_until(lambda m: m["type"] in ("ack", "error"))
    assert ack["type"] == "ack", ack
    for i, s in enumerate(sockets):
        update = s.receive_until(lambda m: m["type"] in ("update", "state") and m["version"] == ack["version"])
        view_of[i] = merge({"view": view_of[i]}, update)["view"] if update["type"] == "update" else update["view"]
    return ack["version"]


def test_a_killed_server_resumes_at_the_last_acknowledged_move(live_asgi, live_asgi_settings):
    from django.db import connection

    tgame, users = make_tournament_game(2)  # no timer, no bots: nothing moves but the players
    live = live_game_for(tgame, seed=13)
    cookies = [session_cookie(u).decode() for u in users]
    host, port = live_asgi.host, live_asgi.port
    sockets = [RawSocket(host, port, live.ws_path, c) for c in cookies]
    view_of = {}
    for i, s in enumerate(sockets):
        state = s.receive_until(lambda m: m["type"] == "state")
        view_of[i] = state["view"]
    version = 1
    for _ in range(6):
        version = _play(sockets, version, view_of)
    # a move in flight when the worker dies: sent, never acknowledged to us
    turn = view_of[0]["turn"]
    mover = next(i for i, v in view_of.items() if v["seat"] == turn)
    action = {k: v for k, v in view_of[mover]["legal_actions"][0].items() if k != "seat"}
    sockets[mover].send({"type": "move", "version": version, "action": action, "id": "in-flight"})
    os.kill(live_asgi.process.pid, signal.SIGKILL)
    live_asgi.process.wait(timeout=10)
    for s in sockets:
        s.close()
    stored = LiveGame.objects.get(pk=live.pk)
    versions = list(LiveMove.objects.filter(live_game=live).order_by("version").values_list("version", flat=True))
    # whatever was acknowledged is stored; the move in flight is either wholly there or not at all
    assert stored.version in (version, version + 1)
    assert versions == list(range(1, stored.version + 1))
    restarted = LiveASGIServer(str(connection.settings_dict["NAME"]), live_asgi_settings).start()
    try:
        sockets = [RawSocket(restarted.host, restarted.port, live.ws_path, c) for c in cookies]
        for i, s in enumerate(sockets):
            state = s.receive_until(lambda m: m["type"] == "state")
            assert state["version"] == stored.version and state["role"] == "player"
            view_of[i] = state["view"]
        if stored.version == version + 1:  # resending the move in flight is recognised
            sockets[mover].send({"type": "move", "version": version, "action": action, "id": "in-flight"})
            assert sockets[mover].receive_until(lambda m: m["type"] == "error")["code"] == "already_played"
        after = _play(sockets, stored.version, view_of)
        assert after == stored.version + 1
        assert LiveGame.objects.get(pk=live.pk).version == after
        for s in sockets:
            s.close()
    finally:
        restarted.stop()
        time.sleep(0.1)
