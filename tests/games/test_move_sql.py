"""The one-statement move (games/services/move_sql.py, through `socket_moves.play_move`): an ordinary move is one
round trip to PostgreSQL, and every move it does not take is answered by the ORM path as before.

PostgreSQL only: the module is (SQLite keeps the ORM path, which the rest of tests/games covers there).
Round trips are counted in psycopg and asyncpg (bench/round_trips.py)."""

import pytest
from channels.db import database_sync_to_async
from django.db import connection

from bench import round_trips
from games import engine
from games.models import LiveGame, LiveMove
from games.services import first_moves, move_sql, snapshots
from games.services.moves import (
    ALREADY_PLAYED,
    FORBIDDEN,
    ID_REUSED,
    PAUSED,
    STALE,
    MoveRefused,
    submit_move,
)
from games.services.seats import seat_holders
from games.services.socket_moves import play_move
from tests.games.factories import make_tournament_game
from tournament.services import game_status, players
from tournament.services.live_tables import live_game_for

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="the one-statement move is PostgreSQL's only"),
]

round_trips.install()


@pytest.fixture(autouse=True)
async def _pool_closed_after_the_test():
    yield
    await move_sql.close()


async def table(players_count=3):
    game, users = await database_sync_to_async(make_tournament_game)(players_count)
    live = await database_sync_to_async(live_game_for)(game, seed=11)
    return game, live.pk, {u.pk: u for u in users}


def turn(live_id, version, which=0):
    """(user id of the seat on turn, one of its legal actions without the seat) at `version`."""
    snap = snapshots.snapshot_at(live_id, version)
    hand_seat = snap.game.hand.turn
    actions = engine.view_for(snap.game.hand, hand_seat)["legal_actions"]
    action = {k: v for k, v in actions[min(which, len(actions) - 1)].items() if k != "seat"}
    return snap.holders[snap.hand_seats[hand_seat]].user_id, action


async def move(live_id, users, version, which=0, move_id=""):
    """The seat on turn plays; returns (round trips, the new version, who moved, the action)."""
    user_id, action = turn(live_id, version, which)
    with round_trips.counting() as trips:
        done = await play_move(live_id, users[user_id], version, action, move_id)
    return trips[0], done.version, user_id, action


async def until_every_seat_moved(live_id, users, version=1):
    """Play until each seat has moved once."""
    moved = set()
    while len(moved) < len(users):
        _, version, user_id, _ = await move(live_id, users, version)
        moved.add(user_id)
    return version


def move_from_the_database(live_id, users):
    """The seat on turn plays, as read from the database (a process that holds nothing of the table)."""
    live = LiveGame.objects.get(pk=live_id)
    state = engine.Game.from_dict(live.state)
    action = {k: v for k, v in engine.legal_actions(state.hand, state.hand.turn)[0].to_dict().items() if k != "seat"}
    user_id = seat_holders(live)[live.hand_seats[state.hand.turn]].user_id
    return submit_move(live_id, users[user_id], live.version, action)


def hand_over(live_id, version):
    return snapshots.snapshot_at(live_id, version).game.hand.over


async def test_an_ordinary_move_is_one_round_trip_stored_as_the_orm_stores_it():
    _, live_id, users = await table()
    heard = []

    def first(sender, moves, **kwargs):
        heard.extend((live_game.pk, seat) for live_game, seat in moves)

    first_moves.first_own_moves.connect(first, dispatch_uid="test-move-sql-first")
    try:
        stored = move_sql.counts["stored"]
        version = await until_every_seat_moved(live_id, users)
        await first_moves.settled()
    finally:
        first_moves.first_own_moves.disconnect(dispatch_uid="test-move-sql-first")
    # each seat's first own move is announced once, after its one statement
    assert sorted(heard) == [(live_id, seat) for seat in range(len(users))]
    assert move_sql.counts["stored"] - stored == version - 1
    before = dict(move_sql.counts)
    ordinary = 0
    for _ in range(6):
        if hand_over(live_id, version):
            break
        trips, new, user_id, action = await move(live_id, users, version, move_id=f"m{version}")
        if not hand_over(live_id, new):
            assert trips == 1  # the UPDATE ... INSERT statement, nothing else
            ordinary += 1
        assert new == version + 1
        version = new
    assert ordinary >= 3 and move_sql.counts["stored"] - before.get("stored", 0) == ordinary
    rows = await database_sync_to_async(lambda: list(LiveMove.objects.filter(live_game_id=live_id).order_by("version")))()
    assert [m.version for m in rows] == list(range(1, version + 1))
    last = rows[-1]
    assert last.actor == "player" and last.user_id is not None and last.client_move_id == f"m{version - 1}"
    # the JSON columns hold JSON values (sent as text, cast in the statement), not strings
    assert type(last.action) is dict and type(last.events) is list and type(last.hand_seats) is list
    assert last.events and all(type(event) is dict for event in last.events)
    stored, state = await database_sync_to_async(lambda: (lambda g: (g, g.state))(LiveGame.objects.get(pk=live_id)))()
    assert stored.version == version
    assert type(stored.missed_turns) is list and type(stored.bot_takeover) is list
    # the log replays to the game this process holds: the stored actions are the applied ones
    assert state == snapshots.snapshot_at(live_id, version).game.to_dict()


async def test_the_statement_sets_the_seats_bit_and_says_whether_it_was_the_first(monkeypatch):
    _, live_id, users = await table()
    answers, store = [], move_sql.store

    async def answered(row):
        answers.append((row.move.seat, await store(row)))
        return answers[-1][1]

    monkeypatch.setattr(move_sql, "store", answered)
    heard = []
    first_moves.first_own_moves.connect(lambda sender, moves, **kw: heard.extend(seat for _, seat in moves),
                                        weak=False, dispatch_uid="test-move-sql-bit")
    try:
        trips, version, _, _ = await move(live_id, users, 1)
        assert trips == 1, "the first own move is stored and marked in its one statement: no lookup"
        (seat, stored), = answers
        assert stored.first_own_move and heard == []  # announced after the move, in a task of its own
        bits = await database_sync_to_async(lambda: LiveGame.objects.get(pk=live_id).seats_moved)()
        assert bits == 1 << seat
        await first_moves.settled()
        assert heard == [seat]
        version = await until_every_seat_moved(live_id, users, version)
        await first_moves.settled()
        assert sorted(heard) == list(range(len(users)))
        snapshots.forget_all()  # as another process: its first move takes the ORM path, the ones after it not
        answers.clear()
        version = (await database_sync_to_async(move_from_the_database)(live_id, users)).version
        for _ in range(len(users) + 1):
            if hand_over(live_id, version):
                break
            _, version, _, _ = await move(live_id, users, version)
        await first_moves.settled()
    finally:
        first_moves.first_own_moves.disconnect(dispatch_uid="test-move-sql-bit")
    assert answers and not any(a.first_own_move for _, a in answers)
    assert sorted(heard) == list(range(len(users)))


async def test_a_move_after_another_process_moved_is_refused_stale_by_the_orm_path():
    _, live_id, users = await table()
    version = await until_every_seat_moved(live_id, users)
    user_id, action = turn(live_id, version)
    other = turn(live_id, version, which=1)[1]
    if other == action:
        pytest.skip("one legal action only at this position")
    # another worker's move at `version`: this process still has the snapshot it acted on
    await database_sync_to_async(submit_move)(live_id, users[user_id], version, action)
    not_taken = move_sql.counts["not_taken"]
    with pytest.raises(MoveRefused) as refused:
        await play_move(live_id, users[user_id], version, other, "late")
    assert refused.value.code == STALE and refused.value.version == version + 1
    assert move_sql.counts["not_taken"] == not_taken + 1  # the statement found the version moved on


async def test_a_doubled_move_id_is_already_played_and_a_reused_one_is_refused():
    _, live_id, users = await table()
    version = await until_every_seat_moved(live_id, users)
    user_id, action = turn(live_id, version)
    await play_move(live_id, users[user_id], version, action, "same")
    with pytest.raises(MoveRefused) as again:  # sent again, as a client does when its ack was lost
        await play_move(live_id, users[user_id], version, action, "same")
    assert again.value.code == ALREADY_PLAYED
    version += 1
    while turn(live_id, version)[0] != user_id:  # the seat's next turn
        assert not hand_over(live_id, version)
        _, version, _, _ = await move(live_id, users, version)
    doubled = move_sql.counts["doubled_id"]
    with pytest.raises(MoveRefused) as reused:
        await play_move(live_id, users[user_id], version, turn(live_id, version)[1], "same")
    assert reused.value.code == ID_REUSED
    assert move_sql.counts["doubled_id"] == doubled + 1  # the move table's unique constraint stopped it
    count = await database_sync_to_async(LiveMove.objects.filter(live_game_id=live_id, client_move_id="same").count)()
    assert count == 1


async def test_a_paused_game_and_a_disqualified_player_are_refused():
    game, live_id, users = await table()
    version = await until_every_seat_moved(live_id, users)
    organizer = next(iter(users.values()))
    await database_sync_to_async(game_status.change_game_status)(game, "pause", organizer, reason="a break")
    version += 1  # the pause is a notice
    user_id, action = turn(live_id, version)
    with pytest.raises(MoveRefused) as refused:
        await play_move(live_id, users[user_id], version, action)
    assert refused.value.code == PAUSED
    await database_sync_to_async(game_status.change_game_status)(game, "resume", organizer)
    version += 1
    user_id, action = turn(live_id, version)
    # disqualified without a new version at the table: the row's seats_version tells this process's copy
    player = await database_sync_to_async(lambda: game.table.seats.get(player__user_id=user_id).player)()
    await database_sync_to_async(players.disqualify)(player, organizer, "rules")
    not_taken = move_sql.counts["not_taken"]
    with pytest.raises(MoveRefused) as refused:
        await play_move(live_id, users[user_id], version, action)
    assert refused.value.code == FORBIDDEN
    assert move_sql.counts["not_taken"] == not_taken + 1


async def test_a_move_waits_for_a_busy_pool_instead_of_taking_the_orm_path(settings):
    """Every connection in use for longer than WAIT_FOR_CONNECTION (a loaded worker): the move waits for
    one and is still stored in one statement. Only a pool with no connection open (the database away)
    sends moves to the ORM path, which would cost a loaded worker several times the CPU."""
    import asyncio

    settings.LIVE_MOVE_SQL_CONNECTIONS = 1
    _, live_id, users = await table()
    version = await until_every_seat_moved(live_id, users)
    pool = await move_sql._pool()
    held = await pool.getconn(timeout=5)  # the pool's only connection, busy for longer than the wait
    loop = asyncio.get_running_loop()
    loop.call_later(move_sql.WAIT_FOR_CONNECTION + 0.3, pool.putconn, held)
    before = dict(move_sql.counts)
    started = loop.time()
    trips, new, _, _ = await move(live_id, users, version)
    assert new == version + 1 and trips == 1  # the one statement, after the wait
    assert loop.time() - started >= move_sql.WAIT_FOR_CONNECTION + 0.2
    assert move_sql.counts["waited"] == before.get("waited", 0) + 1
    assert move_sql.counts["stored"] == before.get("stored", 0) + 1
    assert move_sql.counts["error"] == before.get("error", 0) and move_sql.counts["resting"] == before.get("resting", 0)


async def test_a_connection_the_server_ended_is_replaced(monkeypatch):
    """PostgreSQL ends the pool's idle connections (a restart, an administrator) and the worker has not
    noticed yet: the next move's statement fails on it, is sent again on a new connection and stored in
    one statement all the same, with no rest."""
    from asyncpg.connection import Connection

    _, live_id, users = await table()
    version = await until_every_seat_moved(live_id, users)
    pool = await move_sql._pool()
    ended = sorted(pool.servers)
    assert ended

    def terminate():
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_terminate_backend(pid) FROM unnest(%s) AS pid", [ended])

    await database_sync_to_async(terminate)()
    monkeypatch.setattr(Connection, "is_closed", lambda self: False)  # not noticed yet
    before = dict(move_sql.counts)
    trips, new, _, _ = await move(live_id, users, version)
    monkeypatch.undo()
    assert new == version + 1 and move_sql.counts["retried"] == before.get("retried", 0) + 1
    if not hand_over(live_id, new):
        assert move_sql.counts["stored"] == before.get("stored", 0) + 1
    assert move_sql.counts["error"] == before.get("error", 0) and move_sql.counts["resting"] == before.get("resting", 0)
    assert pool.servers and not pool.servers & set(ended)


async def test_the_statement_stays_prepared_on_the_server():
    """Each connection prepares the statement once and PostgreSQL keeps it (parsed and planned once, not at
    every execution: twice its CPU per move)."""
    _, live_id, users = await table()
    await until_every_seat_moved(live_id, users)
    pool = await move_sql._pool()
    held = await pool.getconn(timeout=5)
    try:
        rows = await held.conn.fetch("SELECT generic_plans + custom_plans FROM pg_prepared_statements "
                                     "WHERE statement = $1", move_sql.statement()[0])
    finally:
        pool.putconn(held)
    assert len(rows) == 1 and rows[0][0] >= held.used


def test_the_statements_bench_stores_its_moves_through_the_sites_path(capsys):
    """bench/move_statement.py: the statement through psycopg, then through `move_sql.store` as a worker runs
    it; every one of its moves is stored, and it prints what each cost."""
    from bench import move_statement

    game, users = make_tournament_game(3)
    live = live_game_for(game, seed=11)
    user_id, action = turn(live.pk, live.version)
    submit_move(live.pk, {u.pk: u for u in users}[user_id], live.version, action)
    before = LiveMove.objects.filter(live_game_id=live.pk).count()
    move_statement.main(5)
    out = capsys.readouterr().out
    assert LiveMove.objects.filter(live_game_id=live.pk).count() == before + 5 + 6  # psycopg's, then the site's
    assert "ms of the session's CPU each" in out
    assert "the site's path (move_sql.store, asyncpg):" in out and "us of this process's CPU each" in out
