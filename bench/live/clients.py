"""The websocket clients: one per seat (and the watchers), playing through docs/protocol.md, and a phase
of the run with their timings gathered in `Stats`."""

from __future__ import annotations

import asyncio
import gc
import json
import random
import time
from dataclasses import dataclass, field

from bench.live.tables import Table
from games.hidden_cards import private_codes
from games.view_changes import merge_fields

PASSIVE = {"catch", "call_uno"}  # never sent by the bench clients: they would race the mover


@dataclass
class Stats:
    ack_ms: list[float] = field(default_factory=list)
    everyone_ms: list[float] = field(default_factory=list)
    errors: dict[str, int] = field(default_factory=dict)
    frames: int = 0
    frame_bytes: int = 0
    updates: int = 0  # `update` frames, of `update_bytes` in all
    update_bytes: int = 0
    gaps: int = 0
    duplicates: int = 0
    closed: int = 0  # sockets the server closed during the phase (its table stops playing)
    pong_ms: list[float] = field(default_factory=list)  # a ping's round trip

    def error(self, code: str) -> None:
        self.errors[code] = self.errors.get(code, 0) + 1


class TableClock:
    """Per table: when the move that created each version was sent, and which sockets have seen it."""

    def __init__(self, sockets: int) -> None:
        self.sockets = sockets
        self.sent: dict[int, float] = {}
        self.seen: dict[int, int] = {}
        self.last_seen: dict[int, float] = {}

    def saw(self, version: int, stats: Stats, at: float) -> None:
        if version not in self.sent:
            return  # a deal by the sweeper: nobody timed it
        count = self.seen.get(version, 0) + 1
        self.seen[version] = count
        if count == self.sockets - 1:  # everyone but the mover (whose ack is timed apart)
            stats.everyone_ms.append((at - self.sent.pop(version)) * 1000)
            del self.seen[version]


class Client:
    """One websocket: a seat (plays) or a spectator (`seat` None)."""

    def __init__(self, url: str, live_id: int, seat: int | None, cookie: str | None, clock: TableClock,
                 stats: Stats, think: float, relay: bool, seats: int) -> None:
        self.url, self.live_id, self.seat, self.cookie = url, live_id, seat, cookie
        self.clock, self.stats, self.think, self.relay, self.seats = clock, stats, think, relay, seats
        self.version = 0
        self.view: dict | None = None
        self.acked: dict[int, dict] = {}
        self.pending: dict[str, tuple[float, dict]] = {}
        self.seen_private: set[str] = set()
        self.stopping = False
        self.playing = False  # no move before the timed phase starts (see run_phase)
        self.counter = 0
        self.rng = random.Random(hash((live_id, seat)))
        self.ws = None
        self.moving = False
        self.after = 0  # the version of our last acknowledged move: act again only once we see it
        self.frames_in = 0

    async def connect(self, origin: str) -> None:
        import websockets

        headers = {"Cookie": self.cookie} if self.cookie else {}
        self.ws = await websockets.connect(self.url, origin=origin, additional_headers=headers,
                                           max_size=2**22, open_timeout=60, ping_interval=None)

    async def run(self) -> None:
        import websockets

        try:
            await self._read()
        except websockets.ConnectionClosed:
            pass
        if not self.stopping:
            self.stats.closed += 1

    async def _read(self) -> None:
        async for raw in self.ws:
            at = time.perf_counter()
            self.frames_in += 1
            self.stats.frames += 1
            self.stats.frame_bytes += len(raw)
            message = json.loads(raw)
            kind = message.get("type")
            if not self.relay:
                private_codes(message, self.seen_private)
            if kind == "state":
                self.version = message["version"]
                self.view = message.get("view")
            elif kind == "update":
                version = message["version"]
                if version <= self.version:
                    self.stats.duplicates += 1
                    continue
                if version != self.version + 1:
                    self.stats.gaps += 1
                self.version = version
                self.stats.updates += 1
                self.stats.update_bytes += len(raw)
                if "view" in message:  # the fields that moved, merged into the view (docs/protocol.md)
                    fields = message["view"]
                    self.view = None if fields is None else merge_fields(self.view or {}, fields)
                if self.seat is None or version not in self.acked:
                    self.clock.saw(version, self.stats, at)
            elif kind == "ack":
                sent, action, _ = self.pending.pop(message["id"])
                self.stats.ack_ms.append((at - sent) * 1000)
                self.acked[message["version"]] = action
                self.after = message["version"]
                self.moving = False
                continue  # act again on the update that follows the ack, not on the old view
            elif kind == "pong":
                self.stats.pong_ms.append((at - message.get("echo", at)) * 1000)
                continue
            elif kind == "error":
                self.stats.error(message.get("code", "?"))
                _, _, target = self.pending.pop(message.get("id"), (0, None, None))
                self.clock.sent.pop(target, None)
                self.moving = False
                if message.get("code") != "stale":  # a `state` follows a stale error; else try again soon
                    asyncio.get_running_loop().call_later(0.05, lambda: asyncio.ensure_future(self.kick()))
                continue
            else:
                continue
            if self.seat is not None and not self.stopping and not self.moving:
                if self.think:  # think in a task of its own: this socket keeps reading meanwhile
                    asyncio.ensure_future(self.maybe_move())
                else:
                    await self.maybe_move()

    def next_action(self) -> dict | None:
        if self.relay:
            return {"type": "draw"} if self.version % self.seats == self.seat else None
        if not self.view:
            return None
        legal = [a for a in self.view.get("legal_actions", []) if a["type"] not in PASSIVE]
        if not legal:
            return None
        plays = [a for a in legal if a["type"] == "play"]
        chosen = self.rng.choice(plays) if plays else legal[0]
        return {k: v for k, v in chosen.items() if k != "seat"}

    async def maybe_move(self) -> None:
        # `run` may start this twice before the first sets `moving` (two messages back to back): one
        # move in flight per seat, else the second went out on the same version and came back `stale`
        # or `already_played` (the errors of earlier runs).
        if not self.playing or self.moving or self.version < self.after:
            return
        action = self.next_action()
        if action is None:
            return
        self.moving = True
        version = self.version
        if self.think:
            await asyncio.sleep(self.think)
            if self.stopping or self.version != version:
                self.moving = False
                return
        self.counter += 1
        move_id = f"{self.seat}-{self.counter}"
        sent = time.perf_counter()
        self.pending[move_id] = (sent, action, version + 1)
        self.clock.sent[version + 1] = sent
        message = {"type": "move", "version": version, "id": move_id, "action": action}
        if self.relay:
            message["seat"] = self.seat
        await self.ws.send(json.dumps(message))

    async def ping_every(self, seconds: float, first: float) -> None:
        """A ping every `seconds` (the table page's keep-alive: static/js/table/socket.js), the first after
        `first` seconds."""
        await asyncio.sleep(first)
        while not self.stopping:
            await self.ws.send(json.dumps({"type": "ping", "echo": time.perf_counter()}))
            await asyncio.sleep(seconds)

    async def kick(self) -> None:
        if self.seat is not None and not self.moving and not self.stopping:
            await self.maybe_move()


async def run_phase(base_ws: str, origin: str, tables: list[Table], watchers: list[str], *, relay: bool,
                    seconds: float, think: float, seats: int, in_step: bool = False,
                    connected=None, started=None, ended=None, ping: float = 0.0) -> tuple[Stats, list[Client], float, int]:
    """One phase; `await connected()` once every socket is open and has its first message, before any
    move: the harness samples the workers' memory there and waits for their connect work to finish;
    `started()` when the timed phase starts and `ended()` when it ends, before the last answers are waited
    for and the sockets closed (the harness measures CPU between the two). With `ping`, every
    socket pings every `ping` seconds from then on, each from its own moment in the first period, as open
    pages do.

    With `think` (and not `in_step`), each table starts at its own moment within the first think period,
    as a room of people does, and the timed phase starts once every table has started (after one think
    period): so the tables offer `tables * seconds / think` moves in it, the figure the stored moves are
    compared with."""
    stats = Stats()
    clients: list[Client] = []
    per_table_watchers = [[] for _ in tables]
    for i, cookie in enumerate(watchers):
        per_table_watchers[i % len(tables)].append(cookie)
    for t, table in enumerate(tables):
        sockets = [(s, c) for s, c in enumerate(table.cookies)] + [(None, c) for c in per_table_watchers[t]]
        clock = TableClock(len(sockets))
        path = f"/ws/bench/relay/{t + 1}/" if relay else f"/ws/games/{table.live_id}/"
        for seat, cookie in sockets:
            clients.append(Client(base_ws + path, table.live_id, seat, cookie, clock, stats, think, relay, seats))
    semaphore = asyncio.Semaphore(50)

    async def connect(c: Client) -> None:
        async with semaphore:
            await c.connect(origin)

    await asyncio.gather(*(connect(c) for c in clients))
    tasks = [asyncio.create_task(c.run()) for c in clients]
    deadline = time.perf_counter() + 60
    while any(c.frames_in == 0 for c in clients) and time.perf_counter() < deadline:
        await asyncio.sleep(0.1)  # every socket has its first state
    await asyncio.sleep(0.3)
    if connected is not None:
        await connected()
    # No collector pauses in the harness while it times (its 1,000+ clients make a large heap: a full
    # collection would stall every socket of the harness at once and count as server latency).
    gc.collect()
    gc.freeze()
    gc.disable()
    # Seats play from here only: a seat that started thinking on its first state, during the connects,
    # moved whenever the harness's loop next ran (after the collection above, all at once: 250 moves in
    # 100 ms at the target, which no room of people does, and the phase's worst latencies came from it).
    for c in clients:
        c.playing = True
    pings = []
    if ping:
        offsets = random.Random(len(clients) + 1)
        pings = [asyncio.create_task(c.ping_every(ping, offsets.uniform(0, ping))) for c in clients]
    staggered = bool(think and not in_step)
    if staggered:  # each table starts at its own moment in the first think period, as people do
        offsets = random.Random(len(clients))
        loop = asyncio.get_running_loop()
        by_table: dict[int, list[Client]] = {}
        for c in clients:
            by_table.setdefault(id(c.clock), []).append(c)
        for table_clients in by_table.values():
            delay = offsets.uniform(0, think)
            for c in table_clients:
                loop.call_later(delay, lambda c=c: asyncio.ensure_future(c.kick()))
        await asyncio.sleep(think)  # every table has started: the timed phase begins
    if started is not None:
        await started()
    start = time.perf_counter()
    stats.ack_ms.clear()
    stats.everyone_ms.clear()
    for c in clients:
        c.acked_before = len(c.acked)
    if not staggered:  # every seat on turn at once (each thinks in a task of its own)
        for c in clients:
            asyncio.ensure_future(c.kick())
    await asyncio.sleep(seconds)
    elapsed = time.perf_counter() - start
    moves = sum(len(c.acked) - c.acked_before for c in clients)
    if ended is not None:
        await ended()
    for c in clients:
        c.stopping = True
    for task in pings:
        task.cancel()
    deadline = time.perf_counter() + 15
    while any(c.pending for c in clients) and time.perf_counter() < deadline:
        await asyncio.sleep(0.05)
    await asyncio.sleep(0.5)  # the last updates reach every socket
    gc.enable()
    gc.unfreeze()
    for c in clients:
        await c.ws.close()
    await asyncio.gather(*tasks, return_exceptions=True)
    stats.unanswered = sum(len(c.pending) for c in clients)
    return stats, clients, elapsed, moves
