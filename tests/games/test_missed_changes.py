"""A change whose broadcast never came (games/services/missed_changes.py): the worker that stored it died
before announcing it, or the channel layer lost it. The table's sockets still get it, within a second,
as numbered updates, exactly once."""

import asyncio
import time
from datetime import timedelta

import pytest

from games.services import broadcast, missed_changes, resync
from tests.games.test_table_play import play_one, setup_table

pytestmark = [pytest.mark.django_db(transaction=True)]


async def _not_sent(*args, **kwargs) -> None:
    return None


def never_broadcast(monkeypatch) -> None:
    """Moves are stored but their "changed" signal never goes out (a worker dying between the two): from
    the database threads' transactions (`announce_on_commit`) and from the one-statement move, which
    publishes itself (`publish`, which the threads' announcer uses too)."""
    monkeypatch.setattr(broadcast, "announce_on_commit", lambda *args, **kwargs: None)
    monkeypatch.setattr(broadcast, "publish", _not_sent)


async def test_a_move_stored_but_never_broadcast_reaches_every_socket_within_a_second(live_settings, monkeypatch):
    live_settings.LIVE_MISSED_CHANGE_SECONDS = 0.2
    game, live, users, sockets, states = await setup_table()
    version = states[0]["version"]
    never_broadcast(monkeypatch)  # dies before announcing

    started = time.monotonic()
    await play_one(sockets, version)  # the mover's ack, then every socket's update: from the check
    assert time.monotonic() - started < 1.5
    for s in sockets:
        assert s.state["version"] == version + 1
        assert [m for m in await s.drain(0.5) if m["type"] in ("update", "state")] == []  # once, not again


async def test_the_check_leaves_alone_a_socket_whose_broadcast_may_still_be_coming(live_settings, monkeypatch):
    live_settings.LIVE_MISSED_CHANGE_SECONDS = 60  # the loop stays asleep: the test calls the check itself
    game, live, users, sockets, states = await setup_table()
    never_broadcast(monkeypatch)
    monkeypatch.setattr(missed_changes, "GRACE", missed_changes.GRACE * 100)
    await sockets[0].send({"type": "sync"})
    await sockets[0].receive_until(lambda m: m["type"] == "state")
    tables = missed_changes._sockets[asyncio.get_running_loop()]
    assert await missed_changes.check_once(tables) == 0  # nobody behind
    version = states[0]["version"]
    views = [s.state["view"] for s in sockets]
    mover = next(s for s in sockets if s.state["hand_seat"] == views[0]["turn"])
    action = {k: v for k, v in mover.state["view"]["legal_actions"][0].items() if k != "seat"}
    await mover.send({"type": "move", "version": version, "action": action, "id": "g1"})
    await mover.receive_until(lambda m: m["type"] == "ack")
    assert await missed_changes.check_once(tables) == 0  # stored just now: its broadcast may be on its way
    monkeypatch.setattr(missed_changes, "GRACE", timedelta(0))
    assert await missed_changes.check_once(tables) == len(sockets)
    for s in sockets:
        update = await s.receive_until(lambda m: m["type"] == "update")
        assert update["version"] == version + 1


async def test_pings_read_no_version_of_their_own_yet_bring_a_missed_change(live_settings, monkeypatch):
    """Every socket pings (the page does every 20 s): the pings wait for the process's next check (one
    query for all its tables, twice a second whatever the pings) instead of each reading the version, and
    a socket behind a stored change is sent it right after its pong."""
    live_settings.LIVE_MISSED_CHANGE_SECONDS = 0.2
    game, live, users, sockets, states = await setup_table()
    never_broadcast(monkeypatch)
    monkeypatch.setattr(missed_changes, "GRACE", missed_changes.GRACE * 100)  # the check alone sends nothing
    own_reads, readings = [], []
    monkeypatch.setattr(resync, "_version", lambda live_id: own_reads.append(live_id))
    real = missed_changes.stored_versions
    monkeypatch.setattr(missed_changes, "stored_versions", lambda ids: readings.append(ids) or real(ids))
    version = states[0]["version"]
    mover = next(s for s in sockets if s.state["hand_seat"] == s.state["view"]["turn"])
    action = {k: v for k, v in mover.state["view"]["legal_actions"][0].items() if k != "seat"}
    await mover.send({"type": "move", "version": version, "action": action, "id": "p1"})
    await mover.receive_until(lambda m: m["type"] == "ack")
    readings.clear()

    for n, s in enumerate(sockets):
        await s.send({"type": "ping", "echo": n})
    for n, s in enumerate(sockets):
        pong = await s.receive_until(lambda m: m["type"] in ("update", "pong"))
        assert pong == {"type": "pong", "echo": n}  # at once: the reading comes after
        update = await s.receive_until(lambda m: m["type"] == "update")
        assert update["version"] == version + 1
    assert own_reads == []  # no ping read the version itself: the worker's checks answered them all
    assert readings


async def test_without_the_checks_a_ping_reads_the_version_itself(live_settings, monkeypatch):
    live_settings.LIVE_MISSED_CHANGE_SECONDS = 0
    game, live, users, sockets, states = await setup_table()
    own_reads = []
    real = resync._version
    monkeypatch.setattr(resync, "_version", lambda live_id: own_reads.append(live_id) or real(live_id))
    await sockets[0].send({"type": "ping", "echo": 1})
    assert (await sockets[0].receive_until(lambda m: m["type"] == "pong"))["echo"] == 1
    await sockets[0].drain(0.3)  # the reading comes after the pong
    assert own_reads == [live.pk]


async def test_a_move_sent_just_after_a_ping_is_not_held_up_by_the_pings_reading(live_settings, monkeypatch):
    """The page's keep-alive ping waits for the worker's next reading of its tables; the move a player
    sends meanwhile is taken and acknowledged without waiting for it, and the pong does not wait either."""
    game, live, users, sockets, states = await setup_table()
    released = asyncio.Event()

    async def slow_reading(live_id):
        await released.wait()
        return missed_changes.UNREAD

    monkeypatch.setattr(missed_changes, "next_reading", slow_reading)
    version = states[0]["version"]
    mover = next(s for s in sockets if s.state["hand_seat"] == s.state["view"]["turn"])
    action = {k: v for k, v in mover.state["view"]["legal_actions"][0].items() if k != "seat"}
    await mover.send({"type": "ping", "echo": "keep-alive"})
    await mover.send({"type": "move", "version": version, "action": action, "id": "after-ping"})
    assert await mover.receive_until(lambda m: m["type"] in ("ack", "pong")) == {"type": "pong", "echo": "keep-alive"}
    ack = await mover.receive_until(lambda m: m["type"] in ("ack", "pong"))
    assert ack == {"type": "ack", "id": "after-ping", "version": version + 1}
    assert not released.is_set()  # both answered while the reading was still waiting
    released.set()


async def test_a_ping_is_answered_at_once_while_the_database_is_out_of_reach(live_settings, monkeypatch):
    """A pong says the socket is alive: it never waits for the database. A socket whose stored version
    cannot be read is told so once (not on every ping), and again only after a reading succeeded."""
    game, live, users, sockets, states = await setup_table()
    database_back = asyncio.Event()

    async def reading_while_down(live_id):
        await database_back.wait()  # the check is stuck on a database that does not answer
        return missed_changes.UNREACHABLE

    monkeypatch.setattr(missed_changes, "next_reading", reading_while_down)
    watcher = sockets[1]
    await watcher.send({"type": "ping", "echo": 1})
    assert await watcher.receive_until(lambda m: m["type"] in ("pong", "error")) == {"type": "pong", "echo": 1}
    database_back.set()  # the check gives up: the database could not be read
    told = await watcher.receive_until(lambda m: m["type"] in ("pong", "error"))
    assert told["type"] == "error" and told["code"] == "unavailable" and "database" in told["message"]
    await watcher.send({"type": "ping", "echo": 2})
    assert await watcher.receive_until(lambda m: m["type"] in ("pong", "error")) == {"type": "pong", "echo": 2}
    assert [m for m in await watcher.drain(0.3) if m["type"] == "error"] == []  # told once per outage


async def test_the_check_goes_on_past_a_socket_whose_client_has_gone(live_settings, monkeypatch):
    """A socket that goes away mid-check (its send raises, as uvicorn's `ClientDisconnected` does) never
    stops the check for the other sockets that are behind."""
    live_settings.LIVE_MISSED_CHANGE_SECONDS = 60  # the loop stays asleep: the test calls the check itself
    game, live, users, sockets, states = await setup_table()
    never_broadcast(monkeypatch)
    monkeypatch.setattr(missed_changes, "GRACE", timedelta(0))
    version = states[0]["version"]

    class Gone:
        live_id, sent_version = live.pk, 0

        async def game_changed(self, message):
            raise OSError("client disconnected")  # uvicorn's ClientDisconnected is an OSError

    tables = missed_changes._sockets[asyncio.get_running_loop()]
    gone = Gone()
    tables[live.pk].add(gone)
    mover = next(s for s in sockets if s.state["hand_seat"] == s.state["view"]["turn"])
    action = {k: v for k, v in mover.state["view"]["legal_actions"][0].items() if k != "seat"}
    await mover.send({"type": "move", "version": version, "action": action, "id": "g1"})
    await mover.receive_until(lambda m: m["type"] == "ack")
    assert await missed_changes.check_once(tables) == len(sockets) + 1
    for s in sockets:
        assert (await s.receive_until(lambda m: m["type"] == "update"))["version"] == version + 1


@pytest.mark.django_db
def test_the_stored_versions_are_read_in_one_query_whose_text_does_not_grow_with_the_tables():
    """Twice a second a worker reads the stored version of every table it holds sockets at: the rows as the
    ORM reads them, in one query; on PostgreSQL its text is the same for 1 table or 3 (one array
    parameter: psycopg rewrites a long `IN (%s, ...)` afresh on every call)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from games.models import LiveGame
    from tests.games.factories import make_tournament_game
    from tournament.services.live_tables import live_game_for

    lives = [live_game_for(make_tournament_game(2)[0], seed=n) for n in range(3)]
    ids = [live.pk for live in lives]
    expected = {pk: (version, saved) for pk, version, saved
                in LiveGame.objects.filter(pk__in=ids).values_list("pk", "version", "updated_at")}
    with CaptureQueriesContext(connection) as queries:
        assert missed_changes.stored_versions(ids) == expected
        assert missed_changes.stored_versions(ids[:1]) == {ids[0]: expected[ids[0]]}
        assert missed_changes.stored_versions(ids + [ids[-1] + 1000]) == expected  # a table gone since
    assert len(queries) == 3
    if connection.vendor == "postgresql":
        assert all("= ANY(" in q["sql"] and " IN (" not in q["sql"] for q in queries.captured_queries)


def test_a_worker_running_late_waits_longer_before_calling_a_broadcast_missed():
    """A loaded worker handles the broadcasts queued for its sockets late: the check allows for how late
    its own wake-up was, so it does not load from the database what is already on its way."""
    from datetime import timedelta

    assert missed_changes.grace(0.0) == missed_changes.GRACE
    assert missed_changes.grace(-0.01) == missed_changes.GRACE  # woke early: no margin taken off
    assert missed_changes.grace(0.2) == missed_changes.GRACE + timedelta(seconds=0.2 * missed_changes.LATE_FACTOR)


async def test_the_check_passes_its_lateness_on(live_settings, monkeypatch):
    """`check_forever` measures how late each of its wake-ups is and gives the check the largest of the
    last few."""
    live_settings.LIVE_MISSED_CHANGE_SECONDS = 0.05
    seen = []

    async def check(tables, late=0.0):
        seen.append(late)
        if len(seen) == 2:  # the loop is busy while the check sleeps: its next wake-up comes late
            asyncio.get_running_loop().call_later(0.01, time.sleep, 0.3)
        if len(seen) >= 4:
            raise asyncio.CancelledError

    monkeypatch.setattr(missed_changes, "check_once", check)
    with pytest.raises(asyncio.CancelledError):
        await missed_changes.check_forever({})
    assert seen[0] < 0.05 and seen[2] >= 0.2 and seen[3] >= 0.2  # remembered over the next checks
