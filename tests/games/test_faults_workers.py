"""Several server workers behind one site (two Daphne processes on PostgreSQL sharing a Redis channel
layer), one SIGKILLed in the middle of a round: every game is at exactly its last acknowledged move, the
players whose socket died reconnect (to the surviving worker or the restarted one) and resync, the turn
timer and the bot takeover go on (the surviving worker's sweeper), presence shows the seats whose worker
died as away, and play goes on at both tables."""

import os
import signal

import pytest
from django.db import connection

from games.models import LiveGame, LiveMove
from games.view_changes import merge
from tests.games.factories import make_tournament_game, session_cookie
from tests.games.test_faults_restart import RawSocket
from tests.live_asgi import live_asgi_workers  # noqa: F401 (fixture)
from tournament.services.live_tables import live_game_for

pytestmark = [pytest.mark.django_db(transaction=True)]

WORKER_SETTINGS = {"LIVE_PRESENCE_HEARTBEAT": 0.2, "LIVE_PRESENCE_TTL": 1.5, "LIVE_SWEEP_INTERVAL": 0.05,
                   "LIVE_BOT_THINK_SECONDS": [0.05, 0.1], "LIVE_NEXT_HAND_SECONDS": 30}


def needs_postgresql_and_redis():
    if connection.vendor != "postgresql" or not os.environ.get("REDIS_URL"):
        pytest.skip("several workers need a shared database and channel layer: run with DATABASE_URL=postgres://... "
                    "and REDIS_URL=redis://... (CI's PostgreSQL + Redis run does)")


class Client:
    """A player's (or a spectator's) socket that, like the table page, reconnects when its worker goes away
    and resyncs: the first message on a new socket is the full `state`, then it sends `sync`."""

    def __init__(self, name: str, path: str, cookie: str) -> None:
        self.name, self.path, self.cookie = name, path, cookie
        self.sock: RawSocket | None = None
        self.versions: list[int] = []  # every version this client was shown, in order
        self.view: dict | None = None
        self.state: dict | None = None
        self.connected: list[int] = []

    def connect(self, server) -> dict:
        self.sock = RawSocket(server.host, server.port, self.path, self.cookie)
        state = self.until(lambda m: m["type"] == "state")
        return state

    def reconnect(self, server) -> dict:
        if self.sock is not None:
            self.sock.close()
        self.connect(server)
        self.sock.send({"type": "sync"})  # what the page does after a reconnect (ends a bot takeover)
        return self.until(lambda m: m["type"] == "state")

    def _note(self, message: dict) -> None:
        if message["type"] == "update" and self.state is not None and message["version"] > self.state["version"]:
            self.versions.append(message["version"])
            self.state = merge(self.state, message)  # the fields that moved (docs/protocol.md)
            self.view = self.state["view"]
            if "seats" in message.get("game", {}):
                self.connected = [s["seat"] for s in self.state["game"]["seats"] if s.get("connected")]
        elif message["type"] == "state":
            if not self.versions or message["version"] > self.versions[-1]:
                self.versions.append(message["version"])
            self.view = message["view"]
            self.state = message
            self.connected = [s["seat"] for s in message["game"]["seats"] if s.get("connected")]
        elif message["type"] == "presence":
            self.connected = list(message["connected"])

    def until(self, predicate) -> dict:
        while True:
            message = self.sock.receive()
            self._note(message)
            if predicate(message):
                return message

    def flush(self, version: int | None = None) -> None:
        """Read everything the server sent before now (a ping's pong comes after it); with `version`, also
        the missed updates the ping brings after its pong (a lost broadcast), up to that version."""
        echo = f"flush-{len(self.sock.frames)}"
        self.sock.send({"type": "ping", "echo": echo})
        self.until(lambda m: m["type"] == "pong" and m["echo"] == echo)
        if version is not None and self.version < version:
            self.until(lambda m: m["type"] in ("update", "state") and m["version"] >= version)

    @property
    def version(self) -> int:
        return self.versions[-1]

    def close(self) -> None:
        if self.sock is not None:
            self.sock.close()


def on_turn(clients: list[Client]) -> Client | None:
    """The client on turn (None: a bot's or an absent player's turn, or between hands)."""
    view = clients[0].view
    if view["phase"] == "over":
        return None
    return next((c for c in clients if c.state["hand_seat"] == view["turn"] and c.sock is not None), None)


def catch_up(clients: list[Client], version: int) -> None:
    for c in clients:
        if c.version < version:
            c.until(lambda m, v=version: m["type"] in ("update", "state") and m["version"] >= v)


def step(clients: list[Client], watchers: list[Client] = ()) -> int:
    """One change at the table: the player on turn plays its first legal action (after a `stale`, on the
    state that follows, as the page does); on a bot's or an absent player's turn, the workers' sweeper
    acts and everyone waits for it. Returns the new version, which everyone has seen."""
    mover = on_turn(clients)
    if mover is None:
        assert clients[0].view["phase"] != "over", "the hand ended: the test expects it to go on"
        clients[0].until(lambda m: m["type"] == "update")
        catch_up([*clients, *watchers], clients[0].version)
        return clients[0].version
    while True:
        version = mover.version
        action = {k: v for k, v in mover.view["legal_actions"][0].items() if k != "seat"}
        mover.sock.send({"type": "move", "version": version, "action": action, "id": f"{mover.name}-{version}"})
        answer = mover.until(lambda m: m["type"] in ("ack", "error"))
        if answer["type"] == "ack":
            break
        assert answer["code"] == "stale", answer
        mover.until(lambda m: m["type"] == "state")
        if on_turn(clients) is not mover:
            return step(clients, watchers)
    catch_up([*clients, *watchers], answer["version"])
    return answer["version"]


def stored(live_id: int) -> tuple[int, list[int]]:
    live = LiveGame.objects.get(pk=live_id)
    return live.version, list(LiveMove.objects.filter(live_game=live).order_by("version")
                              .values_list("version", flat=True))


def test_one_of_two_workers_killed_mid_round(live_asgi_workers):  # noqa: F811 (fixture)
    needs_postgresql_and_redis()
    # Redis pub/sub ignores database numbers: a prefix of this run's own keeps other runs' broadcasts out
    environ = {"CHANNEL_LAYER_PREFIX": f"reliab-workers-{os.getpid()}"}
    a = live_asgi_workers(WORKER_SETTINGS, environ)
    b = live_asgi_workers(WORKER_SETTINGS, environ)
    # table 1: two players and a bot, no timer; table 2: two players, a turn timer, a bot takes a seat
    # after one missed turn
    g1, (p0, p1) = make_tournament_game(2, bots=1)
    g2, (q0, q1) = make_tournament_game(2, turn_seconds=600, missed_turns_before_bot=1)
    t1, t2 = live_game_for(g1, seed=21), live_game_for(g2, seed=22)
    table1 = [Client("p0", t1.ws_path, session_cookie(p0).decode()),
              Client("p1", t1.ws_path, session_cookie(p1).decode())]
    table2 = [Client("q0", t2.ws_path, session_cookie(q0).decode()),
              Client("q1", t2.ws_path, session_cookie(q1).decode())]
    watcher = Client("watcher", t2.ws_path, "")
    # each table has a player on each worker; the spectator of table 2 is on B
    for client, server in [(table1[0], a), (table1[1], b), (table2[0], a), (table2[1], b), (watcher, b)]:
        client.connect(server)
    if sorted(watcher.connected) != [0, 1]:  # a player's row may be written just after the watcher's state
        watcher.until(lambda m: sorted(watcher.connected) == [0, 1])
    for _ in range(5):
        step(table1)
        step(table2, [watcher])

    # table 1: p0 (on A) sends a move and A is SIGKILLed before anything else
    while on_turn(table1) is not table1[0]:
        step(table1)
    acked1, acked2 = table1[0].version, table2[0].version
    in_flight = {k: v for k, v in table1[0].view["legal_actions"][0].items() if k != "seat"}
    table1[0].sock.send({"type": "move", "version": acked1, "action": in_flight, "id": "in-flight"})
    os.kill(a.process.pid, signal.SIGKILL)
    a.process.wait(timeout=10)

    # p0's socket died with A (an answer may have come first)
    with pytest.raises((ConnectionError, OSError)):
        table1[0].until(lambda m: False)
    acked = any(f["type"] == "ack" and f.get("id") == "in-flight" for f in table1[0].sock.frames)

    # every game is at its last acknowledged move (the move in flight wholly there or not at all)
    v1, rows1 = stored(t1.pk)
    v2, rows2 = stored(t2.pk)
    assert v1 == acked1 + 1 if acked else v1 in (acked1, acked1 + 1)
    assert rows1 == list(range(1, v1 + 1))
    assert v2 == acked2 and rows2 == list(range(1, v2 + 1))

    # p0 reconnects through the surviving worker B and resyncs
    state = table1[0].reconnect(b)
    assert state["version"] == v1 and state["role"] == "player"
    if v1 == acked1 + 1:  # sending the move in flight again is recognised, not applied twice
        table1[0].sock.send({"type": "move", "version": acked1, "action": in_flight, "id": "in-flight"})
        assert table1[0].until(lambda m: m["type"] == "error")["code"] == "already_played"
    # p1 (on B) is sent the move A stored and never broadcast: B's check for missed changes finds it
    catch_up(table1, v1)

    # q0's socket died too and q0 stays away: the table sees the seat away once A's heartbeat is missed
    table2[0].close()
    table2[0].sock = None
    q0_seat = table2[0].state["seat"]
    for c in (watcher, table2[1]):
        c.flush()
        if q0_seat in c.connected:
            c.until(lambda m: m["type"] == "presence" and q0_seat not in m["connected"])
    assert not LiveGame.objects.get(pk=t2.pk).connections.filter(seat=q0_seat).exists()

    # table 2's timer goes on (worker B's sweeper): q0's time runs out, a bot takes the seat and plays it
    while on_turn(table2[1:]) is table2[1]:
        step(table2[1:], [watcher])
    from datetime import timedelta

    from django.utils import timezone

    LiveGame.objects.filter(pk=t2.pk).update(deadline=timezone.now() - timedelta(seconds=1))  # 600 s later
    takeover = table2[1].until(lambda m: m["type"] == "update"
                               and any(e["kind"] == "takeover_started" for e in m["events"]))
    assert takeover["version"] == table2[1].state["version"] and table2[1].state["game"]["seats"][q0_seat]["takeover"]
    while not any(f.get("by", {}).get("actor") == "bot" for f in table2[1].sock.frames):
        step(table2[1:], [watcher])

    # A is restarted; q0 reconnects there and resyncs: the bot gives the seat back
    a2 = live_asgi_workers(WORKER_SETTINGS, environ)
    state = table2[0].reconnect(a2)
    assert state["role"] == "player"
    returned = table2[1].until(lambda m: m["type"] == "update"
                               and any(e["kind"] == "takeover_ended" for e in m["events"]))
    catch_up([table2[0], watcher], returned["version"])
    if q0_seat not in watcher.connected:
        watcher.until(lambda m: q0_seat in watcher.connected)

    # play goes on at both tables, across the surviving and the restarted worker
    for _ in range(4):
        step(table1)
        step(table2, [watcher])
    for table, live in ((table1, t1), ([*table2, watcher], t2)):
        version, rows = stored(live.pk)
        assert rows == list(range(1, version + 1))
        catch_up(table, version)
    # the sockets that never dropped were shown every version, in order, with no gap
    for c in (table1[1], table2[1], watcher):
        assert c.versions == list(range(c.versions[0], c.versions[-1] + 1)), c.name
    for c in [*table1, *table2, watcher]:
        c.close()
