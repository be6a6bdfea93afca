"""Redis (the channel layer) stopped for a while during a game and started again: moves go on (they live
in the database), a player whose view fell behind is told `stale` and resyncs, and once Redis is back every
socket is brought up to date with every version in order; nothing acknowledged is lost.

The test runs its OWN redis-server on a free port (never the machine's shared one) and two Daphne workers
pointed at it, so it runs on SQLite and on PostgreSQL alike."""

import shutil
import socket
import subprocess
import time

import pytest

from games import engine
from games.models import LiveGame
from games.services.seats import turn_game_seat
from tests.games.factories import make_tournament_game, session_cookie
from tests.games.test_faults_workers import Client, step, stored
from tests.live_asgi import free_port, live_asgi_workers  # noqa: F401 (fixture)
from tournament.services.live_tables import live_game_for

pytestmark = [pytest.mark.django_db(transaction=True)]

REDIS_SERVER = shutil.which("redis-server") or "/usr/bin/redis-server"


class OwnRedis:
    """A private redis-server process (no persistence) on a free port; stop and start it at will."""

    def __init__(self) -> None:
        self.port = free_port()
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.process = subprocess.Popen(
            [REDIS_SERVER, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
             "--daemonize", "no"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(200):
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5) as s:
                    s.sendall(b"PING\r\n")
                    if s.recv(16).startswith(b"+PONG"):
                        return
            except OSError:
                pass
            time.sleep(0.05)
        raise RuntimeError("redis-server did not answer")

    def stop(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait(timeout=10)
            self.process = None


@pytest.fixture
def own_redis():
    if not shutil.which(REDIS_SERVER):
        pytest.skip(f"needs {REDIS_SERVER} to start a private Redis")
    redis = OwnRedis()
    redis.start()
    try:
        yield redis
    finally:
        redis.stop()


def move_during_outage(live_id: int, players: list[Client]) -> int:
    """The player on turn (as the database says: no broadcast reaches the sockets now) pings, as the page
    does every 20 s: the server sees the socket is behind and sends the missed updates; then it plays (if
    its view is still behind it is told `stale` and gets the state). Returns the acknowledged version."""
    live = LiveGame.objects.get(pk=live_id)
    seat = turn_game_seat(engine.Game.from_dict(live.state), live.hand_seats)
    mover = next(c for c in players if c.state["seat"] == seat)
    mover.flush(live.version)
    assert mover.version == live.version
    for _ in range(2):
        version = mover.version
        action = {k: v for k, v in mover.view["legal_actions"][0].items() if k != "seat"}
        mover.sock.send({"type": "move", "version": version, "action": action, "id": f"{mover.name}-out-{version}"})
        answer = mover.until(lambda m: m["type"] in ("ack", "error"))
        if answer["type"] == "ack":
            return answer["version"]
        assert answer["code"] == "stale", answer  # its view fell behind: the state follows
        mover.until(lambda m: m["type"] == "state")
    raise AssertionError("the move was not taken after a resync")


def test_redis_stopped_and_restarted_mid_game(live_asgi_workers, own_redis):  # noqa: F811 (fixture)
    environ = {"REDIS_URL": own_redis.url, "CHANNEL_LAYER_PREFIX": f"reliab{own_redis.port}"}
    settings = {"LIVE_PRESENCE_HEARTBEAT": 0.5, "LIVE_PRESENCE_TTL": 5}
    a = live_asgi_workers(settings, environ)
    b = live_asgi_workers(settings, environ)
    tgame, (u0, u1) = make_tournament_game(2)
    live = live_game_for(tgame, seed=31)
    players = [Client("p0", live.ws_path, session_cookie(u0).decode()),
               Client("p1", live.ws_path, session_cookie(u1).decode())]
    watcher = Client("watcher", live.ws_path, "")
    players[0].connect(a)
    players[1].connect(b)
    watcher.connect(b)
    for _ in range(4):
        step(players, [watcher])
    before = watcher.version

    own_redis.stop()
    acked = [move_during_outage(live.pk, players) for _ in range(4)]
    assert acked == list(range(before + 1, before + 5))
    assert watcher.version == before  # no broadcast while Redis is down
    # its next ping brings every missed version, in order, from the database
    watcher.flush(acked[-1])
    assert watcher.versions[-5:] == [before, *acked]
    # and a sync works without Redis too
    watcher.sock.send({"type": "sync"})
    assert watcher.until(lambda m: m["type"] == "state")["version"] == acked[-1]

    own_redis.start()  # empty: no subscription, no message survived
    # the workers renew their subscriptions by themselves (redis-py reconnects and subscribes again):
    # play on until a change is broadcast to every socket again, on both workers, with no ping to help
    late_watcher = Client("late", live.ws_path, "")
    late_watcher.connect(b)
    everyone = [*players, watcher, late_watcher]
    for tries in range(1, 61):
        version = move_during_outage(live.pk, players)
        acked.append(version)
        heard = []
        for c in everyone:
            c.sock.sock.settimeout(0.5)
            try:
                c.until(lambda m, v=version: m["type"] in ("update", "state") and m["version"] >= v)
                heard.append(c)
            except OSError:
                pass
            c.sock.sock.settimeout(10)
        if len(heard) == len(everyone):
            print(f"\nRedis back: broadcasts reached all {len(everyone)} sockets again by move {tries} after the restart")
            break
    else:
        raise AssertionError("broadcasts did not reach every socket after Redis came back")
    for _ in range(4):
        acked.append(step(players, [watcher, late_watcher]))

    # nothing acknowledged is lost; the sockets were shown every version in order
    version, rows = stored(live.pk)
    assert rows == list(range(1, version + 1)) and set(acked) <= set(rows)
    for c in [*players, watcher]:
        assert c.version == version
    # the watcher never moved: from its connect to the end, every version, with no gap
    assert watcher.versions == list(range(watcher.versions[0], version + 1))
    for c in [*players, watcher, late_watcher]:
        c.close()
