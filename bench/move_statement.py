"""PostgreSQL's CPU for the one-statement move alone (games/services/move_sql.py), beside a bare
autocommitted UPDATE of the same row: the floor of a stored move is one commit. Then the statement as a
worker runs it (`move_sql.store`: asyncpg on an event loop) and what it costs the caller's process: the
worker's own share of a stored move's floor, apart from what a busy machine adds.

Runs the statement N times in a row on one connection against the newest live game of the database in
DATABASE_URL (copying its last player move as the move), and reads the session's CPU time from /proc
(PostgreSQL on this machine). Leaves 2N moves more in that game's log: use a bench database.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/ocho_bench_live .venv/bin/python bench/move_statement.py 3000
"""

from __future__ import annotations

import asyncio
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def session_cpu(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main(n: int) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    import psycopg

    from games.models import LiveGame, LiveMove
    from games.services import move_sql

    live = LiveGame.objects.order_by("-pk").first()
    model = LiveMove.objects.filter(live_game=live, actor="player").order_by("-version").first()
    if live is None or model is None:
        raise SystemExit("no live game with a player's move in this database: run bench/live first")
    conn = psycopg.connect(**move_sql.connection_kwargs())
    pid = conn.execute("SELECT pg_backend_pid()").fetchone()[0]
    version = live.version
    started, clock = session_cpu(pid), time.perf_counter()
    for _ in range(n):
        sql, names = move_sql.statement()
        values = move_sql.parameters(_move(live, model, version + 1))
        cursor = psycopg.RawCursor(conn)
        cursor.execute(sql, [values[name] for name in names], prepare=True)
        assert cursor.rowcount == 1, "the game's row moved on meanwhile"
        version += 1
    cpu, wall = session_cpu(pid) - started, time.perf_counter() - clock
    print(f"one-statement move: {cpu / n * 1000:.3f} ms of the session's CPU each ({wall / n * 1000:.3f} ms "
          f"wall), {n} in a row")
    started = session_cpu(pid)
    for _ in range(n):
        conn.execute(f'UPDATE "{LiveGame._meta.db_table}" SET "version" = "version" WHERE "id" = %s', [live.pk],
                     prepare=True)
    print(f"bare autocommitted UPDATE of the row: {(session_cpu(pid) - started) / n * 1000:.3f} ms each")
    conn.close()
    cpu, wall = asyncio.run(_through_the_site(live, model, version, n))
    print(f"the site's path (move_sql.store, asyncpg): {cpu / n * 1e6:.0f} us of this process's CPU each "
          f"({wall / n * 1000:.3f} ms wall), {n} in a row")


def _move(live, model, version: int):
    """`model`'s move again as the move to `version` of `live`, with the game row's columns as they are."""
    from django.utils import timezone

    from games.models import LiveMove
    from games.services import move_sql

    move = LiveMove(live_game_id=live.pk, version=version, hand_number=model.hand_number, seat=model.seat,
                    actor=model.actor, user_id=model.user_id, action=model.action, events=model.events,
                    hand_seats=model.hand_seats, client_move_id=f"bench-{version}", via_token=False)
    return move_sql.OrdinaryMove(move, live.seats_version, None, list(live.missed_turns), list(live.bot_takeover),
                                 None, timezone.now())


async def _through_the_site(live, model, version: int, n: int) -> tuple[float, float]:
    """(this process's CPU seconds, wall seconds) for `n` moves stored by `move_sql.store`, one after another."""
    from games.services import move_sql

    version += 1
    assert await move_sql.store(_move(live, model, version)) is not None, "the game's row moved on meanwhile"
    rows = [_move(live, model, version + i) for i in range(1, n + 1)]  # built before the clock: the statement alone
    cpu, clock = time.process_time(), time.perf_counter()
    for each in rows:
        assert await move_sql.store(each) is not None, "the game's row moved on meanwhile"
    cpu, wall = time.process_time() - cpu, time.perf_counter() - clock
    await move_sql.close()
    return cpu, wall

if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 3000)
