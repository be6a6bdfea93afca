"""bench/live/ at the smallest scale: a real server process (uvicorn, one worker, run_sweeper) on the
test database, real websockets, the game phase and the relay phase; its loss/duplication and card
checks pass, and they do catch a lost move and a leaked card when there is one."""

import os
import secrets
import shutil

import pytest
from django.conf import settings
from django.db import connection

from bench import live
from games.models import LiveMove

pytestmark = [pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _layer_key_for_this_test_only(monkeypatch):
    """The harness gives its server processes a channel-layer key through the environment when none is set
    (bench/live/tables.py); set here, it goes again after the test, so later tests' live servers do not
    encrypt a layer this process reads in clear."""
    monkeypatch.setenv("CHANNEL_LAYER_KEY", secrets.token_urlsafe(40))


def test_harness_plays_one_small_table_end_to_end_and_its_checks_pass(capsys):
    if connection.vendor == "sqlite" and connection.is_in_memory_db():
        pytest.skip("the server process needs a file-based SQLite test database (config/environment.py)")
    assert live.main(["--tables", "1", "--seats", "2", "--seconds", "1.5", "--workers", "1", "--ping", "0.4"]) == 0
    result = live.main.result
    game, relay = result["phases"]
    assert result["problems"] == []
    assert game["pings"] >= 2 and relay["pings"] >= 2  # each socket pings as the table page does
    assert game["moves"] > 0 and relay["moves"] > 0
    assert game["gaps"] == game["duplicates"] == game["unanswered"] == 0
    assert game["closed"] == relay["closed"] == 0
    stored = LiveMove.objects.filter(live_game__game__table__round__event_id=result["event"],
                                     actor=LiveMove.Actor.PLAYER).count()
    assert stored == result["acknowledged"] >= game["moves"]
    assert set(game["usage"]) >= {"workers", "harness"}
    # memory sampled once both sockets were open, before any move; time spent waiting for a CPU
    assert game["socket_memory"]["sockets"] == 2 and game["socket_memory"]["rss_open_mib"] > 0
    # each phase in workers of its own, started afresh, so their memory per socket compares
    assert relay["socket_memory"]["sockets"] == 2 and relay["socket_memory"]["rss_open_mib"] > 0
    assert game["worker_pids"] and relay["worker_pids"] and not set(game["worker_pids"]) & set(relay["worker_pids"])
    assert game["workers_waiting_for_cpu"] >= 0
    # the server processes' garbage collections during the timed phase: their CPU time and longest pause
    assert game["gc"]["collections"] > 0 and game["gc_ms_per_move"] > 0 and game["gc_longest_ms"] >= 0
    assert 0 <= game["gc_longest_in_workers_ms"] <= game["gc_longest_ms"]  # the workers' own, apart from the sweeper's
    # the targets are ratios to the relay in the same run: printed by the run
    workers = game["cpu_ms_per_move"]["workers"], relay["cpu_ms_per_move"]["workers"]
    assert (f"workers' CPU per stored move {workers[0]:.2f} / {workers[1]:.2f} ms = {workers[0] / workers[1]:.2f}"
            in capsys.readouterr().out)


def test_harness_runs_behind_nginx_with_each_table_routed_to_one_worker():
    """`--proxy table`: nginx in front of one uvicorn per worker (two with Redis, which several workers
    need), hashing each table's path; the run's checks pass and nginx's CPU is reported."""
    if connection.vendor == "sqlite" and connection.is_in_memory_db():
        pytest.skip("the server process needs a file-based SQLite test database (config/environment.py)")
    if not (shutil.which("nginx") or os.path.exists("/usr/sbin/nginx")):
        if os.environ.get("CI"):
            pytest.fail("CI installs nginx (.ci/run): the proxy mode must be tested there")
        pytest.skip("needs nginx (Debian's package nginx)")
    workers = "2" if settings.CHANNEL_LAYERS["default"]["BACKEND"] != "channels.layers.InMemoryChannelLayer" else "1"
    assert live.main(["--tables", "2", "--seats", "2", "--seconds", "1.5", "--workers", workers,
                      "--proxy", "table", "--no-relay"]) == 0
    result = live.main.result
    (game,) = result["phases"]
    assert result["problems"] == [] and game["moves"] > 0
    assert "nginx" in game["usage"] and game["usage"]["nginx"]["cpu"] >= 0


def test_human_pace_counts_the_offered_moves_from_when_every_table_has_started(monkeypatch, capsys):
    """With --think each table starts at its own moment in the first think period, and the timed phase
    starts after it: the run prints the moves offered (a move per think period at every table) and the
    share stored. Every client is on 127.0.0.1, so the per-address cap on logged-in sockets is lifted for
    the bench's server (set to 2 here: without that, all but two of its sockets would be closed)."""
    if connection.vendor == "sqlite" and connection.is_in_memory_db():
        pytest.skip("the server process needs a file-based SQLite test database (config/environment.py)")
    monkeypatch.setenv("SOCKET_MAX_OPEN_PER_ADDRESS_LOGGED_IN", "2")
    assert live.main(["--tables", "2", "--seats", "2", "--spectators", "2", "--think", "0.25", "--seconds", "2",
                      "--workers", "1", "--no-relay"]) == 0
    result = live.main.result
    (game,) = result["phases"]
    assert result["problems"] == [] and game["closed"] == 0
    offered = game["offered"]
    assert 2 * 2 / 0.25 * 0.95 < offered < 2 * 2.5 / 0.25  # two tables, a move every 0.25 s, about 2 s
    assert game["stored_share"] == pytest.approx(game["moves"] / offered)
    assert 0.5 < game["stored_share"] <= 1.0
    assert f"offered {offered:.0f} moves" in capsys.readouterr().out


class ClosingSocket:
    """A websocket whose server closes it after one state message."""

    def __init__(self):
        self.messages = ['{"type": "state", "version": 3, "view": null}']

    def __aiter__(self):
        return self

    async def __anext__(self):
        if not self.messages:
            raise StopAsyncIteration
        return self.messages.pop()


def test_a_socket_the_server_closes_during_a_phase_is_counted_and_fails_the_run():
    import asyncio

    stats = live.Stats()
    client = live.Client("ws://x/", 1, None, None, live.TableClock(2), stats, 0.0, False, 2)
    client.ws = ClosingSocket()
    asyncio.run(client.run())
    assert client.version == 3 and stats.closed == 1
    stopping = live.Client("ws://x/", 1, None, None, live.TableClock(2), live.Stats(), 0.0, False, 2)
    stopping.ws, stopping.stopping = ClosingSocket(), True  # closed by the harness at the phase's end
    asyncio.run(stopping.run())
    assert stopping.stats.closed == 0


class RecordingSocket:
    def __init__(self):
        self.sent = []

    async def send(self, text):
        self.sent.append(text)


def test_no_seat_moves_before_the_timed_phase_starts():
    """A seat that gets its first state while the others are still connecting waits for the phase: moves
    made then were all released at once at its start (a burst no room of people makes)."""
    import asyncio
    import json

    client = live.Client("ws://x/", 1, 0, None, live.TableClock(2), live.Stats(), 0.0, False, 2)
    client.ws = RecordingSocket()
    client.view = {"legal_actions": [{"type": "draw", "seat": 0}]}
    asyncio.run(client.maybe_move())
    assert client.ws.sent == [] and not client.moving
    client.playing = True
    asyncio.run(client.maybe_move())
    assert [json.loads(m)["action"] for m in client.ws.sent] == [{"type": "draw"}]


class FakeClient:
    def __init__(self, live_id, seat, acked=None, seen=()):
        self.live_id, self.seat, self.acked, self.seen_private = live_id, seat, acked or {}, set(seen)


def test_checker_reports_a_lost_move_an_unacknowledged_one_and_a_leaked_card():
    tables, watchers, _ = live.create_tables(1, 2, 1)
    live_id = tables[0].live_id
    LiveMove.objects.create(live_game_id=live_id, version=2, hand_number=0, seat=0, actor="player",
                            action={"type": "draw", "seat": 0}, events=[], hand_seats=[0, 1])
    dealt = LiveMove.objects.get(live_game_id=live_id, version=1)
    own = set(live.private_codes([e["private"] for e in dealt.events if e.get("visible_to") in (None, [0])], set()))
    assert live.check_database(tables, [FakeClient(live_id, 0, {2: {"type": "draw"}}, own)]) == []

    problems = live.check_database(tables, [
        FakeClient(live_id, 0, {3: {"type": "draw"}}),  # acknowledged, never stored; version 2 never acked
        FakeClient(live_id, 1, seen={"XX9"}),  # a card seat 1 never held
        FakeClient(live_id, None, seen={"R1"}),  # a spectator saw a hidden card
    ])
    text = "\n".join(problems)
    assert "not in the database" in text and "never acknowledged" in text
    assert "never held" in text and "spectator" in text
