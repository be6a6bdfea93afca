"""Load harness for live play: real websockets against the real site, compared with a bare relay.

    python bench/live.py --tables 10 --seats 4 --seconds 15 --workers 2
    python bench/live.py --tables 250 --seats 4 --spectators 250 --think 2 --seconds 60 --workers 2

Creates a running event with T tables of P seats held by real users (the ORM and the live-game service
`tournament.services.live_tables.live_game_for`, turn timer off, a high target so no game ends), logs every
user in (a session per user in the database), starts the site (uvicorn `--workers N`, or N daphne
processes on one shared socket, with `bench/live_settings.py`: the relay mounted and the per-socket rate
limit lifted) plus `manage.py run_sweeper` for the next-hand deals, as production runs them, then:

1. **game**: one websocket client per seat (and `--spectators` watchers spread over the tables) plays
   through the protocol of docs/protocol.md: the seat with something to do sends a legal action (a
   random play if it has one) with the version it last saw, after `--think` seconds; with `--think`
   each table starts at its own random moment within the first think period, as people at different
   tables do (`--in-step` starts them all at once, a burst of T moves every think period);
2. **relay**: the same clients against `bench/relay.py` (ack + numbered group update, no rules, no
   database), seats moving in turn.

Printed per phase: moves/s, p50/p95/p99 of the mover's send→ack time and of send→every other socket of
the table has that version, errors, frame sizes, the CPU and memory of the server processes (from
/proc; local PostgreSQL and Redis too) and of the harness itself. After the game phase it checks that
the database's player moves are exactly the acknowledged ones (none lost, none doubled), that every
socket saw every version once and in order, and that no socket received a card its seat did not own.
Exit status 1 if a check fails. `BENCH_GC_LOG=1` makes the server log every garbage collection over
5 ms (bench/live_settings.py).

DATABASE_URL / REDIS_URL come from the environment, as for the site (without REDIS_URL use one
worker: the in-memory layer is per process). `--url` targets a site that is already running instead:
then the relay phase needs `BENCH_RELAY=1` there, and the rate limit there applies (use `--think`).
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import gc
import json
import os
import random
import secrets
import socket
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from games.hidden_cards import private_codes  # noqa: E402 - needs ROOT on the path (no Django import)

PASSIVE = {"catch", "call_uno"}  # never sent by the bench clients: they would race the mover


# ---- the database side (Django) ----------------------------------------------------------------------

def django_setup() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    if os.environ.get("REDIS_URL") and not os.environ.get("CHANNEL_LAYER_KEY"):
        # As production must (games.E001): table changes carry the cards through Redis, encrypted.
        os.environ["CHANNEL_LAYER_KEY"] = secrets.token_urlsafe(40)
    import django

    django.setup()


@dataclass
class Table:
    live_id: int
    cookies: list[str]  # per seat: "sessionid=..."


def create_tables(tables: int, seats: int, spectators: int, preset: str = "uno-official") -> tuple[list[Table], list[str], int]:
    """A running event with `tables` tables of `seats` logged-in players each (and `spectators` users).
    Returns the tables, the spectators' cookies and the event's id."""
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import make_password
    from django.test import Client
    from django.utils import timezone

    from tournament.models import Event, Game, Player, Round, Seat
    from tournament.models import Table as TableRow
    from tournament.services.live_tables import live_game_for

    tag = secrets.token_hex(3)
    password = make_password(None)  # unusable: bench users never log in with a password
    User = get_user_model()
    event = Event.objects.create(name=f"Bench {tag}", slug=f"bench-{tag}", rules_preset=preset, status="running",
                                 min_table_size=2, max_table_size=max(seats, 2), target_score=100_000,
                                 turn_seconds=0, missed_turns_before_bot=0)
    round_ = Round.objects.create(event=event, number=1, seed=1, status=Round.Status.RUNNING, started_at=timezone.now())

    def login(user) -> str:
        client = Client()
        client.force_login(user)
        return f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"

    out = []
    for t in range(tables):
        row = TableRow.objects.create(round=round_, number=t + 1)
        cookies = []
        for s in range(seats):
            user = User.objects.create(username=f"bench-{tag}-{t}-{s}", password=password)
            player = Player.objects.create(event=event, user=user, display_name=f"Bench {t}.{s}", status="checked_in")
            Seat.objects.create(table=row, number=s, player=player)
            cookies.append(login(user))
        game = Game.objects.create(table=row, number=1, target_score=100_000, status=Game.Status.RUNNING,
                                   started_at=timezone.now())
        live = live_game_for(game, seed=1000 + t)
        out.append(Table(live.pk, cookies))
    watchers = [login(User.objects.create(username=f"bench-{tag}-watch-{i}", password=password))
                for i in range(spectators)]
    return out, watchers, event.pk


def check_database(tables: list[Table], clients: list[Client]) -> list[str]:
    """Problems found: player moves stored but not acknowledged or acknowledged but not stored (or
    stored twice), and cards a socket saw that its seat was never dealt, drew or was shown."""
    from games.hidden_cards import known_cards
    from games.models import LiveMove

    problems = []
    by_live: dict[int, list] = {}
    for move in LiveMove.objects.filter(live_game_id__in=[t.live_id for t in tables]).order_by("live_game_id", "version"):
        by_live.setdefault(move.live_game_id, []).append(move)
    acked = {}
    for c in clients:
        for version, action in c.acked.items():
            if (c.live_id, version) in acked:
                problems.append(f"table {c.live_id}: version {version} acknowledged twice")
            acked[(c.live_id, version)] = (c.seat, action)
    stored = {}
    for live_id, moves in by_live.items():
        versions = [m.version for m in moves]
        if versions != list(range(1, len(versions) + 1)):
            problems.append(f"table {live_id}: stored versions are not 1..n")
        for m in moves:
            if m.actor == LiveMove.Actor.PLAYER:
                stored[(live_id, m.version)] = (m.seat, m.action)
    lost = set(acked) - set(stored)
    unacked = set(stored) - set(acked)
    if lost:
        problems.append(f"{len(lost)} acknowledged move(s) not in the database, e.g. {sorted(lost)[:3]}")
    if unacked:
        problems.append(f"{len(unacked)} stored player move(s) never acknowledged, e.g. {sorted(unacked)[:3]}")
    for key in set(acked) & set(stored):
        seat, action = acked[key]
        if stored[key][0] != seat or {k: v for k, v in stored[key][1].items() if k != "seat"} != action:
            problems.append(f"table {key[0]} version {key[1]}: stored {stored[key]}, acknowledged {(seat, action)}")
    for c in clients:
        if c.seat is None:
            if c.seen_private:
                problems.append(f"a spectator of table {c.live_id} saw hidden cards {sorted(c.seen_private)[:5]}")
            continue
        leaked = c.seen_private - known_cards(by_live.get(c.live_id, []), c.seat)
        if leaked:
            problems.append(f"seat {c.seat} of table {c.live_id} saw cards it never held: {sorted(leaked)[:5]}")
    return problems


# ---- the clients ---------------------------------------------------------------------------------------

@dataclass
class Stats:
    ack_ms: list[float] = field(default_factory=list)
    everyone_ms: list[float] = field(default_factory=list)
    errors: dict[str, int] = field(default_factory=dict)
    frames: int = 0
    frame_bytes: int = 0
    gaps: int = 0
    duplicates: int = 0
    closed: int = 0  # sockets the server closed during the phase (its table stops playing)

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
                self.view = message.get("view")
                if self.seat is None or version not in self.acked:
                    self.clock.saw(version, self.stats, at)
            elif kind == "ack":
                sent, action, _ = self.pending.pop(message["id"])
                self.stats.ack_ms.append((at - sent) * 1000)
                self.acked[message["version"]] = action
                self.after = message["version"]
                self.moving = False
                continue  # act again on the update that follows the ack, not on the old view
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

    async def kick(self) -> None:
        if self.seat is not None and not self.moving and not self.stopping:
            await self.maybe_move()


async def run_phase(base_ws: str, origin: str, tables: list[Table], watchers: list[str], *, relay: bool,
                    seconds: float, think: float, seats: int, in_step: bool = False,
                    connected=None) -> tuple[Stats, list[Client], float, int]:
    """One phase; `await connected()` once every socket is open and has its first message, before any
    move: the harness samples the workers' memory there, waits for their connect work to finish and
    starts measuring (the timed phase starts after it returns)."""
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
    start = time.perf_counter()
    stats.ack_ms.clear()
    stats.everyone_ms.clear()
    for c in clients:
        c.acked_before = len(c.acked)
    if think and not in_step:  # each table starts at its own moment in the first think period, as people do
        offsets = random.Random(len(clients))
        loop = asyncio.get_running_loop()
        by_table: dict[int, list[Client]] = {}
        for c in clients:
            by_table.setdefault(id(c.clock), []).append(c)
        for table_clients in by_table.values():
            delay = offsets.uniform(0, think)
            for c in table_clients:
                loop.call_later(delay, lambda c=c: asyncio.ensure_future(c.kick()))
    else:  # every seat on turn at once (each thinks in a task of its own)
        for c in clients:
            asyncio.ensure_future(c.kick())
    await asyncio.sleep(seconds)
    elapsed = time.perf_counter() - start
    moves = sum(len(c.acked) - c.acked_before for c in clients)
    for c in clients:
        c.stopping = True
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


# ---- processes -----------------------------------------------------------------------------------------

def _children(pid: int) -> list[int]:
    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    ppid = int(f.read().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            if ppid == pid:
                out.append(int(entry))
    return out


def process_tree(pid: int) -> list[int]:
    pids, todo = [], [pid]
    while todo:
        p = todo.pop()
        pids.append(p)
        todo.extend(_children(p))
    return pids


def pids_named(*names: str) -> list[int]:
    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/comm") as f:
                    if f.read().strip() in names:
                        out.append(int(entry))
            except OSError:
                continue
    return out


def cpu_seconds(pids: list[int]) -> float:
    tick = os.sysconf("SC_CLK_TCK")
    total = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])
        except (OSError, IndexError, ValueError):
            continue
    return total / tick


def runqueue_seconds(pids: list[int]) -> float:
    """Time the processes' threads spent runnable but waiting for a CPU (/proc/<pid>/task/*/schedstat),
    summed over threads: above 0 the CPUs were the limit, taken by the other threads of the machine
    (the server's own included)."""
    total = 0
    for pid in pids:
        try:
            tasks = os.listdir(f"/proc/{pid}/task")
        except OSError:
            continue
        for tid in tasks:
            try:
                with open(f"/proc/{pid}/task/{tid}/schedstat") as f:
                    total += int(f.read().split()[1])
            except (OSError, IndexError, ValueError):
                continue
    return total / 1e9


def machine_ticks() -> tuple[int, int]:
    """(busy, all) CPU ticks of the whole machine so far (/proc/stat): busy is all but idle and I/O wait,
    so another program's work and time taken by the host (steal) count too."""
    with open("/proc/stat") as f:
        fields = [int(x) for x in f.readline().split()[1:]]
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0)
    return sum(fields) - idle, sum(fields)


def rss_mib(pids: list[int]) -> float:
    total = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/status") as f:
                for line in f:
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1])
        except OSError:
            continue
    return total / 1024


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Site:
    """The site's ASGI workers and sweeper as subprocesses on 127.0.0.1."""

    def __init__(self, workers: int, server: str, db_name: str | None, deflate: bool = False) -> None:
        from django.conf import settings

        # Without Redis a sweeper process could not reach the worker's sockets: the worker sweeps.
        self.own_sweeper = settings.CHANNEL_LAYERS["default"]["BACKEND"] != "channels.layers.InMemoryChannelLayer"
        self.sweeper = None

        self.port = free_port()
        self.workers, self.server, self.deflate = workers, server, deflate
        self.env = dict(os.environ, DJANGO_SETTINGS_MODULE="bench.live_settings", PYTHONUNBUFFERED="1",
                        SECRET_KEY=settings.SECRET_KEY, DEBUG="0", ALLOWED_HOSTS="127.0.0.1,localhost",
                        SECURE_SSL_REDIRECT="0", PYTHONPATH=str(ROOT))
        self.env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        if db_name:
            self.env["BENCH_DB_NAME"] = db_name
        if not self.own_sweeper:
            self.env["BENCH_SWEEPER_IN_PROCESS"] = "1"
        self.processes: list[subprocess.Popen] = []
        self.log = open(Path(os.environ.get("TMPDIR", "/tmp")) / f"bench-live-{os.getpid()}.log", "w")

    def start(self) -> Site:
        py = sys.executable
        if self.server == "uvicorn":
            self._spawn([py, "-m", "uvicorn", "config.asgi:application", "--host", "127.0.0.1", "--port",
                         str(self.port), "--workers", str(self.workers), "--ws", "websockets-sansio",
                         "--ws-per-message-deflate", "true" if self.deflate else "false",  # as `make prod`
                         "--log-level", "warning", "--no-access-log"])
        else:  # N daphne processes accepting on one inherited listening socket
            self.sock = socket.socket()
            self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            self.sock.bind(("127.0.0.1", self.port))
            self.sock.listen(1024)
            self.sock.set_inheritable(True)
            fd = self.sock.fileno()
            for _ in range(self.workers):
                self._spawn([py, "-m", "daphne", "--fd", str(fd), "-v", "0", "config.asgi:application"],
                            pass_fds=(fd,))
        if self.own_sweeper:
            self._spawn([py, str(ROOT / "manage.py"), "run_sweeper", "--interval", "0.05"], sweeper=True)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            for p in self.processes:
                if p.poll() is not None:
                    self.stop()  # the others too (the sweeper held database connections after a failed start)
                    raise RuntimeError(f"a server process stopped at start; see {self.log.name}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5):
                    break
            except OSError:
                time.sleep(0.2)
        time.sleep(1.0 if self.server == "uvicorn" and self.workers > 1 else 0.2)  # every worker up
        return self

    def _spawn(self, command: list[str], sweeper: bool = False, pass_fds=()) -> None:
        p = subprocess.Popen(command, cwd=ROOT, env=self.env, stdout=self.log, stderr=subprocess.STDOUT,
                             pass_fds=pass_fds)
        if sweeper:
            self.sweeper = p
        self.processes.append(p)

    def server_pids(self) -> list[int]:
        return [pid for p in self.processes if p is not self.sweeper for pid in process_tree(p.pid)]

    def stop(self) -> None:
        for p in self.processes:
            if p.poll() is None:
                p.terminate()
        for p in self.processes:
            try:
                p.wait(timeout=10)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait(timeout=10)
        self.processes = []
        if not self.log.closed:
            self.log.close()


# ---- the run -------------------------------------------------------------------------------------------

def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=100, method="inclusive")[int(q) - 1]


def report(name: str, stats: Stats, elapsed: float, moves: int, usage: dict) -> dict:
    row = {
        "phase": name, "moves": moves, "moves_per_s": moves / elapsed if elapsed else 0.0,
        "ack_p50": pct(stats.ack_ms, 50), "ack_p95": pct(stats.ack_ms, 95), "ack_p99": pct(stats.ack_ms, 99),
        "all_p50": pct(stats.everyone_ms, 50), "all_p95": pct(stats.everyone_ms, 95),
        "all_p99": pct(stats.everyone_ms, 99), "errors": dict(stats.errors), "gaps": stats.gaps,
        "duplicates": stats.duplicates, "unanswered": getattr(stats, "unanswered", 0), "closed": stats.closed,
        "frames": stats.frames, "bytes_per_frame": stats.frame_bytes / stats.frames if stats.frames else 0,
        **usage,
    }
    print(f"{name:6} {row['moves_per_s']:9.1f} moves/s ({moves} moves in {elapsed:.1f} s)  "
          f"ack p50/p95/p99 {row['ack_p50']:.1f}/{row['ack_p95']:.1f}/{row['ack_p99']:.1f} ms  "
          f"everyone p50/p95/p99 {row['all_p50']:.1f}/{row['all_p95']:.1f}/{row['all_p99']:.1f} ms")
    print(f"       errors {row['errors'] or 0}, gaps {row['gaps']}, duplicates {row['duplicates']}, "
          f"unanswered {row['unanswered']}, closed by the server {row['closed']}, {row['frames']} frames of {row['bytes_per_frame']:.0f} B on average")
    print("       CPU (share of one core) / RSS: " + ", ".join(
        f"{k} {v['cpu']:.0%} / {v['rss_before']:.0f}->{v['rss']:.0f} MiB" for k, v in usage["usage"].items()))
    print(f"       machine: CPUs busy {usage['machine_busy']:.0%} of one core's worth (all programs, /proc/stat), "
          f"load average {usage['load_average'][0]:.1f} -> {usage['load_average'][1]:.1f}; "
          f"the workers' threads were runnable but waiting for a CPU {usage['workers_waiting_for_cpu']:.0%} "
          f"of the phase (summed over threads; the CPUs were taken by other threads, ours included)")
    c = usage["connect"]
    print(f"       sockets: all open with their first message {c['open_s']:.1f} s after the first connect; the workers' "
          f"connect work (presence) went on {c['settle_s']:.1f} s more, before the timed phase")
    if "socket_memory" in usage:
        m = usage["socket_memory"]
        before = m["rss_before_mib"]
        print(f"       workers RSS {before:.0f} MiB before the sockets, {m['rss_open_mib']:.0f} MiB with "
              f"{m['sockets']} open (first message received, no move yet): {m['kib_per_socket']:.0f} KiB per socket")
    return row


async def settle(workers: list[int] | None, *, idle: float = 0.15, window: float = 0.5, limit: float = 60.0) -> None:
    """Wait until the workers have finished the sockets' connect work (each socket's state is sent before
    its presence is recorded and announced: with 1,250 sockets that work runs on for seconds after the last
    first message, and moves timed meanwhile would queue behind it). Idle: under `idle` of one core,
    both workers together, over `window` seconds. Without local workers (`--url`): one second."""
    if not workers:
        await asyncio.sleep(1.0)
        return
    deadline = time.perf_counter() + limit
    while time.perf_counter() < deadline:
        before = cpu_seconds(workers)
        await asyncio.sleep(window)
        if (cpu_seconds(workers) - before) / window < idle:
            return


def measure(groups: dict[str, list[int]]):
    """CPU (share of one core) over the phase, RSS before the sockets open and at the end, per group."""
    # A group is a list of pids or a function finding them again (PostgreSQL starts a process per
    # connection): a process that appeared during the phase counts with all its CPU time, one that
    # ended during the phase is missed.
    def pids(k) -> list[int]:
        return groups[k]() if callable(groups[k]) else groups[k]

    start_pids = {k: pids(k) for k in groups}
    before = {k: {p: cpu_seconds([p]) for p in v} for k, v in start_pids.items()}
    waited_before = runqueue_seconds(start_pids.get("workers", []))
    rss_before = {k: rss_mib(v) for k, v in start_pids.items()}
    load_before = os.getloadavg()[0]
    machine_before = machine_ticks()
    t0 = time.perf_counter()

    def done() -> dict:
        wall = time.perf_counter() - t0
        usage = {}
        for k in groups:
            now = pids(k)
            used = sum(cpu_seconds([p]) - before[k].get(p, 0.0) for p in now)
            usage[k] = {"cpu": used / wall, "rss": rss_mib(now), "rss_before": rss_before[k]}
        waited = runqueue_seconds(start_pids.get("workers", [])) - waited_before
        busy, total = (after - before for after, before in zip(machine_ticks(), machine_before, strict=True))
        return {"usage": usage, "workers_waiting_for_cpu": waited / wall,
                "load_average": (load_before, os.getloadavg()[0]),
                "machine_busy": busy / total * (os.cpu_count() or 1) if total else 0.0}
    return done


async def bench(args, url: str, tables: list[Table], watchers: list[str], site: Site | None) -> tuple[list[dict], list[Client]]:
    base_ws = url.replace("http", "ws", 1).rstrip("/")
    origin = url.rstrip("/")
    groups = {"harness": [os.getpid()]}
    if site is not None:
        groups = {"workers": site.server_pids(), **groups}
        if site.sweeper is not None:
            groups["sweeper"] = [site.sweeper.pid]
    for label, name in (("postgres", "postgres"), ("redis", "redis-server")):
        if pids_named(name):  # local servers only
            groups[label] = functools.partial(pids_named, name)
    rows, game_clients = [], []
    phases = ([] if args.no_game else [("game", False)]) + ([] if args.no_relay else [("relay", True)])
    for name, relay in phases:
        started = time.perf_counter()
        rss_before = rss_mib(groups["workers"]) if "workers" in groups else 0.0
        timing: dict = {}

        async def connected(timing: dict = timing, started: float = started) -> None:
            timing["open_s"] = time.perf_counter() - started
            if "workers" in groups:
                timing["rss_open"] = rss_mib(groups["workers"])
            settled = time.perf_counter()
            await settle(groups.get("workers"))
            timing["settle_s"] = time.perf_counter() - settled
            timing["done"] = measure(groups)

        stats, clients, elapsed, moves = await run_phase(base_ws, origin, tables, watchers, relay=relay,
                                                         seconds=args.seconds, think=args.think, seats=args.seats,
                                                         in_step=args.in_step, connected=connected)
        usage = timing["done"]()
        usage["connect"] = {"open_s": timing["open_s"], "settle_s": timing["settle_s"]}
        if "rss_open" in timing:
            sockets = len(clients)
            usage["socket_memory"] = {"sockets": sockets, "rss_before_mib": rss_before, "rss_open_mib": timing["rss_open"],
                                      "kib_per_socket": (timing["rss_open"] - rss_before) * 1024 / sockets}
        rows.append(report(name, stats, elapsed, moves, usage))
        if not relay:
            game_clients = clients
    return rows, game_clients


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Live play load harness: our move path against a bare relay.")
    parser.add_argument("--tables", type=int, default=10)
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--spectators", type=int, default=0, help="watchers, spread over the tables")
    parser.add_argument("--think", type=float, default=0.0, help="seconds a seat waits before each move")
    parser.add_argument("--in-step", action="store_true",
                        help="with --think: every table starts at once (by default each starts at a random moment "
                             "within the first think period, so tables are not in step)")
    parser.add_argument("--seconds", type=float, default=10.0, help="length of each phase")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--server", choices=("uvicorn", "daphne"), default="uvicorn")
    parser.add_argument("--ws-deflate", action="store_true",
                        help="uvicorn with websocket compression (permessage-deflate), off in production (docs/deploy.md)")
    parser.add_argument("--url", help="a running site (http://host:port) instead of starting one")
    parser.add_argument("--no-relay", action="store_true", help="skip the relay phase")
    parser.add_argument("--no-game", action="store_true", help="skip the game phase (the relay alone)")
    parser.add_argument("--json", help="also write the figures to this file")
    args = parser.parse_args(argv)

    django_setup()
    from django.conf import settings
    from django.db import connection

    if settings.CHANNEL_LAYERS["default"]["BACKEND"] == "channels.layers.InMemoryChannelLayer" and args.workers > 1 and not args.url:
        parser.error("several workers need REDIS_URL (the in-memory channel layer is one process only)")
    print(f"live bench {time.strftime('%Y-%m-%d %H:%M')} | Python {sys.version.split()[0]} | {os.cpu_count()} CPUs | "
          f"{connection.vendor} | {settings.CHANNEL_LAYERS['default']['BACKEND'].rsplit('.', 1)[-1]}"
          f"{' (encrypted)' if settings.CHANNEL_LAYERS['default'].get('CONFIG', {}).get('symmetric_encryption_keys') else ''} | "
          f"{args.tables} tables x {args.seats} seats + {args.spectators} spectators | think {args.think} s | "
          f"{args.seconds} s per phase | " + (args.url or f"{args.server} x {args.workers} workers"))
    t0 = time.perf_counter()
    tables, watchers, event_id = create_tables(args.tables, args.seats, args.spectators)
    print(f"setup: {len(tables)} live games, {args.tables * args.seats + args.spectators} sessions "
          f"in {time.perf_counter() - t0:.1f} s")
    connection.close()  # no connection held open (and no transaction) while the server runs
    site = None
    if not args.url:
        db_name = str(settings.DATABASES["default"]["NAME"])
        site = Site(args.workers, args.server, db_name, deflate=args.ws_deflate).start()
    try:
        rows, clients = asyncio.run(bench(args, args.url or f"http://127.0.0.1:{site.port}", tables, watchers, site))
    finally:
        if site is not None:
            site.stop()
    problems = check_database(tables, clients)
    for row in rows:
        if row["gaps"] or row["duplicates"] or row["unanswered"] or row["closed"]:
            problems.append(f"{row['phase']} phase: {row['gaps']} gaps, {row['duplicates']} duplicates, "
                            f"{row['unanswered']} moves never answered, {row['closed']} sockets closed by the server")
    acked = sum(len(c.acked) for c in clients)
    if len(rows) > 1 and rows[1]["moves_per_s"]:
        print(f"ratio  game/relay moves/s {rows[0]['moves_per_s'] / rows[1]['moves_per_s']:.2f}")
    print(f"check  {acked} acknowledged moves against the database, {len(clients)} sockets' cards: "
          + ("OK" if not problems else "FAILED"))
    for problem in problems:
        print("  - " + problem)
    result = {"args": vars(args), "phases": rows, "problems": problems, "acknowledged": acked, "event": event_id}
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=2))
    main.result = result  # for tests that call main() in-process
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
