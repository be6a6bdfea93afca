"""Seating players at tables: pure functions over plain ids, no database.

``build_tables`` splits players into tables whose sizes lie within the event's bounds and differ by at
most one, using as few tables as the bounds allow (so tables are as full as possible). Players are
shuffled with a recorded seed (the round stores it, so a seating can be replayed), or spread by a seeding
score in snake order so the strongest players do not meet at the first table.

Two error types, as in Tabbycat's draw generators: ``SeatingError`` is for the organizer to read and fix
(too few players for the smallest table, bounds upside down); ``SeatingFatalError`` means a bug.
"""

from __future__ import annotations

import math
import random
from collections.abc import Hashable, Mapping, Sequence
from typing import TypeVar

PlayerId = TypeVar("PlayerId", bound=Hashable)

BOT = None  # a seat filled by a bot in the output of ``build_tables(..., fill_with_bots=True)``


class SeatingError(ValueError):
    """The players cannot be seated as asked; the message tells the organizer what to change."""


class SeatingFatalError(RuntimeError):
    """The seating came out wrong: a bug, never the organizer's doing."""


def table_sizes(count: int, min_size: int, max_size: int, fill_with_bots: bool = False) -> list[int]:
    """Sizes of the tables for ``count`` players: within bounds, differing by at most one, largest first.

    With ``fill_with_bots`` a short count still gets tables: every table is brought up to ``min_size``
    (the caller fills the free seats with bots). Without it, a count that cannot be seated raises
    ``SeatingError``.
    """
    if min_size < 2:
        raise SeatingError("A table needs at least 2 seats.")
    if min_size > max_size:
        raise SeatingError(f"The smallest table ({min_size}) cannot be larger than the largest ({max_size}).")
    if count < 1:
        raise SeatingError("There are no players to seat.")
    tables = math.ceil(count / max_size)
    if tables * min_size > count:
        if not fill_with_bots:
            raise SeatingError(
                f"{count} player{'s' if count != 1 else ''} cannot be seated at tables of "
                f"{min_size} to {max_size}: "
                + _shortfall_hint(count, min_size, max_size)
            )
        return [min_size] * tables
    base, extra = divmod(count, tables)
    return [base + 1] * extra + [base] * (tables - extra)


def _shortfall_hint(count: int, min_size: int, max_size: int) -> str:
    tables = math.ceil(count / max_size)
    missing = tables * min_size - count
    return (
        f"{missing} more player{'s' if missing != 1 else ''} (or bots) would be needed, "
        f"or lower the smallest table size to {max(2, count // tables)}."
    )


def build_tables(
    player_ids: Sequence[PlayerId],
    min_size: int,
    max_size: int,
    seed: int,
    seeding: Mapping[PlayerId, int | None] | None = None,
    fill_with_bots: bool = False,
) -> list[list[PlayerId | None]]:
    """Seat ``player_ids`` at tables of ``min_size``..``max_size``; the same seed gives the same tables.

    Without ``seeding`` the players are shuffled with ``seed`` and dealt to the tables in turn. With
    ``seeding`` (player id → score, higher is stronger, ``None`` unknown) they are ordered strongest
    first (ties and unknowns shuffled with ``seed``) and dealt in snake order: 1, 2, …, n, n, …, 2, 1.
    With ``fill_with_bots`` short tables get ``BOT`` (``None``) entries up to ``min_size``, at the end.
    """
    ids = list(player_ids)
    if len(set(ids)) != len(ids):
        raise SeatingError("A player appears twice in the list to seat.")
    sizes = table_sizes(len(ids), min_size, max_size, fill_with_bots=fill_with_bots)
    random.Random(seed).shuffle(ids)
    if seeding is not None:
        # Stable sort: players with the same (or no) seeding keep their shuffled order.
        ids.sort(key=lambda pid: (seeding.get(pid) is None, -(seeding.get(pid) or 0)))
    tables: list[list[PlayerId | None]] = [[] for _ in sizes]
    for index, pid in enumerate(ids):
        lap, position = divmod(index, len(tables))
        table = position if lap % 2 == 0 else len(tables) - 1 - position
        tables[table].append(pid)
    for table in tables:
        table.extend([BOT] * (min_size - len(table)))
    _check(tables, ids, min_size, max_size)
    return tables


def _check(tables: list[list], ids: list, min_size: int, max_size: int) -> None:
    seated = [pid for table in tables for pid in table if pid is not BOT]
    if sorted(map(repr, seated)) != sorted(map(repr, ids)):
        raise SeatingFatalError("Not every player was seated exactly once.")
    lengths = [len(table) for table in tables]
    if min(lengths) < min_size or max(lengths) > max_size or max(lengths) - min(lengths) > 1:
        raise SeatingFatalError(f"Table sizes {lengths} break the bounds {min_size}..{max_size}.")


def swap_players(tables: Sequence[Sequence[PlayerId | None]], first: PlayerId,
                 second: PlayerId) -> list[list[PlayerId | None]]:
    """``tables`` with ``first`` and ``second`` in each other's seats (a new list; sizes unchanged).

    Raises ``SeatingError`` when either is not seated, or both sit at the same table.
    """
    where = {pid: (t, s) for t, table in enumerate(tables) for s, pid in enumerate(table) if pid is not BOT}
    missing = [pid for pid in (first, second) if pid is BOT or pid not in where]
    if missing:
        raise SeatingError("Choose two players who are seated in this preview.")
    (t1, s1), (t2, s2) = where[first], where[second]
    if t1 == t2:
        raise SeatingError(f"Both already sit at table {t1 + 1}: choose players at different tables.")
    swapped = [list(table) for table in tables]
    swapped[t1][s1], swapped[t2][s2] = second, first
    return swapped
