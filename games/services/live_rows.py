"""The live game's row and its move rows on the move path, read and written with fixed SQL.

Every change to a live game reads and locks its row (with the tournament game it plays), inserts one move
and updates the row. Through the ORM, building those statements was most of a move's CPU (3.5-4 ms of
7.7 ms measured under load; docs/performance.md). Here each statement's text is built once per process
and database, and rows become the same model instances the ORM gives (`Model.from_db`, every value
through its field's own database converters), so the code around them does not change. Saving writes
every column but the key, as `Model.save()` does (auto-now fields included); no signal listens to
these two models.

On PostgreSQL these statements bind their parameters on the server (`cursor`): the engine state (about
11 KB of JSON) is sent as it is rather than escaped into the statement's text, which Django's
client-side binding did (a fifth of a move's CPU in the profile), and psycopg prepares a statement
once a connection has run it a few times (`prepare_threshold`), so PostgreSQL stops planning it anew.
"""

from __future__ import annotations

from django.apps import apps
from django.db import connection
from django.db.models import Model

from games.models import LiveGame, LiveMove


class _Columns:
    """A model's concrete columns in `_meta` order, and how to turn one row's values into an instance."""

    def __init__(self, model: type[Model]) -> None:
        self.model = model
        self.fields = list(model._meta.concrete_fields)
        self.attnames = [f.attname for f in self.fields]
        self._converters: dict[str, list] = {}  # per database vendor

    def fields_but_key(self) -> list:
        return [f for f in self.fields if not f.primary_key]

    def select(self, alias: str) -> str:
        qn = connection.ops.quote_name
        return ", ".join(f"{alias}.{qn(f.column)}" for f in self.fields)

    def converters(self) -> list:
        """(index, converters, column expression) for the values that need converting, as the ORM's
        compiler finds them (`SQLCompiler.get_converters`)."""
        found = self._converters.get(connection.vendor)
        if found is None:
            found = []
            for index, field in enumerate(self.fields):
                col = field.cached_col
                convert = connection.ops.get_db_converters(col) + col.get_db_converters(connection)
                if convert:
                    found.append((index, convert, col))
            self._converters[connection.vendor] = found
        return found

    def instance(self, values) -> Model:
        values = list(values)
        for index, convert, col in self.converters():
            value = values[index]
            for converter in convert:
                value = converter(value, col, connection)
            values[index] = value
        return self.model.from_db(connection.alias, self.attnames, values)


def cursor():
    """A cursor of Django's connection, wrapped as Django wraps its own (query logging and counting
    included); on PostgreSQL with server-side parameter binding."""
    if connection.vendor != "postgresql":
        return connection.cursor()
    from django.db.backends.postgresql.base import TIMESTAMPTZ_OID, ServerBindingCursor
    from django.db.backends.postgresql.psycopg_any import register_tzloader
    from psycopg.pq import Format

    connection.close_if_health_check_failed()
    connection.ensure_connection()
    with connection.wrap_database_errors:
        raw = ServerBindingCursor(connection.connection)
        tzloader = connection.connection.adapters.get_loader(TIMESTAMPTZ_OID, Format.TEXT)
        if connection.timezone != tzloader.timezone:  # as Django's create_cursor
            register_tzloader(connection.timezone, raw)
        return connection._prepare_cursor(raw)


_live = _Columns(LiveGame)
_move = _Columns(LiveMove)
_tournament_game: _Columns | None = None
_statements: dict[tuple, str] = {}


def _game_columns() -> _Columns:
    global _tournament_game
    if _tournament_game is None:
        _tournament_game = _Columns(apps.get_model("tournament", "Game"))
    return _tournament_game


def _load_sql(lock: str) -> str:
    key = ("load", connection.vendor, lock)
    sql = _statements.get(key)
    if sql is None:
        qn = connection.ops.quote_name
        game = _game_columns()
        sql = (f"SELECT {_live.select('lg')}, {game.select('g')} FROM {qn(LiveGame._meta.db_table)} lg "
               f"LEFT JOIN {qn(game.model._meta.db_table)} g ON g.{qn('id')} = lg.{qn('game_id')} "
               f"WHERE lg.{qn('id')} = %s")
        if lock and connection.features.has_select_for_update:
            # Only the live game's row: the tournament game's row is the organizer's to lock.
            sql += " FOR UPDATE OF lg"
            if lock == "skip_locked" and connection.features.has_select_for_update_skip_locked:
                sql += " SKIP LOCKED"
            elif lock == "nowait" and connection.features.has_select_for_update_nowait:
                sql += " NOWAIT"
        _statements[key] = sql
    return sql


def load(live_game_id: int, lock: str = "") -> LiveGame | None:
    """The live game with its tournament game loaded (`live.game`), or None. `lock`: "" (no lock),
    "wait", "skip_locked" (None if another transaction holds it) or "nowait" (a database error if so).

    PostgreSQL locks the live game's row only. SQLite has no row locks: its connections begin
    transactions IMMEDIATE (see config.environment), which takes the write lock at BEGIN."""
    with cursor() as rows:
        rows.execute(_load_sql(lock), [live_game_id])
        row = rows.fetchone()
    if row is None:
        return None
    count = len(_live.fields)
    live = _live.instance(row[:count])
    if live.game_id is not None:
        # The forward link only: the ORM's select_related would also cache game.live, a reference cycle.
        live._state.fields_cache["game"] = _game_columns().instance(row[count:])
    return live


def _insert_move_sql() -> str:
    qn = connection.ops.quote_name
    fields = _move.fields_but_key()
    return (f"INSERT INTO {qn(LiveMove._meta.db_table)} ({', '.join(qn(f.column) for f in fields)}) "
            f"VALUES ({', '.join(['%s'] * len(fields))}) RETURNING {qn('id')}")


def _update_live_sql() -> str:
    qn = connection.ops.quote_name
    return (f"UPDATE {qn(LiveGame._meta.db_table)} SET "
            + ", ".join(f"{qn(f.column)} = %s" for f in _live.fields_but_key()) + f" WHERE {qn('id')} = %s")


def _statement(name: str, build) -> str:
    key = (name, connection.vendor)
    sql = _statements.get(key)
    if sql is None:
        sql = _statements[key] = build()
    return sql


def _move_values(move: LiveMove) -> list:
    return [f.get_db_prep_save(f.pre_save(move, True), connection) for f in _move.fields_but_key()]


def _live_values(live: LiveGame) -> list:
    return [*(f.get_db_prep_save(f.pre_save(live, False), connection) for f in _live.fields_but_key()), live.pk]


def _inserted(move: LiveMove, pk: int) -> LiveMove:
    move.pk = pk
    move._state.adding = False
    move._state.db = connection.alias
    return move


def save(live: LiveGame) -> None:
    """Write every column of the (loaded) live game but its key, as `live.save()` would."""
    with cursor() as statement:
        statement.execute(_statement("save", _update_live_sql), _live_values(live))


def insert_move(move: LiveMove) -> LiveMove:
    """Insert a new move row (its key is set on `move`), as `move.save()` would."""
    with cursor() as statement:
        statement.execute(_statement("insert_move", _insert_move_sql), _move_values(move))
        return _inserted(move, statement.fetchone()[0])


def write_change(move: LiveMove, live: LiveGame) -> LiveMove:
    """Insert the new move row and update the live game's row: on PostgreSQL in one statement (a CTE),
    elsewhere `insert_move` then `save`. The move's key is set on `move`."""
    if connection.vendor != "postgresql":
        insert_move(move)
        save(live)
        return move
    sql = _statement("write_change", lambda: f"WITH m AS ({_insert_move_sql()}) {_update_live_sql()} "
                                             f"RETURNING (SELECT id FROM m)")
    with cursor() as statement:
        statement.execute(sql, [*_move_values(move), *_live_values(live)])
        return _inserted(move, statement.fetchone()[0])
